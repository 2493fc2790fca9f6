/**
 * What changed, so the core can keep what it read in memory and know at once when that
 * is no longer what the store says.
 *
 * A version per table, bumped while the statement that changes one of its rows runs:
 * SQLite's update hook reports the rows of ordinary tables (foreign-key cascades
 * included); WITHOUT ROWID tables, which the hook does not report, get temporary
 * triggers on this connection once a reader depends on them. A reader may follow only
 * the rows that exist changing ("messages!": updated or deleted, not added), so that a
 * table written mostly by inserts keeps its readers. Beside the versions, one epoch
 * counts what a table version cannot see: a rolled-back write (whatever was read from
 * its rows is gone), a commit by another connection or process, and a wipe. Versions
 * only ever grow, so a reader compares one sum: any change anywhere it depends on makes
 * the sum differ.
 *
 * Other writers (the CLI beside a live server) are looked for on the first look in every
 * turn of the event loop (the answer holds until setImmediate). Every request handled in
 * a turn had arrived before the turn began, so before that first look: a token rotated
 * by the CLI before a request arrives is refused, and a busy server reads the -shm
 * header once per turn rather than once per request. PRAGMA data_version says
 * whether another connection committed, but on a WAL file it costs two shm lock calls,
 * a good part of a cheap request. So the WAL index's header (the first 48 bytes of the
 * -shm file, which every commit by anyone rewrites: frame count, checksums, change
 * counter) is read (one pread) and compared first; only when it moved is the pragma
 * asked whose commit that was. An in-memory database has no other writers at all.
 *
 * The -shm file is opened once and closed only after the database is: POSIX record
 * locks belong to the process, and closing any descriptor of a file drops all of them,
 * SQLite's own locks on the -shm file among them. (Mapping it by path did exactly that:
 * a second process, the CLI's backup, then took the server for gone, reset the file,
 * and the server died of a bus error reading its mapping.)
 */
import type { Database } from "bun:sqlite";
import { closeSync, openSync, readSync } from "node:fs";

/** A reader's view of the tables it depends on: stamp() differs as soon as one changed. */
export interface Watch {
  stamp(): number;
}

interface Cell {
  n: number;
}

/** The WAL-index header is 48 bytes (sqlite.org/walformat.html); two copies follow each other. */
const HEADER_BYTES = 48;

