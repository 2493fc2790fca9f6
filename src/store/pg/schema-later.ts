/**
 * Every migration after the baseline (schema.ts), in Postgres's text, one per SQLite
 * migration of the same number; pg/migrate.ts lists them in order and
 * test/pg/schema-parity.test.ts compares the two schemas.
 */
import { FK, T } from "./schema";

/** Migration 13 (store/migrations/013_media.ts): files, uploads, attachments, avatars and icons. */
export const pg013 = /* sql */ `
CREATE TABLE media_blobs (
  sha256 ${T} PRIMARY KEY,
  size bigint NOT NULL,
  content_type ${T} NOT NULL,
  inline bigint NOT NULL DEFAULT 0,
  width bigint,
  height bigint,
  animated bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  unreferenced_since bigint
);
CREATE INDEX media_blobs_unreferenced ON media_blobs (unreferenced_since) WHERE unreferenced_since IS NOT NULL;

CREATE TABLE uploads (
  id ${T} PRIMARY KEY,
  owner_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  purpose ${T} NOT NULL CHECK (purpose IN ('attachment', 'avatar', 'icon', 'emoji')),
  channel_id ${T} REFERENCES channels (id) ON DELETE CASCADE ${FK},
  guild_id ${T} REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  filename ${T} NOT NULL,
  description ${T},
  declared_size bigint NOT NULL,
  sha256 ${T} REFERENCES media_blobs (sha256) ${FK},
  size bigint,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX uploads_by_owner ON uploads (owner_id);
CREATE INDEX uploads_by_expiry ON uploads (expires_at);

CREATE TABLE attachments (
  id ${T} PRIMARY KEY,
  message_id ${T} NOT NULL REFERENCES messages (id) ON DELETE CASCADE ${FK},
  channel_id ${T} NOT NULL,
  uploader_id ${T} NOT NULL REFERENCES users (id) ${FK},
  sha256 ${T} NOT NULL REFERENCES media_blobs (sha256) ${FK},
  filename ${T} NOT NULL,
  description ${T},
  ordinal bigint NOT NULL,
  flags bigint NOT NULL DEFAULT 0
);
CREATE INDEX attachments_by_message ON attachments (message_id, ordinal);
CREATE INDEX attachments_by_uploader ON attachments (uploader_id);
CREATE INDEX attachments_by_blob ON attachments (sha256);

ALTER TABLE users ADD COLUMN avatar_sha256 ${T} REFERENCES media_blobs (sha256) ${FK};
ALTER TABLE guilds ADD COLUMN icon_sha256 ${T} REFERENCES media_blobs (sha256) ${FK};
CREATE VIEW media_refs AS
  SELECT sha256 FROM attachments
  UNION ALL SELECT sha256 FROM uploads WHERE sha256 IS NOT NULL
  UNION ALL SELECT avatar_sha256 AS sha256 FROM users WHERE avatar_sha256 IS NOT NULL
  UNION ALL SELECT icon_sha256 AS sha256 FROM guilds WHERE icon_sha256 IS NOT NULL;
`;

/** Migration 14 (store/migrations/014_emojis.ts): a server's own emoji. */
export const pg014 = /* sql */ `
CREATE TABLE emojis (
  id ${T} PRIMARY KEY,
  guild_id ${T} NOT NULL REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  name ${T} NOT NULL,
  sha256 ${T} NOT NULL REFERENCES media_blobs (sha256) ${FK},
  animated bigint NOT NULL DEFAULT 0,
  creator_id ${T} REFERENCES users (id) ${FK},
  created_at bigint NOT NULL
);
CREATE UNIQUE INDEX emojis_by_name ON emojis (guild_id, name);
DROP VIEW media_refs;
CREATE VIEW media_refs AS
  SELECT sha256 FROM attachments
  UNION ALL SELECT sha256 FROM uploads WHERE sha256 IS NOT NULL
  UNION ALL SELECT avatar_sha256 AS sha256 FROM users WHERE avatar_sha256 IS NOT NULL
  UNION ALL SELECT icon_sha256 AS sha256 FROM guilds WHERE icon_sha256 IS NOT NULL
  UNION ALL SELECT sha256 FROM emojis;
`;

/**
 * 015, the search index. SQLite's FTS5 table and its rowid map are SQLite's own; here the
 * index is a plain table with a tsvector and an array of facts (core/search-pg.ts), its
 * rows going with their message. The backfill marker is the same on both engines.
 * test/pg/schema-parity.test.ts leaves each engine's own index tables out.
 */
export const pg015 = /* sql */ `
CREATE TABLE message_search (
  message_id ${T} PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE ${FK},
  guild_id ${T} NOT NULL,
  channel_id ${T} NOT NULL,
  author_id ${T} NOT NULL,
  tags text[] NOT NULL,
  body tsvector NOT NULL
);
CREATE INDEX message_search_guild ON message_search (guild_id, message_id);
CREATE INDEX message_search_tags ON message_search USING gin (tags);
CREATE INDEX message_search_body ON message_search USING gin (body);
CREATE TABLE search_backfill (
  next_id ${T} NOT NULL,
  end_id ${T} NOT NULL
);
INSERT INTO search_backfill (next_id, end_id) SELECT '', max(id) FROM messages HAVING count(*) > 0;
`;

