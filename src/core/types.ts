/** Stored shapes, as the store returns them (snake_case columns, internal UUIDv7 ids). */
export interface UserRow {
  id: string;
  kind: "person" | "bot";
  username: string;
  global_name: string | null;
  avatar: string | null;
  password_hash: string | null;
  is_admin: number;
  locale: string;
  presence: string;
  created_at: number;
  deleted_at: number | null;
  /** Disabled by an administrator: no sign-in, no session (core/accounts.ts). */
  disabled_at: number | null;
}

export interface ApplicationRow {
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
  token_version: number;
  token_hash: string | null;
  token_intents: number;
  created_at: number;
  /** An operator disabled the application: its token is refused, its sessions end. */
  disabled_at: number | null;
}

export interface GuildRow {
  id: string;
  name: string;
  owner_id: string;
  icon: string | null;
  description: string | null;
  preferred_locale: string;
  system_channel_id: string | null;
  created_at: number;
}

export interface RoleRow {
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

export interface MemberRow {
  guild_id: string;
  user_id: string;
  nick: string | null;
  joined_at: number;
}

export interface ChannelRow {
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
  e2e: number;
  last_message_id: string | null;
  created_at: number;
}

export interface OverwriteRow {
  channel_id: string;
  target_id: string;
  target_type: 0 | 1;
  allow: number;
  deny: number;
}

export interface MessageRow {
  id: string;
  channel_id: string;
  author_id: string;
  type: number;
  content: string;
  ciphertext: string | null;
  embeds: string;
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
}

export const CHANNEL_TYPES = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
} as const;

/** A client's public keys for end-to-end encrypted DMs (raw, base64url); see src/e2e. */
export interface DeviceRow {
  id: string;
  user_id: string;
  name: string;
  x25519: string | null;
  p256: string | null;
  created_at: number;
  removed_at: number | null;
  /** A key backup's private keys, sealed by the client under a passphrase (src/e2e/backup.ts); null for other devices. */
  backup: string | null;
  /** The SHA-256 of the token of the sign-in session holding the device; null for backups and the harness's. */
  session_hash: string | null;
}
