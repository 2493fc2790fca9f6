/**
 * Presence across nodes (core/presence.ts). A user is online while a live node holds a
 * gateway session or a live connection for them; several nodes on one Postgres database
 * each hold some, so Postgres keeps who holds whom (`presence_holds`) and which nodes
 * are alive (`parley_nodes`, beating). A SQLite database has one serving node, which
 * counts its own connections in memory as before: nothing to add here (the Postgres
 * text is pg/schema-later.ts's PG_021).
 */
export const m021 = {
  version: 21,
  sql: /* sql */ `
SELECT 1;
`,
};
