/**
 * Events written by operator commands beside a running server, kept for that server to
 * publish to its live connections (store/relay.ts); it deletes them once published.
 */
export const m009 = {
  version: 9,
  sql: /* sql */ `
CREATE TABLE relayed_events (id INTEGER PRIMARY KEY AUTOINCREMENT, events TEXT NOT NULL);
`,
};
