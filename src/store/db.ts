/**
 * The store: one bun:sqlite connection (one writer), WAL, forward-only migrations.
 * Every write goes through write(): one transaction, and the domain events it produced
 * are handed to the bus only after the commit, so no subscriber ever sees an event for
 * data that was rolled back.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrations } from "./migrations";

export interface StoreOptions {
  path: string; // file path or ":memory:"
  synchronous: "NORMAL" | "FULL";
}

export class Store {
  readonly db: Database;
  private pending: unknown[] | null = null;
  private publish: (events: unknown[]) => void = () => {};

  constructor(opts: StoreOptions) {
    if (opts.path !== ":memory:") mkdirSync(dirname(opts.path), { recursive: true });
    this.db = new Database(opts.path, { create: true, strict: true });
    // busy_timeout first, so that the WAL switch itself waits for another process.
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec(`PRAGMA synchronous = ${opts.synchronous}`);
    this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA wal_autocheckpoint = 10000");
    this.migrate();
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
    this.pending = [];
    let events: unknown[];
    let result: T;
    try {
      result = this.db.transaction(fn)();
      events = this.pending;
    } finally {
      this.pending = null;
    }
    if (events.length) this.publish(events);
    return result;
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
    const tables = (
      this.db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    // foreign_keys cannot change inside a transaction: switch it off around the wipe.
    this.db.exec("PRAGMA foreign_keys = OFF");
    try {
      this.db.transaction(() => {
        for (const t of tables) this.db.exec(`DELETE FROM "${t}"`);
      })();
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA wal_autocheckpoint = 10000");
    }
  }

  close(): void {
    this.db.close();
  }

  private migrate(): void {
    this.db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    const done = new Set(
      (this.db.query("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version),
    );
    // Foreign keys are off while migrating (the SQLite way to rebuild a table): a DROP
    // TABLE would otherwise cascade into the rows that reference it. Each migration
    // still ends with a foreign_key_check, so a bad one rolls back.
    this.db.exec("PRAGMA foreign_keys = OFF");
    try {
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        this.db.transaction(() => {
          this.db.exec(m.sql);
          const broken = this.db.query("PRAGMA foreign_key_check").all();
          if (broken.length) throw new Error(`migration ${m.version} breaks ${broken.length} foreign keys`);
          this.db.query("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(m.version, Date.now());
        })();
      }
    } finally {
      this.db.exec("PRAGMA foreign_keys = ON");
    }
  }
}
