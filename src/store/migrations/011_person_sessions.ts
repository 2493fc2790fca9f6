import type { Database } from "bun:sqlite";

/**
 * People's sessions end (src/core/sessions.ts): each gets an id to be named by (listed,
 * revoked), the label of what signed in, and when it was last used, so it can expire.
 * People's accounts can be disabled by the operator.
 */
export const m011 = {
  version: 11,
  sql: /* sql */ `
CREATE TABLE person_sessions_new (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  label TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
);
CREATE INDEX person_sessions_by_user ON person_sessions_new (user_id);
ALTER TABLE users ADD COLUMN disabled_at INTEGER;
`,
  /** Sessions made before this keep working: each gets an id; "last used" starts at its sign-in. */
  run(db: Database): void {
    const add = db.query(
      "INSERT INTO person_sessions_new (id, token_hash, user_id, label, created_at, last_used_at) VALUES (?, ?, ?, '', ?, ?)",
    );
    for (const s of db.query("SELECT token_hash, user_id, created_at FROM person_sessions").all() as {
      token_hash: string;
      user_id: string;
      created_at: number;
    }[])
      add.run(crypto.randomUUID(), s.token_hash, s.user_id, s.created_at, s.created_at);
    db.exec("DROP TABLE person_sessions");
    db.exec("ALTER TABLE person_sessions_new RENAME TO person_sessions");
  },
};
