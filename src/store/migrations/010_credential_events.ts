/**
 * Whatever ends a credential or narrows a grant is written down in `credential_events`,
 * in the transaction that does it, so that a server beside the process that wrote it
 * (the operator's CLI) hears of it (src/core/credentials.ts); the events are kept for a
 * while, by count. Applications can be disabled by the operator.
 */
export const m010 = {
  version: 10,
  sql: /* sql */ `
CREATE TABLE credential_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  origin TEXT NOT NULL,
  event TEXT NOT NULL,
  at INTEGER NOT NULL
);
ALTER TABLE applications ADD COLUMN disabled_at INTEGER;
`,
};
