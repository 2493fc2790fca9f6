/**
 * When each device was last used (core/devices.ts): the sign-in session holding it was
 * used, or it sealed a message. A device nobody used for the configured time expires
 * (`--device-expiry`); before this migration nothing was recorded, so "last used"
 * starts empty and a device's registration stands in for it.
 */
export const m019 = {
  version: 19,
  sql: /* sql */ `
ALTER TABLE devices ADD COLUMN last_used_at INTEGER;
`,
};
