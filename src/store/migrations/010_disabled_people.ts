/**
 * An administrator can disable a person (`parley user disable`): they cannot sign in and
 * every session they had is gone, until they are enabled again. Nothing else of theirs
 * changes.
 */
export const m010 = {
  version: 10,
  sql: /* sql */ `
ALTER TABLE users ADD COLUMN disabled_at INTEGER;
`,
};
