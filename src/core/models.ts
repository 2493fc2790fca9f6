/**
 * The core's read models: what every surface is given to show an object. Plain data,
 * with internal ids and the stored (snake_case) field names, so that a serializer reads
 * `m.channel_id` whatever layer it sits in. Never a hash, a sealed secret or a password:
 * those stay in the core's own rows, which nothing above the core sees.
 *
 * Each model is its own interface rather than a row with fields left out, so a column
 * added to a table reaches a surface only when it is added here. Composites (a message
 * with its author, a guild with its roles) are in core/composites.ts.
 */
export type { Command, CommandBody, CommandOption, CommandChoice, CommandInput } from "./command-types";

// ---- entities ----

/** A person or a bot user. */
export interface User {
  id: string;
  kind: "person" | "bot";
  username: string;
  global_name: string | null;
  avatar: string | null;
  is_admin: number;
  locale: string;
  presence: string;
  created_at: number;
  deleted_at: number | null;
  /** Disabled by an administrator: no sign-in, no session (core/accounts.ts). */
  disabled_at: number | null;
}

/** A person's sign-in session (core/sessions.ts); its token is never kept, only its digest, which stays in the core. */
export interface Session {
  id: string;
  user_id: string;
  /** What signed in (a browser, the CLI). */
  label: string;
  created_at: number;
  last_used_at: number;
}

/** The signed-in person of a people's API request and their session. */
export interface SignedIn {
  user: User;
  session: Session;
}

/** An application and its bot user's id. */
export interface Application {
  id: string;
  owner_id: string;
  bot_user_id: string;
  name: string;
  description: string;
  intents: number;
  privileged_requested: number;
  privileged_approved: number;
  /** Privileged intents an administrator denied (or revoked) since they were last requested. */
  privileged_denied: number;
  public_key: string;
  interactions_endpoint_url: string | null;
  /** The current token's version; 0 when the application holds no token (restored from an export). */
  token_version: number;
  /** The intents minted into the current token (spec 5.4). */
  token_intents: number;
  created_at: number;
  /** An operator disabled the application: its token is refused, its sessions end. */
  disabled_at: number | null;
}

export interface Guild {
  id: string;
  name: string;
  owner_id: string;
  icon: string | null;
  description: string | null;
  preferred_locale: string;
  system_channel_id: string | null;
  created_at: number;
  /** What a member is notified of unless they say otherwise (spec 2.6): 0 every message, 1 only mentions. */
  default_message_notifications: number;
}

export interface Role {
  id: string;
  guild_id: string;
  name: string;
  permissions: number;
  color: number;
  hoist: number;
  mentionable: number;
  position: number;
  is_everyone: number;
  icon: string | null;
  unicode_emoji: string | null;
  bot_user_id: string | null;
  created_at: number;
}

export interface Member {
  guild_id: string;
  user_id: string;
  nick: string | null;
  joined_at: number;
}

export interface Channel {
  id: string;
  guild_id: string | null;
  type: number;
  name: string | null;
  topic: string | null;
  position: number;
  parent_id: string | null;
  nsfw: number;
  rate_limit_per_user: number;
  user_limit: number | null;
  bitrate: number | null;
  /** 1: the channel's messages are end-to-end encrypted (people's DMs). */
  e2e: number;
  last_message_id: string | null;
  created_at: number;
}

/** A channel's permission overwrite for a role (target_type 0) or a member (1). */
export interface Overwrite {
  channel_id: string;
  target_id: string;
  target_type: 0 | 1;
  allow: number;
  deny: number;
}

export interface Message {
  id: string;
  channel_id: string;
  author_id: string;
  type: number;
  content: string;
  /** A people's DM: the envelope their client sealed (src/e2e); the server never sees its text. */
  ciphertext: string | null;
  /** JSON array. */
  embeds: string;
  /** JSON array. */
  components: string;
  flags: number;
  nonce: string | null;
  tts: number;
  mention_everyone: number;
  /** JSON array of the user ids the message mentions (decided when written). */
  mentions: string;
  /** JSON array of the role ids the message mentions. */
  mention_roles: string;
  reference_message_id: string | null;
  reference_channel_id: string | null;
  reference_guild_id: string | null;
  webhook_id: string | null;
  webhook_name: string | null;
  webhook_avatar: string | null;
  application_id: string | null;
  interaction_id: string | null;
  ephemeral_user_id: string | null;
  pinned: number;
  created_at: number;
  edited_at: number | null;
  /** Where its id stands in time (ids.ts positionOf), unique among messages; null when another message holds it, or on Postgres (migration 023). */
  position?: number | null;
}

