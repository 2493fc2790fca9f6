/**
 * One relay of domain events between processes on the same database (store/relay.ts):
 * an operator command beside a running server keeps each write's events in
 * `relayed_events`, in the write's own transaction, and the server publishes them to its
 * live connections. It replaces `credential_events` (migration 10), which carried only
 * the events that end a credential, one row per event, written by every process.
 *
 * Nothing is carried over from that table: its rows were either published already, by
 * the server that was running, or written while none ran, and a server publishes only
 * what is written after it starts listening. The rows go with the table.
 */
export const m012 = {
  version: 12,
  sql: /* sql */ `
DROP TABLE credential_events;
CREATE TABLE relayed_events (id INTEGER PRIMARY KEY AUTOINCREMENT, events TEXT NOT NULL);
`,
};
