/**
 * A server's own emoji (issue 31): a name (unique in the server until migration 025) and
 * an image, a blob of migration 13. `media_refs` learns them, so the collector keeps their bytes.
 */
export const m014 = {
  version: 14,
  sql: /* sql */ `
CREATE TABLE emojis (
  id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  sha256 TEXT NOT NULL REFERENCES media_blobs (sha256),
  animated INTEGER NOT NULL DEFAULT 0,
  creator_id TEXT REFERENCES users (id),
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX emojis_by_name ON emojis (guild_id, name);
DROP VIEW media_refs;
CREATE VIEW media_refs AS
  SELECT sha256 FROM attachments
  UNION ALL SELECT sha256 FROM uploads WHERE sha256 IS NOT NULL
  UNION ALL SELECT avatar_sha256 AS sha256 FROM users WHERE avatar_sha256 IS NOT NULL
  UNION ALL SELECT icon_sha256 AS sha256 FROM guilds WHERE icon_sha256 IS NOT NULL
  UNION ALL SELECT sha256 FROM emojis;
`,
};
