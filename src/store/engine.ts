/**
 * What the store (db.ts) needs of the database under it, apart from the SQL the core
 * runs: the engine's own statements for a batched write's savepoint, its change log and
 * relay, and the operator's calls (health, wipe, backup, close). Two engines: SQLite
 * (here; the default, and the single node's every figure) and Postgres (pg/engine.ts,
 * `--database`). The store's write path is the same code over both.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { migrations } from "./migrations";
import { checkSchema, migrate } from "./migrate";
import { Changes, type ChangeLog } from "./changes";
import { TableRelay, type EventRelay } from "./relay";
import type { SqlDb } from "./sql";

/** What /readyz reports. */
export interface StoreHealth {
  /** Which engine holds the data. */
  engine: "sqlite" | "postgres";
  writable: boolean;
  /** Migrations applied and known to this build: ready when they are equal. */
  applied: number;
  known: number;
  error?: string;
  /** Ready, but something answers in a degraded way (ops/index.ts shows them as `degraded`). */
  notices?: string[];
}

/** A statement the store only runs. */
export interface Runnable {
  run(): unknown;
}

export interface Engine {
  readonly kind: StoreHealth["engine"];
  readonly db: SqlDb;
  readonly changes: ChangeLog;
  readonly relay: EventRelay;
  /**
   * A batched write's savepoint. On Postgres, `release` also sends what the write queued,
   * so that a failure is thrown inside the write that caused it.
   */
  readonly stmt: { savepoint: Runnable; release: Runnable; rollbackTo: Runnable };
  /**
   * Run fn as one write transaction. On SQLite it takes the write lock at BEGIN: a
   * transaction that reads first and takes the lock at its first write fails at once
   * (SQLITE_BUSY_SNAPSHOT, no busy wait) when another process committed in between, as
   * the server does a few times a second beside an operator's command.
   */
  writeTransaction<T>(fn: () => T): T;
  /** The group commit's BEGIN (db.ts), taking the write lock as writeTransaction does. */
  readonly begin: Runnable;
  /** How long opening took: the connection, then migrations. */
  readonly startup: { openMs: number; migrateMs: number; migrations: number };
  health(): StoreHealth;
  /** Delete every row of every table but schema_migrations; the schema stays. No batch is open. */
  wipe(): void;
  /** Hold `key` until the open transaction ends (Store.serialize). */
  serialize(key: string): void;
  backup(path: string): void;
  /** Bytes the database takes (the administrators' overview). */
  sizeBytes(): number;
  checkpoint(): void;
  /** Hand back the cache memory the connection holds and is not using (the server is idle). */
  releaseMemory(): void;
  close(): void;
}

export interface SqliteOptions {
  path: string; // file path or ":memory:"
  synchronous: "NORMAL" | "FULL";
  relay?: boolean;
  writable?: boolean;
  walHeader?: boolean;
}

/**
 * Every in-memory database starts as a copy of one migrated once per process (its
 * sqlite3_serialize image): test apps make hundreds, and migrating takes about 15 ms of
 * CPU each time where a copy takes about 1. What the migrations make is the same for
 * every database of one build, so the image never changes once made.
 */
let memoryImage: Uint8Array | null = null;
function migratedImage(): Uint8Array {
  if (!memoryImage) {
    const db = new Database(":memory:", { strict: true });
    migrate(db);
    memoryImage = db.serialize();
    db.close();
  }
  return memoryImage;
}

export class SqliteEngine implements Engine {
  readonly kind = "sqlite";
  readonly db: Database;
  readonly changes: Changes;
  readonly relay: EventRelay;
  readonly stmt: Engine["stmt"];
  readonly begin: Runnable;
  readonly startup: Engine["startup"];

  private readonly path: string;

