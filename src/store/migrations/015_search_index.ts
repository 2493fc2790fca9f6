/**
 * The search index (core/search*.ts): SQLite's full-text search in the same database, so
 * a message and its entry are written, changed and removed in one transaction. The table
 * keeps no copy of the text (contentless, with deletes): only the index, about a third of
 * the messages' size. Its rowid is the first 60 bits of the message's UUIDv7 (48-bit
 * millisecond and 12-bit counter), so rowid order is time order and a date filter is a
 * rowid range; `search_rowids` holds the rare message whose 60 bits another message
 * already has (ids minted by another generator, a clock set back across a restart).
 * `body` holds the words, `meta` one token per fact (server, channel, author, mentions,
 * `has:` kinds, pinned).
 *
 * Entries go with their rows here, in SQL, whichever path deletes them (a delete, a ban's
 * purge, a bulk delete, a channel or server deleted and cascading): a deleted message
 * takes its entry (if it could have one: a message of a server channel, not ephemeral,
 * not a system message), a deleted channel all of its channel's. The rowid of an id is
 * computed as core/search-fts5.ts computes it (the hex digits read as a JSON5 number).
 *
 * A database that already holds messages indexes them in the background once the server
 * listens (core/search-index.ts): `search_backfill` says how far it got, and goes when done.
 * On Postgres the index is a table of its own (store/pg/schema.ts, core/search-pg.ts).
 */
export const m015 = {
  version: 15,
  sql: /* sql */ `
CREATE VIRTUAL TABLE message_fts USING fts5(body, meta, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE search_rowids (
  rowid INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL UNIQUE
);
CREATE TABLE search_backfill (
  next_id TEXT NOT NULL,
  end_id TEXT NOT NULL
);
INSERT INTO search_backfill (next_id, end_id) SELECT '', max(id) FROM messages HAVING count(*) > 0;
CREATE TRIGGER message_fts_message_gone AFTER DELETE ON messages
WHEN old.ephemeral_user_id IS NULL AND old.ciphertext IS NULL AND old.type IN (0, 19, 20, 23)
  AND (SELECT guild_id FROM channels WHERE id = old.channel_id) IS NOT NULL
BEGIN
  DELETE FROM message_fts WHERE rowid = coalesce(
    (SELECT rowid FROM search_rowids WHERE message_id = old.id),
    (json_extract('[0x' || substr(old.id, 1, 8) || substr(old.id, 10, 4) || ']', '$[0]') - 1735689600000) * 4096
      + json_extract('[0x' || substr(old.id, 16, 3) || ']', '$[0]'));
  DELETE FROM search_rowids WHERE message_id = old.id;
END;
CREATE TRIGGER message_fts_channel_gone BEFORE DELETE ON channels
WHEN old.guild_id IS NOT NULL
BEGIN
  DELETE FROM message_fts WHERE rowid IN (SELECT rowid FROM message_fts WHERE message_fts MATCH 'meta : c' || replace(old.id, '-', ''));
  DELETE FROM search_rowids WHERE message_id IN (SELECT id FROM messages WHERE channel_id = old.id);
END;
`,
};
