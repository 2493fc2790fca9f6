/**
 * Applying the numbered migrations (migrations/) at start-up, by the server and every
 * command and test app: forward only, each in its own transaction with a foreign-key
 * check, all of them in one for a new database.
 */
import type { Database } from "bun:sqlite";
import { migrations } from "./migrations";

/** The database was migrated by a newer Parley than this one. */
export class NewerSchemaError extends Error {
  readonly code = "PARLEY_NEWER_SCHEMA";
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`the database has migration ${found}, this build knows up to ${known}`);
  }
}

function migrateFresh(db: Database): number {
  db.transaction(() => {
    for (const m of migrations) {
      db.exec(m.sql);
      m.run?.(db);
    }
    const broken = db.query("PRAGMA foreign_key_check").all();
    if (broken.length) throw new Error(`migrations break ${broken.length} foreign keys`);
    const record = db.query("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)");
    for (const m of migrations) record.run(m.version, Date.now());
  })();
  return migrations.length;
}

/** Apply the migrations this database lacks; answers how many ran. */
export function migrate(db: Database): number {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const done = new Set((db.query("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version));
  const newest = Math.max(0, ...done);
  const known = migrations.length ? migrations[migrations.length - 1].version : 0;
  // Migrations go forward only: an older build must not write into a newer schema.
  if (newest > known) throw new NewerSchemaError(newest, known);
  // Foreign keys are off while migrating (the SQLite way to rebuild a table): a DROP
  // TABLE would otherwise cascade into the rows that reference it. Each migration
  // still ends with a foreign_key_check, so a bad one rolls back.
  db.exec("PRAGMA foreign_keys = OFF");
  let ran = 0;
  try {
    // A new database (every in-memory one): all of them in one transaction, which
    // takes a fraction of one transaction and check per migration at start-up.
    const fresh = done.size === 0 && !db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name != 'schema_migrations'").get();
    if (fresh) return migrateFresh(db);
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      ran++;
      db.transaction(() => {
        db.exec(m.sql);
        m.run?.(db);
        const broken = db.query("PRAGMA foreign_key_check").all();
        if (broken.length) throw new Error(`migration ${m.version} breaks ${broken.length} foreign keys`);
        db.query("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(m.version, Date.now());
      })();
    }
  } finally {
    db.exec("PRAGMA foreign_keys = ON");
  }
  return ran;
}
