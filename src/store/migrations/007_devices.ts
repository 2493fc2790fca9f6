/**
 * Devices: each client a person uses (a browser profile, the harness playing them) has
 * its own key pairs for end-to-end encrypted DMs; only the public keys come here. A
 * removed device keeps its row (removed_at set) because the messages it sent name it,
 * and readers need its public keys to open them. A key backup is a device whose private
 * keys the client sealed under a passphrase (`backup`); the server cannot open it.
 */
export const m007 = {
  version: 7,
  sql: /* sql */ `
CREATE TABLE devices (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  x25519 TEXT,
  p256 TEXT,
  created_at INTEGER NOT NULL,
  removed_at INTEGER,
  backup TEXT
) WITHOUT ROWID;
CREATE INDEX devices_by_user ON devices (user_id, id);
`,
};
