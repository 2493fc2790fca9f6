/**
 * A person closes a DM (core/dms.ts): it leaves their list of conversations, and nothing
 * else changes; the other person keeps theirs, and the history stays. A new message in
 * it, from either side, or opening it again puts it back.
 */
export const m024 = {
  version: 24,
  sql: /* sql */ `
ALTER TABLE dm_recipients ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
`,
};