  constructor(opts: SqliteOptions) {
    this.path = opts.path;
    const t0 = performance.now();
    const memory = opts.path === ":memory:";
    if (!memory) mkdirSync(dirname(opts.path), { recursive: true });
    this.db = memory ? Database.deserialize(migratedImage(), { strict: true }) : new Database(opts.path, { create: true, strict: true });
    // busy_timeout first, so that the WAL switch itself waits for another process.
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec(`PRAGMA synchronous = ${opts.synchronous}`);
    this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA wal_autocheckpoint = 10000");
    // Every write runs in its own savepoint inside the group commit (db.ts). With the
    // default temp store, each savepoint's statement journal starts with a 64 KiB
    // buffer: one such allocation per message posted. In memory, it grows by the kilobyte.
    this.db.exec("PRAGMA temp_store = MEMORY");
    const t1 = performance.now();
    // An in-memory database is a copy of one every migration ran on.
    const ran = memory ? migrations.length : migrate(this.db);
    if (!memory) checkSchema(this.db);
    if (opts.writable && !memory) this.db.exec("BEGIN IMMEDIATE; ROLLBACK");
    this.startup = { openMs: t1 - t0, migrateMs: performance.now() - t1, migrations: ran };
    this.changes = new Changes(this.db, opts.walHeader ?? true);
    this.relay = new TableRelay(this.db, this.changes, opts.relay === true);
    this.stmt = {
      savepoint: this.db.prepare("SAVEPOINT w"),
      release: this.db.prepare("RELEASE w"),
      rollbackTo: this.db.prepare("ROLLBACK TO w"),
    };
    this.begin = this.db.prepare("BEGIN IMMEDIATE");
  }

  writeTransaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** One writer at a time already: every write on SQLite is serialized. */
  serialize(_key: string): void {}

  wipe(): void {
    // A virtual table (the search index) is emptied through itself: its shadow tables are
    // its own to write (and read-only to everyone else in Bun's defensive mode).
    const tables = (this.db.query("PRAGMA main.table_list").all() as { name: string; type: string }[])
      .filter((t) => (t.type === "table" || t.type === "virtual") && !t.name.startsWith("sqlite_") && t.name !== "schema_migrations")
      .map((t) => t.name);
    // foreign_keys cannot change inside a transaction: switch it off around the wipe.
    this.db.exec("PRAGMA foreign_keys = OFF");
    try {
      this.db.transaction(() => {
        // Twice: a delete's triggers write other tables (a deleted message leaves its
        // number in `snowflakes`, migration 023) that may have been emptied already.
        for (let pass = 0; pass < 2; pass++) for (const t of tables) this.db.exec(`DELETE FROM "${t}"`);
      })();
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
    }
  }

  close(): void {
    // Fold the WAL back into the database file, so a stopped server leaves one file; only
    // if nobody else is busy with the database (an operator command beside a live server).
    try {
      this.db.exec("PRAGMA busy_timeout = 0");
      this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // Another process holds the database open; its own close checkpoints later.
    }
    this.db.close();
    this.changes.close();
  }

  /**
   * Can this process write, and is the schema current? The write check takes the write
   * lock and lets go (waiting at most 100 ms for another process's writer); an open
   * group commit already holds it.
   */
  health(): StoreHealth {
    const applied = (this.db.query("SELECT count(*) AS n FROM schema_migrations").get() as { n: number }).n;
    const known = migrations.length;
    if (this.db.inTransaction) return { engine: "sqlite", writable: true, applied, known };
    try {
      this.db.exec("PRAGMA busy_timeout = 100");
      this.db.exec("BEGIN IMMEDIATE");
      this.db.exec("ROLLBACK");
      return { engine: "sqlite", writable: true, applied, known };
    } catch (e) {
      return { engine: "sqlite", writable: false, applied, known, error: e instanceof Error ? e.message : String(e) };
    } finally {
      this.db.exec("PRAGMA busy_timeout = 5000");
    }
  }

  /**
   * A consistent copy of the database as committed when the copy begins, written to
   * `path` (which must not exist): VACUUM INTO reads one snapshot, so writers carry on
   * meanwhile, in this process or another.
   */
  backup(path: string): void {
    this.db.query("VACUUM INTO ?").run(path);
  }

  /** Its pages, and its write-ahead log (on disk) while it holds any. */
  sizeBytes(): number {
    const pages = (this.db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    const size = (this.db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    let wal = 0;
    if (this.path !== ":memory:")
      try {
        wal = statSync(`${this.path}-wal`).size;
      } catch {
        // No log file: everything is in the database file.
      }
    return pages * size + wal;
  }

  /** Fold the WAL into the database file now (shutdown, before a file copy). */
  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  /**
   * The page cache a load filled (up to 2 MiB) and the connection's other spare memory
   * back to the allocator: 3 to 5 MiB of the server's resident memory after the bench's
   * posts (scripts/bench/paths.ts). The next reads fetch their pages from the OS's cache.
   * An in-memory database's pages are its data, and stay.
   */
  releaseMemory(): void {
    this.db.exec("PRAGMA shrink_memory");
  }
}
