/**
 * The sign-in session that holds each device (the one that registered it, or the one a
 * browser signed in again claimed it with), by its token's digest, so removing a device
 * signs that browser out too (docs/security.md, Finding 7). Null for key backups and the
 * harness's devices, which no session holds.
 */
export const m009 = {
  version: 9,
  sql: /* sql */ `
ALTER TABLE devices ADD COLUMN session_hash TEXT;
`,
};
