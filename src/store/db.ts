/**
 * The store: one bun:sqlite connection (one writer), WAL, forward-only migrations.
 * Every write goes through write(): one transaction, and the domain events it produced
 * are handed to the bus only after the commit, so no subscriber ever sees an event for
 * data that was rolled back. In an operator command beside a server they are also sent,
 * in the same transaction, for the server to publish after the commit (relay.ts).
 *
 * Group commit: a WAL commit per request dominated the bot API's write path, and many
 * requests are in flight at once. Code run through batched() (only the bot API pipeline)
 * writes into one shared open transaction, each write in its own savepoint, committed
 * once at the end of the event-loop turn; batched() answers only after that commit. Every
 * other writer commits at once as before, committing an open batch first.
 */
import { Database, type Statement } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { migrations } from "./migrations";
import { migrate } from "./migrate";
import { Changes } from "./changes";
import { TableRelay, type EventRelay } from "./relay";

export interface StoreOptions {
  path: string; // file path or ":memory:"
  synchronous: "NORMAL" | "FULL";
  /** Told after every successful commit how many write transactions it carried (metrics). */
  committed?: (kind: "group" | "single", writes: number) => void;
  /** An operator command beside a server: send each write's events to the server (relay.ts). */
  relay?: boolean;
  /** The server: refuse a file SQLite would open read-only without a word, now rather than at the first write. */
  writable?: boolean;
  /** The `walHeader` fast path (config/fast-paths.ts; store/changes.ts): absent, on. */
  walHeader?: boolean;
}

/** What /readyz reports. */
export interface StoreHealth {
  writable: boolean;
  /** Migrations applied and known to this build: ready when they are equal. */
  applied: number;
  known: number;
  error?: string;
}

/** One group commit: the open transaction shared by batched writes. */
interface Batch {
  id: number;
  writes: number;
  /** Each write's events, in write order, published after the commit. */
  events: unknown[][];
  /** Resolves after the commit (or its failure); never rejects. */
  done: Promise<void>;
  settle: () => void;
}

/** A batched() call's marker; switched off when its fn ends, so later timers it set write at once. */
interface Scope {
  on: boolean;
}

export class Store {
  readonly db: Database;
  /** Which tables changed (store/changes.ts): what lets the core keep reads in memory. */
  readonly changes: Changes;
  /** How long opening took (serve --timings): the connection and its pragmas, then migrations. */
  readonly startup: { openMs: number; migrateMs: number; migrations: number };
  private pending: unknown[] | null = null;
  private publish: (events: unknown[]) => void = () => {};
  private readonly scope = new AsyncLocalStorage<Scope>();
  private batch: Batch | null = null;
  private batches = 0;
  /** The last batch whose COMMIT failed, so every request that could see it answers an error. */
  private failed: { id: number; error: unknown } | null = null;

  private readonly committed: StoreOptions["committed"];
  private readonly path: string;

  constructor(opts: StoreOptions) {
    this.committed = opts.committed;
    this.path = opts.path;
    const t0 = performance.now();
    if (opts.path !== ":memory:") mkdirSync(dirname(opts.path), { recursive: true });
    this.db = new Database(opts.path, { create: true, strict: true });
    // busy_timeout first, so that the WAL switch itself waits for another process.
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec(`PRAGMA synchronous = ${opts.synchronous}`);
    this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA wal_autocheckpoint = 10000");
    // Every write runs in its own savepoint inside the group commit (write() below). With
    // the default temp store, each savepoint's statement journal starts with a 64 KiB
    // buffer: one such allocation per message posted. In memory, it grows by the kilobyte.
    this.db.exec("PRAGMA temp_store = MEMORY");
    const t1 = performance.now();
    const migrations = migrate(this.db);
    if (opts.writable && opts.path !== ":memory:") this.db.exec("BEGIN IMMEDIATE; ROLLBACK");
    this.startup = { openMs: t1 - t0, migrateMs: performance.now() - t1, migrations };
    this.changes = new Changes(this.db, opts.walHeader ?? true);
    this.relay = new TableRelay(this.db, this.changes, opts.relay === true);
    this.stmt = {
      savepoint: this.db.prepare("SAVEPOINT w"),
      release: this.db.prepare("RELEASE w"),
      rollbackTo: this.db.prepare("ROLLBACK TO w"),
    };
  }

  private readonly stmt: { savepoint: Statement; release: Statement; rollbackTo: Statement };
  /** Domain events to and from the other processes on this database (relay.ts). */
  readonly relay: EventRelay;

  /**
   * The server, every quarter second while it listens: publish what the commands beside
   * it committed since the last call, each write's events as one commit's, in commit order.
   */
  publishRelayed(): void {
    for (const events of this.relay.receive()) this.publish(events);
  }

  /** The bus subscribes here; called once by the composition root. */
  onCommit(publish: (events: unknown[]) => void): void {
    this.publish = publish;
  }

  /**
   * Run fn in one transaction. Nested calls join the outer transaction. Events queued
   * with emit() are published after the outermost commit, in order.
   */
  write<T>(fn: () => T): T {
    if (this.pending) return fn();
    if (this.scope.getStore()?.on) return this.writeBatched(fn);
    // Everyone else keeps commit-then-publish at once; an open batch goes first so that
    // commits (and events) stay in the order the writes happened.
    if (this.batch) this.commitBatch();
    this.pending = [];
    let events: unknown[];
    let result: T;
    const written = this.changes.written;
    try {
      result = this.db.transaction(() => {
        const r = fn();
        // In the same transaction: the other processes hear of exactly what committed.
        this.relay.send(this.pending!);
        return r;
      })();
      events = this.pending;
    } catch (e) {
      if (this.changes.written !== written) this.changes.rolledBack();
      throw e;
    } finally {
      this.pending = null;
    }
    this.committed?.("single", 1);
    if (events.length) this.publish(events);
    return result;
  }

