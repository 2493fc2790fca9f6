export const m001 = {
  version: 1,
  sql: /* sql */ `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
  username TEXT NOT NULL,
  global_name TEXT,
  avatar TEXT,
  password_hash TEXT,
  is_admin INTEGER NOT NULL DEFAULT 0,
  locale TEXT NOT NULL DEFAULT 'en-US',
  presence TEXT NOT NULL DEFAULT 'offline',
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE UNIQUE INDEX users_person_name ON users (lower(username)) WHERE kind = 'person';

CREATE TABLE person_sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);

CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users (id),
  bot_user_id TEXT NOT NULL UNIQUE REFERENCES users (id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  intents INTEGER NOT NULL,              -- what the owner asked for
  privileged_requested INTEGER NOT NULL DEFAULT 0,
  privileged_approved INTEGER NOT NULL DEFAULT 0,
  public_key TEXT NOT NULL,
  interactions_endpoint_url TEXT,
  token_version INTEGER NOT NULL DEFAULT 0,
  token_hash TEXT,                       -- SHA-256 of the current token's secret
  token_intents INTEGER NOT NULL DEFAULT 0, -- grant baked into the current token
  created_at INTEGER NOT NULL
);
CREATE INDEX applications_owner ON applications (owner_id);

CREATE TABLE guilds (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_id TEXT NOT NULL REFERENCES users (id),
  icon TEXT,
  description TEXT,
  preferred_locale TEXT NOT NULL DEFAULT 'en-US',
  system_channel_id TEXT,
  created_at INTEGER NOT NULL
);

CREATE TABLE roles (
  id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  permissions INTEGER NOT NULL DEFAULT 0,
  color INTEGER NOT NULL DEFAULT 0,
  hoist INTEGER NOT NULL DEFAULT 0,
  mentionable INTEGER NOT NULL DEFAULT 0,
  position INTEGER NOT NULL DEFAULT 0,
  is_everyone INTEGER NOT NULL DEFAULT 0,
  icon TEXT,
  unicode_emoji TEXT,
  bot_user_id TEXT,                      -- set on a bot's managed role
  created_at INTEGER NOT NULL
);
CREATE INDEX roles_guild ON roles (guild_id);

CREATE TABLE members (
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id),
  nick TEXT,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX members_user ON members (user_id);

CREATE TABLE member_roles (
  guild_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  PRIMARY KEY (guild_id, user_id, role_id),
  FOREIGN KEY (guild_id, user_id) REFERENCES members (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  guild_id TEXT REFERENCES guilds (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  name TEXT,
  topic TEXT,
  position INTEGER NOT NULL DEFAULT 0,
  parent_id TEXT,
  nsfw INTEGER NOT NULL DEFAULT 0,
  rate_limit_per_user INTEGER NOT NULL DEFAULT 0,
  user_limit INTEGER,
  bitrate INTEGER,
  e2e INTEGER NOT NULL DEFAULT 0,
  last_message_id TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX channels_guild ON channels (guild_id);

CREATE TABLE dm_recipients (
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id),
  PRIMARY KEY (channel_id, user_id)
) WITHOUT ROWID;
CREATE INDEX dm_recipients_user ON dm_recipients (user_id);

CREATE TABLE overwrites (
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  target_id TEXT NOT NULL,
  target_type INTEGER NOT NULL CHECK (target_type IN (0, 1)),
  allow INTEGER NOT NULL DEFAULT 0,
  deny INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_id, target_id)
) WITHOUT ROWID;

CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  author_id TEXT NOT NULL REFERENCES users (id),
  type INTEGER NOT NULL DEFAULT 0,
  content TEXT NOT NULL DEFAULT '',
  ciphertext TEXT,                       -- e2e DMs between people: opaque to the server
  embeds TEXT NOT NULL DEFAULT '[]',
  components TEXT NOT NULL DEFAULT '[]',
  flags INTEGER NOT NULL DEFAULT 0,
  nonce TEXT,
  tts INTEGER NOT NULL DEFAULT 0,
  mention_everyone INTEGER NOT NULL DEFAULT 0,
  reference_message_id TEXT,
  reference_channel_id TEXT,
  reference_guild_id TEXT,
  webhook_id TEXT,
  webhook_name TEXT,
  webhook_avatar TEXT,
  application_id TEXT,
  interaction_id TEXT,
  ephemeral_user_id TEXT,                -- set: only this person may see it
  pinned INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  edited_at INTEGER
);
CREATE INDEX messages_channel ON messages (channel_id, id);
CREATE INDEX messages_author ON messages (author_id, created_at);

CREATE TABLE reactions (
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  emoji_key TEXT NOT NULL,               -- unicode text, or custom emoji id
  emoji_name TEXT,
  emoji_id TEXT,                         -- custom emoji: the id as the client gave it (opaque)
  emoji_animated INTEGER NOT NULL DEFAULT 0,
  user_id TEXT NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, emoji_key, user_id)
) WITHOUT ROWID;

CREATE TABLE invites (
  code TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  inviter_id TEXT REFERENCES users (id),
  max_age INTEGER NOT NULL DEFAULT 86400,
  max_uses INTEGER NOT NULL DEFAULT 0,
  uses INTEGER NOT NULL DEFAULT 0,
  temporary INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

CREATE TABLE bans (
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id),
  reason TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  actor_id TEXT,
  action_type INTEGER NOT NULL,
  target_id TEXT,
  changes TEXT NOT NULL DEFAULT '[]',
  options TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_guild ON audit_log (guild_id, id);

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  creator_id TEXT REFERENCES users (id),
  application_id TEXT REFERENCES applications (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  avatar TEXT,
  token_hash TEXT NOT NULL,
  hmac_secret TEXT,
  v0_secret TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX webhooks_channel ON webhooks (channel_id);

CREATE TABLE commands (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  guild_id TEXT REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type INTEGER NOT NULL DEFAULT 1,
  body TEXT NOT NULL,                    -- the stored command (JSON, our own ids)
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE INDEX commands_scope ON commands (application_id, guild_id);

CREATE TABLE interactions (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  type INTEGER NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id),
  guild_id TEXT,
  channel_id TEXT NOT NULL,
  message_id TEXT,                       -- the message a component sits on
  command_id TEXT,
  data TEXT NOT NULL,                    -- JSON, our own ids
  state TEXT NOT NULL DEFAULT 'pending',
  ephemeral INTEGER NOT NULL DEFAULT 0,
  response_message_id TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

-- The bot API boundary's id map: minted on first crossing, stable forever.
CREATE TABLE snowflakes (
  uuid TEXT PRIMARY KEY,
  flake INTEGER NOT NULL UNIQUE
) WITHOUT ROWID;
`,
};
