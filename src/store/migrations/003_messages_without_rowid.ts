/**
 * Messages keyed by their id alone. As a rowid table with a TEXT primary key, every
 * post wrote two b-trees (the rows and the id index); WITHOUT ROWID keeps the row in
 * the id b-tree, one page fewer per post. Rows are small enough for it (content is at
 * most 2000 characters, embeds at most 6000).
 */
export const m003 = {
  version: 3,
  sql: /* sql */ `
DROP VIEW channel_rows;
CREATE TABLE messages_new (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  author_id TEXT NOT NULL REFERENCES users (id),
  type INTEGER NOT NULL DEFAULT 0,
  content TEXT NOT NULL DEFAULT '',
  ciphertext TEXT,
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
  ephemeral_user_id TEXT,
  pinned INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  edited_at INTEGER
) WITHOUT ROWID;
INSERT INTO messages_new SELECT id, channel_id, author_id, type, content, ciphertext, embeds, components, flags, nonce, tts, mention_everyone,
  reference_message_id, reference_channel_id, reference_guild_id, webhook_id, webhook_name, webhook_avatar, application_id, interaction_id,
  ephemeral_user_id, pinned, created_at, edited_at FROM messages;
DROP TABLE messages;
ALTER TABLE messages_new RENAME TO messages;
CREATE INDEX messages_channel ON messages (channel_id, id);
CREATE VIEW channel_rows AS
  SELECT c.*,
    (SELECT m.id FROM messages m WHERE m.channel_id = c.id AND m.ephemeral_user_id IS NULL ORDER BY m.id DESC LIMIT 1) AS last_message_id
  FROM channels c;
`,
};
