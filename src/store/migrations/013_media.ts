/**
 * Files (issue 31): the stored bytes once per content (media_blobs, keyed by SHA-256; the
 * bytes themselves live in the data directory, store/media.ts), a person's upload slots
 * (uploads: asked for, then filled, then sent), a message's attachments, and the avatar
 * of a user and the icon of a server (the reference's hash shown is derived from the
 * SHA-256, the column says which bytes).
 *
 * Every reference to a blob is a foreign key, so no row can name bytes the store no
 * longer holds, and `media_refs` lists them all for the collector (core/media-gc.ts),
 * which deletes a blob only after it was found unreferenced longer than a grace period.
 */
export const MEDIA_REFS_013 = /* sql */ `
CREATE VIEW media_refs AS
  SELECT sha256 FROM attachments
  UNION ALL SELECT sha256 FROM uploads WHERE sha256 IS NOT NULL
  UNION ALL SELECT avatar_sha256 AS sha256 FROM users WHERE avatar_sha256 IS NOT NULL
  UNION ALL SELECT icon_sha256 AS sha256 FROM guilds WHERE icon_sha256 IS NOT NULL;
`;

export const m013 = {
  version: 13,
  sql: /* sql */ `
CREATE TABLE media_blobs (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  inline INTEGER NOT NULL DEFAULT 0,
  width INTEGER,
  height INTEGER,
  animated INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  unreferenced_since INTEGER
) WITHOUT ROWID;
CREATE INDEX media_blobs_unreferenced ON media_blobs (unreferenced_since) WHERE unreferenced_since IS NOT NULL;

CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('attachment', 'avatar', 'icon', 'emoji')),
  channel_id TEXT REFERENCES channels (id) ON DELETE CASCADE,
  guild_id TEXT REFERENCES guilds (id) ON DELETE CASCADE,
  filename TEXT NOT NULL,
  description TEXT,
  declared_size INTEGER NOT NULL,
  sha256 TEXT REFERENCES media_blobs (sha256),
  size INTEGER,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX uploads_by_owner ON uploads (owner_id);
CREATE INDEX uploads_by_expiry ON uploads (expires_at);

CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  channel_id TEXT NOT NULL,
  uploader_id TEXT NOT NULL REFERENCES users (id),
  sha256 TEXT NOT NULL REFERENCES media_blobs (sha256),
  filename TEXT NOT NULL,
  description TEXT,
  ordinal INTEGER NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX attachments_by_message ON attachments (message_id, ordinal);
CREATE INDEX attachments_by_uploader ON attachments (uploader_id);
CREATE INDEX attachments_by_blob ON attachments (sha256);

ALTER TABLE users ADD COLUMN avatar_sha256 TEXT REFERENCES media_blobs (sha256);
ALTER TABLE guilds ADD COLUMN icon_sha256 TEXT REFERENCES media_blobs (sha256);
${MEDIA_REFS_013}`,
};
