/**
 * A message's position: where its id stands in time, the first 60 bits of its UUIDv7
 * (milliseconds since 2025 << 12 | the per-millisecond counter), unique among messages.
 * The bot API boundary derives a message's snowflake from it (wire/snowflakes.ts): the
 * position << 10, the very number a first claim in `snowflakes` would have stored. So a
 * post no longer writes a row of the id map (two b-trees) beside its own: the number is
 * read back from the message's row, through this index.
 *
 * A position and a stored number must never name two things: a message does not take a
 * position whose number is stored for something else (the trigger below; it goes without,
 * and is paired in `snowflakes` as before), and a number is not stored while a message
 * holds its position (core/idmap.ts). A deleted message leaves its number stored, as a
 * pair: no later message (a clock set back) may take its position and answer to the
 * number a bot may still hold. Messages written before this migration have none.
 * Postgres keeps the column (one schema) but fills it only from an imported SQLite
 * database: its nodes post at once, and a unique index would make one node's post wait
 * for another's commit.
 */
export const m023 = {
  version: 23,
  sql: /* sql */ `
ALTER TABLE messages ADD COLUMN position INTEGER;
CREATE UNIQUE INDEX messages_position ON messages (position);
CREATE TRIGGER message_position_free BEFORE INSERT ON messages
WHEN NEW.position IS NOT NULL AND EXISTS (SELECT 1 FROM snowflakes WHERE flake = NEW.position * 1024)
BEGIN
  SELECT RAISE(IGNORE);
END;
CREATE TRIGGER message_position_kept AFTER DELETE ON messages
WHEN old.position IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO snowflakes (uuid, flake) VALUES (old.id, old.position * 1024);
END;
`,
};
