/**
 * Fewer pages written per message. Posting a message was the hottest write path and
 * each commit wrote about 8.5 WAL pages; two of them served reads that other indexes
 * answer as well:
 * - a channel's last_message_id is read from messages (channel_id, id) instead of being
 *   updated on every post (the view channel_rows computes it);
 * - messages (author_id, created_at): per-author lookups (slowmode, nonce, ban message
 *   deletion) are bounded by time, which the (channel_id, id) index covers because ids
 *   are time-ordered.
 */
export const m002 = {
  version: 2,
  sql: /* sql */ `
DROP INDEX messages_author;
ALTER TABLE channels DROP COLUMN last_message_id;
CREATE VIEW channel_rows AS
  SELECT c.*,
    (SELECT m.id FROM messages m WHERE m.channel_id = c.id AND m.ephemeral_user_id IS NULL ORDER BY m.id DESC LIMIT 1) AS last_message_id
  FROM channels c;
`,
};
