/**
 * How far the search index has read the messages (core/search-fts5.ts, core/search-index.ts).
 * A message newer than `through_id` is written nothing for search when it is posted or
 * edited: the index reads it from its row, as it then is (attachments included), with
 * the others written since, in one transaction a few times a second and before every
 * search, and moves the mark. A post so writes one row fewer, and a crash loses nothing:
 * what was not yet read is read after the restart. A message at or below the mark (a
 * clock set back, another process's id) takes migration 020's waiting entries as before.
 *
 * One row at most; none (a new database, a wiped world) means nothing was read yet.
 * Everything a database already holds is indexed or waits for the backfill (015), so the
 * mark starts at its newest message.
 */
export const m022 = {
  version: 22,
  sql: /* sql */ `
CREATE TABLE search_mark (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  through_id TEXT NOT NULL
);
INSERT INTO search_mark (one, through_id) SELECT 1, max(id) FROM messages HAVING count(*) > 0;
`,
};
