/**
 * Running the instance (core/instance.ts, core/password-resets.ts, core/stats.ts):
 *
 * - `instance_settings`: one row per setting an administrator changed (absent: the
 *   default): `registration` (open, invite, closed) and `guild_creation` (everyone,
 *   admins);
 * - `instance_invites`: the invites that let someone sign up while registration is
 *   invite-only; the code is shown once and kept only as its SHA-256 digest;
 * - `password_resets`: one-time links an administrator makes for a person, by their
 *   token's digest; used once (`used_at`), before `expires_at`;
 * - `activity_days`: which people used a session on which day (days since the epoch,
 *   UTC), written at most once a day per session;
 * - `day_counts`: how many requests the server answered, and messages were posted, each
 *   day (counted in memory and added in at most once a minute, core/stats.ts).
 */
export const m018 = {
  version: 18,
  sql: /* sql */ `
CREATE TABLE instance_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE instance_invites (
  id TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL UNIQUE,
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  max_uses INTEGER NOT NULL DEFAULT 0,
  uses INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX password_resets_by_user ON password_resets (user_id);
CREATE TABLE activity_days (
  day INTEGER NOT NULL,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (day, user_id)
) WITHOUT ROWID;
CREATE TABLE day_counts (
  day INTEGER PRIMARY KEY,
  requests INTEGER NOT NULL DEFAULT 0,
  messages INTEGER NOT NULL DEFAULT 0
);
`,
};
