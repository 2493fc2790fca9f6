/**
 * The schema in Postgres's dialect: the SQLite schema as migrations 1 to 12 leave it
 * (src/store/migrations/), made at once. A Postgres database starts here (its data comes
 * from a new community or from `parley migrate`, never from an older Parley), and
 * schema_migrations records 1 to 12 so that the numbers mean the same on both engines.
 * Every migration after 12 has its Postgres text (schema-later.ts; migrate.ts's
 * pgMigrations lists them; test/pg/schema-parity.test.ts compares the two schemas).
 *
 * The mapping:
 * - INTEGER is bigint (SQLite's integers are 64-bit; booleans stay integers, 0 or 1);
 * - TEXT is text COLLATE "C": ids and names sort by their bytes, as SQLite's BINARY
 *   does, whatever locale the database was made with (a locale orders `-` apart);
 * - WITHOUT ROWID is a SQLite storage choice: these are plain tables;
 * - an AUTOINCREMENT key is an identity column;
 * - foreign keys are DEFERRABLE (still checked per statement unless a transaction says
 *   SET CONSTRAINTS ALL DEFERRED, which an import does; SQLite's PRAGMA
 *   defer_foreign_keys), and unique ones are not (ON CONFLICT needs them immediate).
 */

export const T = 'text COLLATE "C"';
export const FK = "DEFERRABLE";

export const BASELINE_VERSION = 12;

