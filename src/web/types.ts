/** The people's API JSON the client reads (docs/people-api.md); ids are internal UUIDs. */

export interface User {
  id: string;
  username: string;
  global_name: string | null;
  bot: boolean;
  presence: string;
}

export interface Me extends User {
  admin: boolean;
  created_at: string;
}

export interface Role {
  id: string;
  name: string;
  permissions: string;
  color: number;
  position: number;
  everyone: boolean;
}

export interface Channel {
  id: string;
  type: number;
  guild_id: string | null;
  name?: string;
  topic?: string | null;
  position?: number;
  recipients?: User[];
  last_message_id: string | null;
}

export interface Guild {
  id: string;
  name: string;
  owner_id: string;
  my_permissions: string;
  channels: Channel[];
  roles: Role[];
}

export interface Member {
  user: User;
  roles: string[];
  nick: string | null;
  joined_at: string;
}

export interface Reaction {
  emoji: string;
  count: number;
  me: boolean;
}

export interface Message {
  id: string;
  channel_id: string;
  author: User;
  content: string;
  ciphertext: string | null;
  embeds: Embed[];
  components: Component[];
  flags: number;
  ephemeral: boolean;
  reply_to: string | null;
  mentions: User[];
  mention_roles: string[];
  mention_everyone: boolean;
  interaction: { id: string; name: string | null; user: User } | null;
  reactions: Reaction[];
  created_at: string;
  edited_at: string | null;
}

export interface Embed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  /** proxy_icon_url / proxy_url: the server's image proxy, when the operator turned it on. */
  author?: { name?: string; url?: string; icon_url?: string; proxy_icon_url?: string };
  footer?: { text?: string; icon_url?: string; proxy_icon_url?: string };
  image?: { url?: string; proxy_url?: string };
  thumbnail?: { url?: string; proxy_url?: string };
  fields?: { name?: string; value?: string; inline?: boolean }[];
}

/** A message component as the bot sent it (buttons, selects, rows, and v2 layout pieces). */
export interface Component {
  type: number;
  style?: number;
  label?: string;
  emoji?: { name?: string | null; id?: string | null };
  custom_id?: string;
  url?: string;
  disabled?: boolean;
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  options?: { label: string; value: string; description?: string; emoji?: { name?: string | null }; default?: boolean }[];
  components?: Component[];
  accessory?: Component;
  content?: string;
  accent_color?: number | null;
}

export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required: boolean;
  choices?: { name: string; value: string | number }[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

export interface Command {
  id: string;
  application_id: string;
  application_name: string;
  bot_user_id: string;
  name: string;
  description: string;
  options: CommandOption[];
}

export interface ReadState {
  channel_id: string;
  last_read_id: string | null;
  unread: boolean;
  mention_count: number;
}

/** Message flags the client acts on. */
export const FLAG_LOADING = 1 << 7;

/** A device's public keys for end-to-end encrypted DMs (docs/people-api.md). */
export interface DeviceJson {
  id: string;
  user_id: string;
  name: string;
  keys: { x25519: string | null; p256: string | null };
  created_at: string;
  removed_at: string | null;
  /** A key backup (its private keys are on the server, sealed under the person's passphrase). */
  backup: boolean;
}
