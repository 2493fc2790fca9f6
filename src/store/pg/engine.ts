/**
 * Postgres under the store (`--database postgres://...`): the bridge (bridge.ts) as the
 * store's database, the schema migrated under an advisory lock (migrate.ts), and the
 * change log fed by the node's own statements (changes.ts) and by what the other
 * processes on the database notify (relay.ts). The store's write path, group commit
 * included, is the same code as on SQLite (db.ts); what differs is here.
 *
 * Any number of nodes and operator commands share one database: each write notifies the
 * others of the tables it changed and the events it produced, in its own transaction.
 */
import { migrations } from "../migrations";
import type { Engine, Runnable, StoreHealth } from "../engine";
import { PgDatabase, type PgOptions } from "./bridge";
import { PgChanges, type ForeignKey } from "./changes";
import { migratePg, refused, wipePg } from "./migrate";
import { PgRelay } from "./relay";

export type PgEngineOptions = Omit<PgOptions, "applicationName"> & {
  /** A serving node (`parley serve`), named so in pg_stat_activity; a command or a test is not. */
  serving?: boolean;
};

/** The application_name of a serving node's connection, and of anything else's. */
const NODE = "parley";
const TOOL = "parley-tool";

export class PgEngine implements Engine {
  readonly kind = "postgres";
  readonly db: PgDatabase;
  readonly changes: PgChanges;
  readonly relay: PgRelay;
  readonly stmt: Engine["stmt"];
  readonly startup: Engine["startup"];
  /** The newest count of applied migrations read, for /readyz while the server cannot be asked. */
  private applied: number;

  constructor(opts: PgEngineOptions) {
    const t0 = performance.now();
    const { serving, ...connection } = opts;
    this.db = new PgDatabase({ ...connection, applicationName: serving ? NODE : TOOL });
    try {
      const t1 = performance.now();
      refuseLostCommits(this.db);
      const ran = migratePg(this.db);
      this.applied = this.countApplied();
      this.startup = { openMs: t1 - t0, migrateMs: performance.now() - t1, migrations: ran };
      this.changes = new PgChanges(foreignKeys(this.db));
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.db.observer = (sql) => this.changes.statement(sql);
    this.relay = new PgRelay(this.db, this.changes, connection);
    const release = this.db.prepare("RELEASE w");
    const db = this.db;
    this.stmt = {
      savepoint: this.db.prepare("SAVEPOINT w"),
      // A write's statements were only queued: sent with its RELEASE, so that what fails
      // fails inside the write (db.ts rolls back to its savepoint) and not in the next one.
      // A RELEASE with nothing before it (a read sent them) waits for the next crossing.
      release: {
        run: () => {
          release.run();
          db.flushWrites();
        },
      },
      rollbackTo: this.db.prepare("ROLLBACK TO w"),
    };
  }

  /** Postgres takes row and advisory locks as statements ask (Store.serialize): BEGIN as it is. */
  readonly begin: Runnable = { run: () => this.db.query("BEGIN").run() };

  writeTransaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Reachable, not a read-only standby, and migrated: asked of the server each time. */
  health(): StoreHealth {
    const known = migrations.length;
    // An open group commit has the connection and just wrote through it.
    if (this.db.inTransaction) return { engine: "postgres", writable: true, applied: this.applied, known, ...this.hearing() };
    try {
      const r = this.db
        .native("SELECT (SELECT count(*) FROM schema_migrations) AS n, current_setting('transaction_read_only') AS ro")
        .get() as { n: number; ro: string };
      this.applied = r.n;
      if (r.ro === "on")
        return { engine: "postgres", writable: false, applied: r.n, known, error: "Postgres: the server is read-only (a standby?)" };
      return { engine: "postgres", writable: true, applied: r.n, known, ...this.hearing() };
    } catch (e) {
      return {
        engine: "postgres",
        writable: false,
        applied: this.applied,
        known,
        error: `Postgres: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
  }

  /**
   * A transaction-scoped advisory lock on the key's hash: sent and waited for now (a
   * read), so what the caller reads next sees every write committed by whoever held it.
   * The memos too: this turn compared the commit counter before the wait, so the next
   * memo read compares again, and trusts nothing while the holder's commit is unheard.
   */
  serialize(key: string): void {
    this.db.native("SELECT pg_advisory_xact_lock(hashtextextended($1, 0)) AS locked").get(key);
    this.changes.compareAgain();
  }

  wipe(): void {
    wipePg(this.db);
    this.relay.sendEverything();
  }

  /** A serving node that cannot hear the others serves without memos and says so (it stays ready). */
  private hearing(): { notices?: string[] } {
    return this.relay.listens && !this.relay.hearing
      ? { notices: ["Postgres: not listening for the other nodes' changes (reconnecting); memos are off"] }
      : {};
  }

  backup(): void {
    throw refused("parley backup copies SQLite's database: a Postgres database is backed up with pg_dump (or its continuous archiving)");
  }

  checkpoint(): void {}

  /** The server holds no cache of Postgres's pages. */
  releaseMemory(): void {}

  sizeBytes(): number {
    return Number((this.db.query("SELECT pg_database_size(current_database()) AS n").get() as { n: number | string }).n);
  }

  close(): void {
    this.relay.close();
    this.db.close();
  }

  private countApplied(): number {
    return (this.db.native("SELECT count(*) AS n FROM schema_migrations").get() as { n: number }).n;
  }
}

/**
 * An acknowledged write must survive a crash of the server (kill -9 of Postgres, a power
 * cut): with synchronous_commit off, Postgres acknowledges a COMMIT before it is on disk.
 */
function refuseLostCommits(db: PgDatabase): void {
  const r = db.native("SHOW synchronous_commit").get() as { synchronous_commit: string };
  if (r.synchronous_commit === "off")
    throw refused(
      "synchronous_commit is off, which loses acknowledged writes in a crash: set it to on (the default) for Parley's database or role",
    );
}

/** The schema's foreign keys, for the cascades a delete or an update makes. */
function foreignKeys(db: PgDatabase): ForeignKey[] {
  return db
    .native(
      `SELECT ch.relname AS child, pa.relname AS parent, c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update
         FROM pg_constraint c JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid
        WHERE c.contype = 'f' AND ch.relnamespace = to_regnamespace(current_schema())`,
    )
    .all()
    .map((r) => {
      const k = r as { child: string; parent: string; on_delete: string; on_update: string };
      return { child: k.child, parent: k.parent, onDelete: k.on_delete, onUpdate: k.on_update };
    });
}
