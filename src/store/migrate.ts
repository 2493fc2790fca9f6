/**
 * Applying the numbered migrations (migrations/) at start-up, by the server and every
 * command and test app: forward only, each in its own transaction with a foreign-key
 * check, all of them in one for a new database.
 */
import { Database } from "bun:sqlite";
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

/** A migrated database lacks what the migrations made (a table dropped by hand, say). */
export class DamagedSchemaError extends Error {
  readonly code = "PARLEY_SCHEMA_DAMAGED";
  constructor(readonly missing: string[]) {
    super(`${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""} missing`);
  }
}

/** Every table, index, trigger and view the migrations make, as "table messages" (made once per process). */
let expected: string[] | null = null;
function expectedObjects(): string[] {
  if (!expected) {
    const db = new Database(":memory:");
    try {
      migrate(db);
      expected = objectsOf(db);
    } finally {
      db.close();
    }
  }
  return expected;
}

function objectsOf(db: Database): string[] {
  const rows = db.query("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as { type: string; name: string }[];
  return rows.map((r) => `${r.type} ${r.name}`);
}

/**
 * Refuse a database whose migrations are all recorded but whose schema lacks what they
 * made: otherwise it serves until the first request that needs the missing table, and the
 * server's own pollers fail a few times a second, without end. What the operator added
 * beside (an index of their own) is theirs to keep. About 15 ms at start-up.
 */
export function checkSchema(db: Database): void {
  const has = new Set(objectsOf(db));
  const missing = expectedObjects().filter((o) => !has.has(o));
  if (missing.length) throw new DamagedSchemaError(missing);
}
