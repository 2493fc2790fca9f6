/**
 * Statements of the core whose SQLite text has no faithful mechanical translation, with
 * their Postgres form written by hand. The translator looks a statement up here first,
 * by its text with runs of blanks made one; a core statement whose text changes no
 * longer matches, falls to the translator, and test/pg/core-sql.test.ts (which prepares
 * every statement of the core on Postgres) says so.
 *
 * The Postgres form keeps SQLite's placeholders (`?`) and still goes through the
 * translator, so that its parameters are numbered as the original's.
 */

/** Blanks folded, so that indentation does not matter. */
export const normalize = (sql: string) => sql.replace(/\s+/g, " ").trim();

const DUAL: [sqlite: string, postgres: string][] = [
  [
    // src/core/reads/messages.ts: a message's reactions, one row per emoji. SQLite lets the
    // emoji's name and flags be bare columns of the group (all rows of an emoji_key carry
    // the same); Postgres wants an aggregate: the first reaction's.
    `SELECT emoji_key, emoji_name, emoji_id, emoji_animated, count(*) AS n, max(user_id = ?) AS me, min(created_at) AS first
       FROM reactions WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`,
    `SELECT emoji_key, (array_agg(emoji_name ORDER BY created_at, user_id))[1] AS emoji_name, (array_agg(emoji_id ORDER BY created_at, user_id))[1] AS emoji_id,
       (array_agg(emoji_animated ORDER BY created_at, user_id))[1] AS emoji_animated, count(*) AS n, max((user_id = ?)::int) AS me, min(created_at) AS first
       FROM reactions WHERE message_id = ? GROUP BY emoji_key ORDER BY first, emoji_key`,
  ],
];

export const dualForms = new Map(DUAL.map(([s, p]) => [normalize(s), p]));