  /**
   * Run fn with its writes joining the group commit, and settle only once every batch
   * fn could have read from or written to has committed: an answer built from the result
   * never shows uncommitted rows, and an acknowledged write is durable. Rejects with the
   * commit's error if one of those batches failed to commit.
   *
   * Answers synchronously when fn does and there is no open batch to wait for (a read
   * while nothing is being written): a promise costs a request a turn of the event loop.
   */
  batched<T>(fn: () => Promise<T>): Promise<T>;
  batched<T>(fn: () => T | Promise<T>): T | Promise<T>;
  batched<T>(fn: () => T | Promise<T>): T | Promise<T> {
    // Reads share the connection, so fn sees the open batch's rows (if any) from now on.
    const first = this.batch ? this.batch.id : this.batches + 1;
    const scope: Scope = { on: true };
    let result: T | Promise<T>;
    try {
      result = this.scope.run(scope, fn);
    } catch (e) {
      scope.on = false;
      throw e;
    }
    if (!(result instanceof Promise)) {
      scope.on = false;
      return this.batch ? this.batch.done.then(() => this.settled(first, result as T)) : this.settled(first, result);
    }
    return result.then(
      async (value) => {
        scope.on = false;
        if (this.batch) await this.batch.done;
        return this.settled(first, value);
      },
      (e) => {
        scope.on = false;
        throw e;
      },
    );
  }

  private settled<T>(first: number, result: T): T {
    // Conservative: a failed batch opened after fn ended also counts; failures are rare.
    if (this.failed && this.failed.id >= first) throw this.failed.error;
    return result;
  }

  /** Commit the open batch now (wipe, close, tests); a no-op without one. */
  flush(): void {
    if (this.batch) this.commitBatch();
  }

  private writeBatched<T>(fn: () => T): T {
    const batch = this.batch ?? this.openBatch();
    this.pending = [];
    const written = this.changes.written;
    this.stmt.savepoint.run();
    try {
      const result = fn();
      this.relay.send(this.pending);
      this.stmt.release.run();
      batch.writes++;
      if (this.pending.length) batch.events.push(this.pending);
      return result;
    } catch (e) {
      // Undo only this write; the batch's other writes stay.
      this.stmt.rollbackTo.run();
      this.stmt.release.run();
      if (this.changes.written !== written) this.changes.rolledBack();
      throw e;
    } finally {
      this.pending = null;
    }
  }

  private openBatch(): Batch {
    this.db.query("BEGIN").run();
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    const batch: Batch = { id: ++this.batches, writes: 0, events: [], done, settle };
    this.batch = batch;
    // setImmediate: after every request already read in this turn has run its handler,
    // so they share the commit. Scheduled outside the scope, so that subscribers run by
    // the commit do not count as batched writers.
    this.scope.exit(() =>
      setImmediate(() => {
        if (this.batch === batch) this.commitBatch();
      }),
    );
    return batch;
  }

  private commitBatch(): void {
    const batch = this.batch!;
    this.batch = null;
    // Waiters are settled whatever happens, or their requests would never answer.
    try {
      this.db.query("COMMIT").run();
    } catch (error) {
      this.failed = { id: batch.id, error };
      this.changes.rolledBack();
      try {
        // Some failed COMMITs (a deferred constraint, SQLITE_BUSY) leave the transaction
        // open: nothing of the batch may stay, and the next writer needs a clean slate.
        if (this.db.inTransaction) this.db.query("ROLLBACK").run();
      } finally {
        batch.settle();
      }
      return;
    }
    try {
      if (batch.writes) this.committed?.("group", batch.writes);
      for (const events of batch.events) this.publish(events);
    } finally {
      batch.settle();
    }
  }

  emit(event: unknown): void {
    if (!this.pending) throw new Error("emit() outside write()");
    this.pending.push(event);
  }

  get inWrite(): boolean {
    return this.pending !== null;
  }

  /** Delete every row of every table (the harness's reset). The schema stays. */
  wipe(): void {
    this.flush();
    // A virtual table (the search index) is emptied through itself: its shadow tables are
    // its own to write (and read-only to everyone else in Bun's defensive mode).
    const tables = (this.db.query("PRAGMA main.table_list").all() as { name: string; type: string }[])
      .filter((t) => (t.type === "table" || t.type === "virtual") && !t.name.startsWith("sqlite_") && t.name !== "schema_migrations")
      .map((t) => t.name);
    // foreign_keys cannot change inside a transaction: switch it off around the wipe.
    this.db.exec("PRAGMA foreign_keys = OFF");
    try {
      this.db.transaction(() => {
        for (const t of tables) this.db.exec(`DELETE FROM "${t}"`);
      })();
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
      this.changes.everything();
    }
  }

  close(): void {
    this.flush();
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
    if (this.db.inTransaction) return { writable: true, applied, known };
    try {
      this.db.exec("PRAGMA busy_timeout = 100");
      this.db.exec("BEGIN IMMEDIATE");
      this.db.exec("ROLLBACK");
      return { writable: true, applied, known };
    } catch (e) {
      return { writable: false, applied, known, error: e instanceof Error ? e.message : String(e) };
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
    this.flush();
    this.db.query("VACUUM INTO ?").run(path);
  }

  /** Bytes the database takes: its pages, and its write-ahead log (on disk) while it holds any. */
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
    this.flush();
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
}
