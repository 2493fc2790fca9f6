/**
 * The store: one connection (one writer), forward-only migrations. The engine under it
 * (engine.ts) is embedded SQLite in WAL mode by default, or Postgres through a
 * synchronous bridge (pg/engine.ts) when the operator gives `--database`.
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
import { AsyncLocalStorage } from "node:async_hooks";
import type { ChangeLog } from "./changes";
import type { EventRelay } from "./relay";
import type { SqlDb } from "./sql";
import { SqliteEngine, type Engine, type StoreHealth } from "./engine";
import { DiskFullWatch } from "./full";
import type * as PgEngineModule from "./pg/engine";
import type { PgEngineOptions } from "./pg/engine";

export type { StoreHealth } from "./engine";

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
  /** Postgres instead of SQLite (`--database`): `path` is then unused (pg/engine.ts). */
  postgres?: PgEngineOptions;
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
  readonly db: SqlDb;
  /** Which tables changed (store/changes.ts): what lets the core keep reads in memory. */
  readonly changes: ChangeLog;
  /** How long opening took (serve --timings): the connection and its pragmas, then migrations. */
  readonly startup: { openMs: number; migrateMs: number; migrations: number };
  /** Which engine holds the data: SQLite (the default) or Postgres (`--database`). */
  readonly engine: Engine;
  private pending: unknown[] | null = null;
  /** The keys this write holds already (serialize): a rule nested in another asks once. */
  private held: Set<string> | null = null;
  private publish: (events: unknown[], at: number) => void = () => {};
  private readonly scope = new AsyncLocalStorage<Scope>();
  private batch: Batch | null = null;
  private batches = 0;
  /** The last batch whose COMMIT failed, so every request that could see it answers an error. */
  private failed: { id: number; error: unknown } | null = null;

  private readonly committed: StoreOptions["committed"];
  /** Writes refused for lack of space, for /readyz (full.ts). */
  private readonly full = new DiskFullWatch(() => (this.db.query("PRAGMA page_count").get() as { page_count: number }).page_count);

  constructor(opts: StoreOptions) {
    this.committed = opts.committed;
    // require(): the Postgres modules load only when asked for, off the single node's start-up.
    this.engine = opts.postgres ? new (require("./pg/engine") as typeof PgEngineModule).PgEngine(opts.postgres) : new SqliteEngine(opts);
    this.db = this.engine.db;
    this.startup = this.engine.startup;
    this.changes = this.engine.changes;
    this.relay = this.engine.relay;
    this.stmt = this.engine.stmt;
    // A relay that is told (Postgres's notifications) publishes at once, not at the next poll.
    if ("arrived" in this.relay) this.relay.arrived = () => this.publishRelayed();
  }

  private readonly stmt: Engine["stmt"];
  /** Domain events to and from the other processes on this database (relay.ts). */
  readonly relay: EventRelay;

  /**
   * The server, every quarter second while it listens: publish what the commands beside
   * it committed since the last call, each write's events as one commit's, in commit order.
   */
  publishRelayed(): void {
    for (const r of this.relay.receive()) this.publish(r.events, r.at);
  }

  /**
   * The bus subscribes here; called once by the composition root. `at` is the commit's
   * number where commits are numbered (several nodes on Postgres: pg/relay.ts), else 0.
   */
  onCommit(publish: (events: unknown[], at: number) => void): void {
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
    let at = 0;
    const written = this.changes.written;
    try {
      result = this.engine.writeTransaction(() => {
        const r = fn();
        // In the same transaction: the other processes hear of exactly what committed.
        this.relay.send(this.pending!);
        this.relay.seal?.();
        return r;
      });
      at = this.relay.sealed?.(true) ?? 0;
      events = this.pending;
    } catch (e) {
      this.relay.sealed?.(false);
      if (this.changes.written !== written) this.changes.rolledBack();
      this.full.saw(e);
      throw e;
    } finally {
      this.pending = null;
      this.held = null;
    }
    this.committed?.("single", 1);
    if (events.length) this.publish(events, at);
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
      this.full.saw(e);
      throw e;
    } finally {
      this.pending = null;
      this.held = null;
    }
  }

  private openBatch(): Batch {
    this.engine.begin.run();
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
    let at = 0;
    try {
      this.relay.seal?.();
      this.db.query("COMMIT").run();
      at = this.relay.sealed?.(true) ?? 0;
    } catch (error) {
      this.relay.sealed?.(false);
      this.failed = { id: batch.id, error };
      this.changes.rolledBack();
      try {
        // Some failed COMMITs (a deferred constraint, SQLITE_BUSY) leave the transaction
        // open: nothing of the batch may stay, and the next writer needs a clean slate.
        if (this.db.inTransaction) this.db.query("ROLLBACK").run();
        this.full.saw(error);
      } finally {
        batch.settle();
      }
      return;
    }
    try {
      if (batch.writes) this.committed?.("group", batch.writes);
      for (const events of batch.events) this.publish(events, at);
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

  /**
   * Inside a write: hold `key` until the write's transaction ends, so that a rule that
   * reads before it writes (a name free in its scope, a count under its limit) is
   * checked by one writer at a time across every node on the database. SQLite has one
   * writer already; on Postgres, READ COMMITTED would let two nodes both pass the check.
   * In a group commit the lock is held until the batch commits. Asked again in the
   * same write, it is held already: no second round trip.
   */
  serialize(key: string): void {
    if (!this.pending) throw new Error("serialize() outside write()");
    if (this.engine.kind === "sqlite" || this.held?.has(key)) return;
    this.engine.serialize(key);
    (this.held ??= new Set()).add(key);
  }

  /** Delete every row of every table (the harness's reset). The schema stays. */
  wipe(): void {
    this.flush();
    try {
      this.engine.wipe();
    } finally {
      this.changes.everything();
    }
  }

  close(): void {
    this.flush();
    this.engine.close();
  }

  /** Can this process write, and is the schema current (the engine says how it checks)? Is the disk full (full.ts)? */
  health(): StoreHealth {
    const h = this.engine.health();
    const full = this.full.notice();
    return full ? { ...h, notices: [...(h.notices ?? []), full] } : h;
  }

  /**
   * A consistent copy of the database as committed when the copy begins, written to
   * `path` (which must not exist); SQLite only (Postgres has pg_dump).
   */
  backup(path: string): void {
    this.flush();
    this.engine.backup(path);
  }

  /** Bytes the database takes: on SQLite its pages and its write-ahead log; on Postgres the database's size. */
  sizeBytes(): number {
    return this.engine.sizeBytes();
  }

  /** Fold the WAL into the database file now (shutdown, before a file copy); nothing on Postgres. */
  checkpoint(): void {
    this.flush();
    this.engine.checkpoint();
  }

  /** Hand back cache memory the database connection is not using (the server is idle). */
  releaseMemory(): void {
    this.engine.releaseMemory();
  }
}
