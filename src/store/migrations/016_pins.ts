/**
 * Pins (core/pins.ts): when and by whom a message was pinned, so a channel's pins list
 * newest first and pages by time (reference-gaps 2.9: `before` is a pinned_at). The
 * message's own `pinned` column stays as what readers show. A message pinned before this
 * migration (an imported world) counts as pinned when it was written.
 */
export const m016 = {
  version: 16,
  sql: /* sql */ `
CREATE TABLE pins (
  message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  pinned_at INTEGER NOT NULL,
  pinned_by TEXT REFERENCES users (id)
) WITHOUT ROWID;
CREATE INDEX pins_channel ON pins (channel_id, pinned_at);
INSERT INTO pins (message_id, channel_id, pinned_at) SELECT id, channel_id, created_at FROM messages WHERE pinned = 1;
`,
};
