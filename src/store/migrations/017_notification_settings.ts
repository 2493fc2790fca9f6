/**
 * Notification settings (core/notifications.ts): per person, for a server or one of its
 * channels (or a DM), a level (0 every message, 1 only mentions, 2 nothing; NULL: as the
 * scope above says) and a mute until a time. `scope_id` is the server's or the channel's
 * id; the two foreign keys let a deleted server or channel take its settings with it.
 * A server's own default for its members (the reference's `default_message_notifications`,
 * spec 2.6: 0 all, 1 only mentions) lives on the server.
 */
export const m017 = {
  version: 17,
  sql: /* sql */ `
CREATE TABLE notification_settings (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  scope_id TEXT NOT NULL,
  guild_id TEXT REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id TEXT REFERENCES channels (id) ON DELETE CASCADE,
  level INTEGER CHECK (level IN (0, 1, 2)),
  muted_until INTEGER,
  PRIMARY KEY (user_id, scope_id)
) WITHOUT ROWID;
ALTER TABLE guilds ADD COLUMN default_message_notifications INTEGER NOT NULL DEFAULT 0;
`,
};