/** A client's public keys for end-to-end encrypted DMs (raw, base64url; src/e2e). */
export interface Device {
  id: string;
  user_id: string;
  name: string;
  x25519: string | null;
  p256: string | null;
  created_at: number;
  removed_at: number | null;
  /** A key backup's private keys, sealed by the client under a passphrase only its person knows; null for other devices. */
  backup: string | null;
  /** When it was registered, or the sign-in session holding it was last used (null: registered before this was recorded). */
  last_used_at: number | null;
}

export interface Invite {
  code: string;
  guild_id: string;
  channel_id: string;
  inviter_id: string | null;
  /** Seconds; 0 = never expires. */
  max_age: number;
  /** 0 = unlimited. */
  max_uses: number;
  uses: number;
  temporary: number;
  created_at: number;
}

/** An incoming webhook; its token and secrets stay in the core (`webhooks.tokenOf` for those who may manage it). */
export interface Webhook {
  id: string;
  guild_id: string;
  channel_id: string;
  creator_id: string | null;
  application_id: string | null;
  name: string;
  avatar: string | null;
  created_at: number;
}

/** One audit log entry; `changes` and `options` are JSON with internal ids. */
export interface AuditEntry {
  id: string;
  guild_id: string;
  actor_id: string | null;
  action_type: number;
  target_id: string | null;
  changes: string;
  options: string | null;
  reason: string | null;
  created_at: number;
}

export interface Ban {
  guild_id: string;
  user_id: string;
  reason: string | null;
  created_at: number;
}

/** An interaction (spec 3.1); its token is never kept in clear past INTERACTION_CREATE, and its digest stays in the core. */
export interface Interaction {
  id: string;
  application_id: string;
  type: number;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  message_id: string | null;
  command_id: string | null;
  /** JSON of InteractionData (`interactions.data()` parses it). */
  data: string;
  state: string;
  ephemeral: number;
  response_message_id: string | null;
  created_at: number;
  expires_at: number;
}

/** An option as stored on the interaction: id-typed values hold internal ids. */
export interface StoredOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: StoredOption[];
}

/** What an interaction carries (the `data` column, parsed). */
export type InteractionData =
  | {
      kind: "command";
      commandId: string;
      commandGuildId: string | null;
      name: string;
      type: number;
      options: StoredOption[];
      /** A context-menu command's target: a user (type 2) or a message (type 3). */
      targetId?: string;
    }
  | { kind: "component"; customId: string; componentType: number; values?: string[] };

// ---- conversations: pins and notification settings ----

/** A pinned message of a channel: when, and by whom (null for pins older than the record). */
export interface Pin {
  message_id: string;
  channel_id: string;
  pinned_at: number;
  pinned_by: string | null;
}

/** A person's notification setting for a server (scope = the server) or a channel or DM (scope = the channel). */
export interface NotificationSetting {
  user_id: string;
  scope_id: string;
  guild_id: string | null;
  channel_id: string | null;
  /** 0 every message, 1 only mentions, 2 nothing; null: as the scope above says. */
  level: number | null;
  /** Muted until this time (ms); null: not muted. */
  muted_until: number | null;
}

// ---- files (issue 31) ----

/** Stored bytes, once per content, as judged by their bytes when they arrived (core/media-types.ts). */
export interface MediaBlob {
  sha256: string;
  size: number;
  /** From the bytes, never from the uploader. */
  content_type: string;
  /** 1: shown inline (a safe image within the pixel budget, video, audio, plain text); 0: a download. */
  inline: number;
  width: number | null;
  height: number | null;
  animated: number;
  created_at: number;
}

export type UploadPurpose = "attachment" | "avatar" | "icon" | "emoji";

/** A person's upload slot: asked for with a name and a size, then filled with bytes, then used (sent, set) or left to expire. */
export interface Upload {
  id: string;
  owner_id: string;
  purpose: UploadPurpose;
  /** Attachments: the channel the file is for. */
  channel_id: string | null;
  /** Server icons and emoji: the server. */
  guild_id: string | null;
  filename: string;
  description: string | null;
  declared_size: number;
  /** Null until the bytes arrived. */
  sha256: string | null;
  size: number | null;
  created_at: number;
  expires_at: number;
}

/** A file on a message, with its bytes' facts. */
export interface Attachment {
  id: string;
  message_id: string;
  channel_id: string;
  uploader_id: string;
  sha256: string;
  filename: string;
  description: string | null;
  ordinal: number;
  /** The reference's attachment flags (IS_SPOILER 8). */
  flags: number;
  size: number;
  content_type: string;
  inline: number;
  width: number | null;
  height: number | null;
}

/** A server's own emoji. */
export interface CustomEmoji {
  id: string;
  guild_id: string;
  name: string;
  sha256: string;
  animated: number;
  creator_id: string | null;
  created_at: number;
}
