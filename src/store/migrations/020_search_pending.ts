/**
 * Search entries waiting for the index (core/search-fts5.ts). FTS5 writes a segment of
 * its own at every commit that changed it, and merges them as they pile up: a person's
 * post, which commits alone, paid more for its entry than for the rest of its write. An
 * entry is now written to `search_pending`, a plain table, in its message's transaction,
 * and moved into `message_fts` many at a time, in one transaction (a few times a second
 * while the server listens, before every search, and whenever enough wait), so a search
 * still finds every message committed before it. What deletes a message or a channel
 * takes a waiting entry with it here, as it takes an indexed one (migration 015). The
 * table stays small (at most 3,000 rows, core/search-fts5.ts), so finding a message's entry by
 * `message_id` needs no index of its own, which every post would have to write.
 */
export const m020 = {
  version: 20,
  sql: /* sql */ `
CREATE TABLE search_pending (
  rowid INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL,
  body TEXT NOT NULL,
  meta TEXT NOT NULL
);
CREATE TRIGGER search_pending_message_gone AFTER DELETE ON messages
BEGIN
  DELETE FROM search_pending WHERE message_id = old.id;
END;
CREATE TRIGGER search_pending_channel_gone BEFORE DELETE ON channels
WHEN old.guild_id IS NOT NULL
BEGIN
  DELETE FROM search_pending WHERE message_id IN (SELECT id FROM messages WHERE channel_id = old.id);
END;
`,
};
