/**
 * An administrator can deny a privileged-intent request (or revoke an approval): the
 * request is then no longer pending, and its owner sees it was denied until they ask
 * again. The denied bits are kept beside the requested and approved ones.
 */
export const m008 = {
  version: 8,
  sql: /* sql */ `
ALTER TABLE applications ADD COLUMN privileged_denied INTEGER NOT NULL DEFAULT 0;
`,
};