/** A descriptor of the -shm file, or null when the database is not in WAL mode or the file cannot be opened. */
function openWalIndex(db: Database): number | null {
  try {
    const mode = (db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
    return mode.toLowerCase() === "wal" ? openSync(`${db.filename}-shm`, "r") : null;
  } catch {
    return null;
  }
}

/** Suffix of a table name meaning "its existing rows changed (update or delete)". */
export const EXISTING = "!";

/**
 * What the core and the store ask of a change log, whichever engine feeds it: SQLite's
 * hooks (Changes, here) or the statements a Postgres node sends (pg/changes.ts).
 */
export interface ChangeLog {
  watch(tables: readonly string[]): Watch;
  othersCommitted(): number;
  /**
   * Nodes sharing a server database (Postgres): the newest commit's number there, and the
   * number up to which this process has heard every commit (relay.ts). Null otherwise.
   */
  commits?(): { newest: number; heard: number } | null;
  wrote(): void;
  rolledBack(): void;
  everything(): void;
  counted<T>(table: string, as: string, fn: () => T): T;
  /** Changes seen so far: a rollback undid something only if this moved. */
  readonly written: number;
  /** No other connection can write to this database. */
  readonly alone: boolean;
  close(): void;
}

export class Changes implements ChangeLog {
  private readonly cells = new Map<string, Cell>();
  /** Rows of the _changes table (one per trigger) -> the table and whether existing rows changed. */
  private readonly triggers: { table: string; existing: boolean }[] = [];
  private readonly dataVersion;
  private lastDataVersion = -1;
  /** The -shm file, open for the store's life; null when there is none (then the pragma is read every time). */
  private shm: number | null = null;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private readonly seen = new Uint8Array(HEADER_BYTES);
  /** An in-memory database: no other connection can write to it. */
  readonly alone: boolean;
  private epoch = 0;
  /** Commits by other connections seen so far: a reader keeps the count it last acted on (store/relay.ts). */
  private others = 0;
  /** Changes seen so far (rows reported, and what wrote() counts): a rollback undid something only if this moved. */
  written = 0;

  /**
   * `walHeader` false (its fast path off, config/fast-paths.ts): no header and no
   * once-per-turn answer; PRAGMA data_version is asked on every look.
   */
  constructor(
    private readonly db: Database,
    private readonly walHeader = true,
  ) {
    db.exec("CREATE TEMP TABLE IF NOT EXISTS _changes (id INTEGER PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0)");
    this.dataVersion = db.query("PRAGMA data_version");
    this.alone = db.filename === ":memory:" || db.filename === "";
    if (!this.alone && walHeader) this.shm = openWalIndex(db);
    db.onInsert = (_db, table, rowid) => (table === "_changes" ? this.triggered(rowid) : this.bump(table, false));
    db.onUpdate = (_db, table, rowid) => (table === "_changes" ? this.triggered(rowid) : this.bump(table, true));
    db.onDelete = (_db, table) => this.bump(table, true);
  }

  /**
   * Follow these tables ("t", or "t!" for t's existing rows only); the stamp moves when
   * any of them changes, or anything the epoch counts. Call it outside any transaction:
   * a trigger created inside one would go with its rollback.
   */
  watch(tables: readonly string[]): Watch {
    const sql: string[] = [];
    const cells = tables.map((t) => this.cell(t, sql));
    // The triggers this watch needs, made in one statement: each schema change makes the
    // connection's prepared statements prepare again, and an app makes a dozen at start.
    if (sql.length) this.db.exec(sql.join("\n"));
    return {
      stamp: () => {
        this.checkOtherWriters();
        let s = this.epoch;
        for (const c of cells) s += c.n;
        return s;
      },
    };
  }

  /**
   * Look for other writers now (once per turn of the event loop at most, as every look
   * does) and answer how many of their commits have been seen so far. Another process's
   * rotation is found by the next request anyway; this is for those who must hear of it
   * with no request at all.
   */
  othersCommitted(): number {
    this.checkOtherWriters();
    return this.others;
  }

  /** A change the store cannot see (a row kept in memory as it is written): a rollback must undo it too. */
  wrote(): void {
    this.written++;
  }

  /** A write was rolled back after changing rows: whatever was read since may be gone. */
  rolledBack(): void {
    this.epoch++;
  }

  /** Everything changed (a wipe). */
  everything(): void {
    this.epoch++;
  }

  /**
   * Run fn with the changes it makes to `table` counted under `as` instead (a name of a
   * part of the table's columns, such as "users.presence"): readers of the rest of the
   * table are not disturbed by writes that only touch that part. fn must write nothing
   * else of the table.
   */
  counted<T>(table: string, as: string, fn: () => T): T {
    const before = this.redirect;
    this.redirect = { table, as };
    try {
      return fn();
    } finally {
      this.redirect = before;
    }
  }

  private redirect: { table: string; as: string } | null = null;

  private bump(table: string, existing: boolean): void {
    this.written++;
    if (this.redirect && this.redirect.table === table) table = this.redirect.as;
    const all = this.cells.get(table);
    if (all) all.n++;
    if (existing) {
      const ex = this.cells.get(table + EXISTING);
      if (ex) ex.n++;
    }
  }

  private triggered(rowid: number | bigint): void {
    const t = this.triggers[Number(rowid)];
    if (t) this.bump(t.table, t.existing);
  }

  private checked = false;
  private readonly uncheck = () => {
    this.checked = false;
  };

  /** Let go of the -shm file: only after the database has closed (see the top of this file). */
  close(): void {
    if (this.shm !== null) closeSync(this.shm);
    this.shm = null;
  }

  private checkOtherWriters(): void {
    if (this.checked || this.alone) return;
    if (this.walHeader) {
      this.checked = true;
      setImmediate(this.uncheck);
    }
    if (this.shm !== null) {
      const h = this.header;
      const n = readSync(this.shm, h, 0, HEADER_BYTES, 0);
      // Nothing was committed by anyone since the last look: nothing to ask.
      let same = n === HEADER_BYTES;
      for (let i = 0; same && i < HEADER_BYTES; i++) if (h[i] !== this.seen[i]) same = false;
      if (same) return;
      // Kept before asking, so that a commit landing meanwhile moves it again.
      this.seen.set(h);
    }
    const v = (this.dataVersion.get() as { data_version: number }).data_version;
    if (v !== this.lastDataVersion) {
      if (this.lastDataVersion !== -1) {
        this.epoch++;
        this.others++;
      }
      this.lastDataVersion = v;
    }
  }

  private cell(key: string, sql: string[]): Cell {
    let c = this.cells.get(key);
    if (c) return c;
    c = { n: 0 };
    this.cells.set(key, c);
    const existingOnly = key.endsWith(EXISTING);
    const table = existingOnly ? key.slice(0, -1) : key;
    if (this.withoutRowid().has(table))
      for (const op of existingOnly ? ["UPDATE", "DELETE"] : ["INSERT", "UPDATE", "DELETE"]) this.trigger(table, op, sql);
    return c;
  }

  private withoutRowidTables: Set<string> | null = null;
  /** The tables the update hook does not see, read once (the schema is migrated before the store opens). */
  private withoutRowid(): Set<string> {
    this.withoutRowidTables ??= new Set(
      (this.db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID%'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    return this.withoutRowidTables;
  }

  /** The update hook does not see WITHOUT ROWID tables: a temporary trigger per change touches a row it does see. */
  private trigger(table: string, op: string, sql: string[]): void {
    if (!/^\w+$/.test(table)) throw new Error(`not a table name: ${table}`);
    const name = `_changed_${table}_${op.toLowerCase()}`;
    // Temporary triggers belong to this connection, and only this class makes them.
    if (this.triggerNames.has(name)) return;
    this.triggerNames.add(name);
    const id = Math.max(1, this.triggers.length);
    this.triggers[id] = { table, existing: op !== "INSERT" };
    sql.push(
      `INSERT INTO _changes (id, n) VALUES (${id}, 0);`,
      `CREATE TEMP TRIGGER ${name} AFTER ${op} ON main.${table} BEGIN UPDATE _changes SET n = n + 1 WHERE id = ${id}; END;`,
    );
  }
  private readonly triggerNames = new Set<string>();
}