/** 016, pins. */
export const pg016 = /* sql */ `
CREATE TABLE pins (
  message_id ${T} PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE ${FK},
  channel_id ${T} NOT NULL REFERENCES channels (id) ON DELETE CASCADE ${FK},
  pinned_at bigint NOT NULL,
  pinned_by ${T} REFERENCES users (id) ${FK}
);
CREATE INDEX pins_channel ON pins (channel_id, pinned_at);
INSERT INTO pins (message_id, channel_id, pinned_at) SELECT id, channel_id, created_at FROM messages WHERE pinned = 1;
`;

/** 017, notification settings, and the server's default. */
export const pg017 = /* sql */ `
CREATE TABLE notification_settings (
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  scope_id ${T} NOT NULL,
  guild_id ${T} REFERENCES guilds (id) ON DELETE CASCADE ${FK},
  channel_id ${T} REFERENCES channels (id) ON DELETE CASCADE ${FK},
  level bigint CHECK (level IN (0, 1, 2)),
  muted_until bigint,
  PRIMARY KEY (user_id, scope_id)
);
ALTER TABLE guilds ADD COLUMN default_message_notifications bigint NOT NULL DEFAULT 0;
`;

/** Migration 18 (store/migrations/018_instance.ts): instance settings, its invites, password resets, day counters. */
export const PG_018 = /* sql */ `
CREATE TABLE instance_settings (
  key ${T} PRIMARY KEY,
  value ${T} NOT NULL
);
CREATE TABLE instance_invites (
  id ${T} PRIMARY KEY,
  code_hash ${T} NOT NULL UNIQUE,
  created_by ${T} REFERENCES users (id) ON DELETE SET NULL ${FK},
  max_uses bigint NOT NULL DEFAULT 0,
  uses bigint NOT NULL DEFAULT 0,
  expires_at bigint,
  created_at bigint NOT NULL
);
CREATE TABLE password_resets (
  token_hash ${T} PRIMARY KEY,
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  created_by ${T} REFERENCES users (id) ON DELETE SET NULL ${FK},
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX password_resets_by_user ON password_resets (user_id);
CREATE TABLE activity_days (
  day bigint NOT NULL,
  user_id ${T} NOT NULL REFERENCES users (id) ON DELETE CASCADE ${FK},
  PRIMARY KEY (day, user_id)
);
CREATE TABLE day_counts (
  day bigint PRIMARY KEY,
  requests bigint NOT NULL DEFAULT 0,
  messages bigint NOT NULL DEFAULT 0
);
`;

/** Migration 19 (store/migrations/019_device_use.ts): when each device was last used. */
export const PG_019 = /* sql */ `
ALTER TABLE devices ADD COLUMN last_used_at bigint;
`;

/**
 * Migration 20 (store/migrations/020_search_pending.ts): SQLite's waiting search entries.
 * Postgres's index has no per-commit cost to spread (core/search-pg.ts): nothing to add.
 */
export const PG_020 = /* sql */ `
SELECT 1;
`;

/**
 * Migration 21 (store/migrations/021_presence_holds.ts): what nodes share of presence
 * (core/presence-nodes.ts). Each serving node has a row in `parley_nodes` and counts up
 * its `beat` every few seconds; a node that has not beaten for the liveness window, or
 * that stopped, is marked `dead`, and the others let go of its holds. `presence_holds`
 * says which node holds a live session or connection for which user. Neither is world
 * data: not exported, imported or wiped with the world (pg/migrate.ts wipePg), and not
 * tied to `users` by a foreign key (a hold names a user the way a live socket does).
 */
export const PG_021 = /* sql */ `
CREATE TABLE parley_nodes (
  id ${T} PRIMARY KEY,
  beat bigint NOT NULL DEFAULT 0,
  dead bigint NOT NULL DEFAULT 0
);
CREATE TABLE presence_holds (
  node_id ${T} NOT NULL,
  user_id ${T} NOT NULL,
  PRIMARY KEY (node_id, user_id)
);
CREATE INDEX presence_holds_by_user ON presence_holds (user_id);
`;

/**
 * Migration 22 (store/migrations/022_search_mark.ts): how far SQLite's index has read the
 * messages. Postgres's index writes each entry with its message (core/search-pg.ts):
 * nothing to add.
 */
export const PG_022 = /* sql */ `
SELECT 1;
`;

/**
 * Migration 23 (store/migrations/023_message_positions.ts): a message's position, from
 * which the boundary derives its snowflake. Postgres's nodes leave it empty (a unique
 * index would make one node's post wait on another's commit), so SQLite's trigger has
 * nothing to guard here; a database migrated from SQLite keeps its messages' positions,
 * and with them their numbers.
 */
export const PG_023 = /* sql */ `
ALTER TABLE messages ADD COLUMN position bigint;
CREATE UNIQUE INDEX messages_position ON messages (position);
`;

/** Migration 24 (store/migrations/024_dm_closed.ts): a person's DMs they closed. */
export const PG_024 = /* sql */ `
ALTER TABLE dm_recipients ADD COLUMN closed bigint NOT NULL DEFAULT 0;
`;

/** Migration 25 (store/migrations/025_emoji_names_shared.ts): emoji names may repeat in a server. */
export const PG_025 = /* sql */ `
DROP INDEX emojis_by_name;
CREATE INDEX emojis_by_name ON emojis (guild_id, name);
`;