export const baseline = /* sql */ `
CREATE TABLE users (
  id ${T} PRIMARY KEY,
  kind ${T} NOT NULL CHECK (kind IN ('person', 'bot')),
  username ${T} NOT NULL,
  global_name ${T},
  avatar ${T},
  password_hash ${T},
  is_admin bigint NOT NULL DEFAULT 0,
  locale ${T} NOT NULL DEFAULT 'en-US',
  presence ${T} NOT NULL DEFAULT 'offline',
  created_at bigint NOT NULL,
  deleted_at bigint,
  disabled_at bigint
);
CREATE UNIQUE INDEX users_person_name ON users (lower(username)) WHERE kind = 'person';

CREATE TABLE person_sessions (
  id ${T} PRIMARY KEY,
  token_hash ${T} NOT NULL UNIQUE,
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  label ${T} NOT NULL DEFAULT '',
  created_at bigint NOT NULL,
  last_used_at bigint NOT NULL
);
CREATE INDEX person_sessions_by_user ON person_sessions (user_id);

CREATE TABLE applications (
  id ${T} PRIMARY KEY,
  owner_id ${T} NOT NULL REFERENCES users (id) ${FK},
  bot_user_id ${T} NOT NULL UNIQUE REFERENCES users (id) ${FK},
  name ${T} NOT NULL,
  description ${T} NOT NULL DEFAULT '',
  intents bigint NOT NULL,
  privileged_requested bigint NOT NULL DEFAULT 0,
  privileged_approved bigint NOT NULL DEFAULT 0,
  public_key ${T} NOT NULL,
  interactions_endpoint_url ${T},
  token_version bigint NOT NULL DEFAULT 0,
  token_hash ${T},
  token_intents bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  privileged_denied bigint NOT NULL DEFAULT 0,
  disabled_at bigint
);
CREATE INDEX applications_owner ON applications (owner_id);

CREATE TABLE guilds (
  id ${T} PRIMARY KEY,
  name ${T} NOT NULL,
  owner_id ${T} NOT NULL REFERENCES users (id) ${FK},
  icon ${T},
  description ${T},
  preferred_locale ${T} NOT NULL DEFAULT 'en-US',
  system_channel_id ${T},
  created_at bigint NOT NULL
);

CREATE TABLE roles (
  id ${T} PRIMARY KEY,
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  name ${T} NOT NULL,
  permissions bigint NOT NULL DEFAULT 0,
  color bigint NOT NULL DEFAULT 0,
  hoist bigint NOT NULL DEFAULT 0,
  mentionable bigint NOT NULL DEFAULT 0,
  position bigint NOT NULL DEFAULT 0,
  is_everyone bigint NOT NULL DEFAULT 0,
  icon ${T},
  unicode_emoji ${T},
  bot_user_id ${T},
  created_at bigint NOT NULL
);
CREATE INDEX roles_guild ON roles (guild_id);

CREATE TABLE members (
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  user_id ${T} NOT NULL REFERENCES users (id) ${FK},
  nick ${T},
  joined_at bigint NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

CREATE TABLE member_roles (
  guild_id ${T} NOT NULL,
  user_id ${T} NOT NULL,
  role_id ${T} NOT NULL REFERENCES roles (id) ON DELETE CASCADE ${FK},
  PRIMARY KEY (guild_id, user_id, role_id),
  FOREIGN KEY (guild_id, user_id) REFERENCES members (guild_id, user_id) ON DELETE CASCADE ${FK}
);

CREATE TABLE channels (
  id ${T} PRIMARY KEY,
  guild_id ${T} REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  type bigint NOT NULL,
  name ${T},
  topic ${T},
  position bigint NOT NULL DEFAULT 0,
  parent_id ${T},
  nsfw bigint NOT NULL DEFAULT 0,
  rate_limit_per_user bigint NOT NULL DEFAULT 0,
  user_limit bigint,
  bitrate bigint,
  e2e bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);
CREATE INDEX channels_guild ON channels (guild_id);

CREATE TABLE dm_recipients (
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  user_id ${T} NOT NULL REFERENCES users (id) ${FK},
  PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX dm_recipients_user ON dm_recipients (user_id);

CREATE TABLE overwrites (
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  target_id ${T} NOT NULL,
  target_type bigint NOT NULL CHECK (target_type IN (0, 1)),
  allow bigint NOT NULL DEFAULT 0,
  deny bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_id, target_id)
);

CREATE TABLE messages (
  id ${T} PRIMARY KEY,
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  author_id ${T} NOT NULL REFERENCES users (id) ${FK},
  type bigint NOT NULL DEFAULT 0,
  content ${T} NOT NULL DEFAULT '',
  ciphertext ${T},
  embeds ${T} NOT NULL DEFAULT '[]',
  components ${T} NOT NULL DEFAULT '[]',
  flags bigint NOT NULL DEFAULT 0,
  nonce ${T},
  tts bigint NOT NULL DEFAULT 0,
  mention_everyone bigint NOT NULL DEFAULT 0,
  reference_message_id ${T},
  reference_channel_id ${T},
  reference_guild_id ${T},
  webhook_id ${T},
  webhook_name ${T},
  webhook_avatar ${T},
  application_id ${T},
  interaction_id ${T},
  ephemeral_user_id ${T},
  pinned bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  edited_at bigint,
  mentions ${T} NOT NULL DEFAULT '[]',
  mention_roles ${T} NOT NULL DEFAULT '[]'
);
CREATE INDEX messages_channel ON messages (channel_id, id);

CREATE VIEW channel_rows AS
  SELECT c.*,
    (SELECT m.id FROM messages m WHERE m.channel_id = c.id AND m.ephemeral_user_id IS NULL ORDER BY m.id DESC LIMIT 1) AS last_message_id
  FROM channels c;

CREATE TABLE reactions (
  message_id ${T} NOT NULL REFERENCES messages (id) ON DELETE CASCADE ${FK},
  emoji_key ${T} NOT NULL,
  emoji_name ${T},
  emoji_id ${T},
  emoji_animated bigint NOT NULL DEFAULT 0,
  user_id ${T} NOT NULL REFERENCES users (id) ${FK},
  created_at bigint NOT NULL,
  PRIMARY KEY (message_id, emoji_key, user_id)
);

CREATE TABLE invites (
  code ${T} PRIMARY KEY,
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  inviter_id ${T} REFERENCES users (id) ${FK},
  max_age bigint NOT NULL DEFAULT 86400,
  max_uses bigint NOT NULL DEFAULT 0,
  uses bigint NOT NULL DEFAULT 0,
  temporary bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);

CREATE TABLE bans (
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  user_id ${T} NOT NULL REFERENCES users (id) ${FK},
  reason ${T},
  created_at bigint NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE audit_log (
  id ${T} PRIMARY KEY,
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  actor_id ${T},
  action_type bigint NOT NULL,
  target_id ${T},
  changes ${T} NOT NULL DEFAULT '[]',
  options ${T},
  reason ${T},
  created_at bigint NOT NULL
);
CREATE INDEX audit_log_guild ON audit_log (guild_id, id);

CREATE TABLE webhooks (
  id ${T} PRIMARY KEY,
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  creator_id ${T} REFERENCES users (id) ${FK},
  application_id ${T} REFERENCES applications (id) ON DELETE CASCADE ${FK},
  name ${T} NOT NULL,
  avatar ${T},
  token_hash ${T} NOT NULL,
  hmac_secret ${T},
  v0_secret ${T},
  created_at bigint NOT NULL,
  token_sealed ${T}
);
CREATE INDEX webhooks_channel ON webhooks (channel_id);

CREATE TABLE commands (
  id ${T} PRIMARY KEY,
  application_id ${T} NOT NULL REFERENCES applications (id) ON DELETE CASCADE ${FK},
  guild_id ${T} REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  name ${T} NOT NULL,
  type bigint NOT NULL DEFAULT 1,
  body ${T} NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  created_at bigint NOT NULL
);
CREATE INDEX commands_scope ON commands (application_id, guild_id);

CREATE TABLE interactions (
  id ${T} PRIMARY KEY,
  application_id ${T} NOT NULL REFERENCES applications (id) ON DELETE CASCADE ${FK},
  type bigint NOT NULL,
  token_hash ${T} NOT NULL UNIQUE,
  user_id ${T} NOT NULL REFERENCES users (id) ${FK},
  guild_id ${T},
  channel_id ${T} NOT NULL,
  message_id ${T},
  command_id ${T},
  data ${T} NOT NULL,
  state ${T} NOT NULL DEFAULT 'pending',
  ephemeral bigint NOT NULL DEFAULT 0,
  response_message_id ${T},
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);

CREATE TABLE snowflakes (
  uuid ${T} PRIMARY KEY,
  flake bigint NOT NULL UNIQUE
);

CREATE TABLE read_states (
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  last_read_id ${T} NOT NULL,
  PRIMARY KEY (user_id, channel_id)
);

CREATE TABLE devices (
  id ${T} PRIMARY KEY,
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  name ${T} NOT NULL,
  x25519 ${T},
  p256 ${T},
  created_at bigint NOT NULL,
  removed_at bigint,
  backup ${T},
  session_hash ${T}
);
CREATE INDEX devices_by_user ON devices (user_id, id);

CREATE TABLE relayed_events (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, events ${T} NOT NULL);
`;
