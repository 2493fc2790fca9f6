/**
 * Read states: how far each person has read each channel, so a client can mark unread
 * channels and count mentions. One row per person and channel, created the first time
 * they mark it read; without a row, what arrived after the person joined the server is
 * unread. Ids are internal; a message id is a position because UUIDv7 ids sort by time.
 */
export const m006 = {
  version: 6,
  sql: /* sql */ `
CREATE TABLE read_states (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  last_read_id TEXT NOT NULL,
  PRIMARY KEY (user_id, channel_id)
) WITHOUT ROWID;
`,
};
