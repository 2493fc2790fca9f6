/**
 * What changed, on a Postgres node: the same log the core reads on SQLite
 * (store/changes.ts), fed by the statements this node sends instead of SQLite's hooks,
 * and by what the other nodes (and operator commands) on the database tell it.
 *
 * Its own writes: each statement that writes names its table (INSERT INTO t, UPDATE t,
 * DELETE FROM t, an upsert both adds and changes), and the foreign keys' cascades, read
 * from the catalogue once at start, carry a delete (or an update) on to the tables that
 * reference it. A table is bumped when its statement is given to the bridge, before
 * Postgres runs it: any read after it waits for it (the bridge sends what is queued
 * first), so what a memo loads once the stamp moved is the changed row. A statement that
 * writes and names no table it can tell bumps everything.
 *
 * The keys bumped are also kept until the write's end, when the relay (relay.ts) sends
 * them in the write's own transaction; every other process on the database bumps them
 * as the notification arrives (`remote`). While this node cannot hear the others (its
 * listening connection is down, or not yet up) it trusts no memo: every stamp moves on
 * every look, which turns the memos off until it listens again.
 *
 * Hearing takes a moment, so the first look in each turn of the event loop also asks
 * Postgres for the newest commit's number (relay.ts numbers them): while a number up to
 * it is neither heard of nor this node's own, a commit is in the database that the memos
 * may not show yet, and that turn trusts none of them.
 */
import { EXISTING, type ChangeLog, type Watch } from "../changes";

interface Cell {
  n: number;
}

/** A table a statement changes, and whether rows that existed did (update, delete). */
interface Target {
  table: string;
  existing: boolean;
}

/** One foreign key: a change to `parent`'s rows reaches `child`'s as `onDelete`/`onUpdate` say (Postgres's letters: c cascade, n set null, d set default). */
export interface ForeignKey {
  child: string;
  parent: string;
  onDelete: string;
  onUpdate: string;
}

/** Statements kept by text; the core has a few hundred, dynamic ones come and go. */
const CACHE = 5000;

export class PgChanges implements ChangeLog {
  private readonly cells = new Map<string, Cell>();
  private readonly targets = new Map<string, Target[] | "everything" | null>();
  private epoch = 0;
  written = 0;
  /** Other processes write to the same database: never alone. */
  readonly alone = false;
  /** Cells bumped since the last `drain()` ("table", "table!" for existing rows, "*" for everything). */
  private touched = new Set<string>();
  /** Commits of other processes heard of. */
  private others = 0;
  /** Not hearing the other processes: memos are off. */
  deaf = false;
  private redirect: { table: string; as: string } | null = null;
  /** Every commit number up to this one is heard of (or this node's own). */
  private upTo = 0;
  /** Numbers heard of above `upTo`, waiting for the ones between. */
  private readonly ahead = new Set<number>();
  /** The newest commit's number, read from Postgres; null until the relay can tell (a command, a test). */
  readClock: (() => number) | null = null;
  /** This turn of the event loop has compared the numbers. */
  private compared = false;
  private readonly nextTurn = () => {
    this.compared = false;
  };

  constructor(private readonly keys: readonly ForeignKey[]) {}

  /** Every statement the bridge is given, by its SQLite text. */
  statement(sql: string): void {
    let t = this.targets.get(sql);
    if (t === undefined) {
      if (this.targets.size >= CACHE) this.targets.clear();
      t = targetsOf(sql, this.keys);
      this.targets.set(sql, t);
    }
    if (t === null) return;
    if (t === "everything") {
      this.written++;
      this.epoch++;
      this.touched.add("*");
      return;
    }
    for (const x of t) this.bump(x.table, x.existing);
  }

  watch(tables: readonly string[]): Watch {
    const cells = tables.map((t) => this.cell(t));
    return {
      stamp: () => {
        // Deaf: another node may have changed anything, unheard; nothing kept is trusted.
        if (this.deaf) this.epoch++;
        else if (!this.compared) this.compare();
        let s = this.epoch;
        for (const c of cells) s += c.n;
        return s;
      },
    };
  }

  /** Every commit number up to this one is heard of (or this node's own). */
  get through(): number {
    return this.upTo;
  }

  /** A commit's number, heard of from another process or made by this one. */
  heard(n: number): void {
    if (n <= this.upTo) return;
    this.ahead.add(n);
    while (this.ahead.delete(this.upTo + 1)) this.upTo++;
  }

  /** Listening (again) from here: everything up to `n` is in the database, and memos start over. */
  heardUpTo(n: number): void {
    if (n > this.upTo) this.upTo = n;
    for (const k of this.ahead) if (k <= this.upTo) this.ahead.delete(k);
    while (this.ahead.delete(this.upTo + 1)) this.upTo++;
  }

  /**
   * After waiting for a lock (Store.serialize): whoever held it may have committed since
   * this turn compared, so the next look compares again.
   */
  compareAgain(): void {
    this.compared = false;
  }

  /** Once a turn: a commit not yet heard of turns this turn's memos off. */
  private compare(): void {
    if (!this.readClock) return;
    this.compared = true;
    queueMicrotask(this.nextTurn);
    try {
      if (this.readClock() > this.upTo) this.epoch++;
    } catch {
      this.epoch++;
    }
  }

  othersCommitted(): number {
    return this.others;
  }

  /** Null until the relay listens (a command, a test that does not): nothing is heard then. */
  commits(): { newest: number; heard: number } | null {
    return this.readClock ? { newest: this.readClock(), heard: this.upTo } : null;
  }

  /** The cells this process bumped since the last call, for the other processes (relay.ts). */
  drain(): string[] {
    if (!this.touched.size) return [];
    const out = [...this.touched];
    this.touched.clear();
    return out;
  }

  /** Another process committed changes to these cells (what its `drain()` gave). */
  remote(keys: readonly string[]): void {
    this.others++;
    for (const k of keys) {
      if (k === "*") {
        this.epoch++;
        continue;
      }
      const c = this.cells.get(k);
      if (c) c.n++;
      // Existing rows changed: the table itself changed too.
      if (k.endsWith(EXISTING)) {
        const all = this.cells.get(k.slice(0, -EXISTING.length));
        if (all) all.n++;
      }
    }
  }

  wrote(): void {
    this.written++;
  }

  rolledBack(): void {
    this.epoch++;
  }

  everything(): void {
    this.epoch++;
    this.touched.add("*");
  }

  counted<T>(table: string, as: string, fn: () => T): T {
    const before = this.redirect;
    this.redirect = { table, as };
    try {
      return fn();
    } finally {
      this.redirect = before;
    }
  }

  close(): void {}

  private bump(table: string, existing: boolean): void {
    this.written++;
    if (this.redirect && this.redirect.table === table) table = this.redirect.as;
    this.touched.add(existing ? table + EXISTING : table);
    const all = this.cells.get(table);
    if (all) all.n++;
    if (existing) {
      const ex = this.cells.get(table + EXISTING);
      if (ex) ex.n++;
    }
  }

  private cell(key: string): Cell {
    let c = this.cells.get(key);
    if (!c) this.cells.set(key, (c = { n: 0 }));
    return c;
  }
}

/** Statements that change no row (what a transaction does, settings, reads). */
const CHANGES_NOTHING = /^(SELECT|VALUES|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|SET|SHOW|EXPLAIN)\b/i;
const WRITE = /\b(INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+(?:"?main"?\.)?"?(\w+)"?/gi;

/** The tables a statement changes, cascades included; null for none, "everything" when it cannot tell. */
export function targetsOf(sql: string, keys: readonly ForeignKey[]): Target[] | "everything" | null {
  // String literals and comments name no table.
  const text = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .trim();
  const out = new Map<string, boolean>();
  const add = (table: string, existing: boolean) => out.set(table, (out.get(table) ?? false) || existing);
  let found = false;
  let inserted: string | null = null;
  for (const m of text.matchAll(WRITE)) {
    const verb = m[1].toUpperCase();
    const table = m[2];
    // An upsert's DO UPDATE SET: the INSERT's own table, whose existing rows it changes.
    if (verb.startsWith("UPDATE") && table.toUpperCase() === "SET") {
      if (inserted) reach(inserted, "update", keys, add);
      continue;
    }
    found = true;
    if (verb.startsWith("INSERT")) {
      inserted = table;
      add(table, false);
      if (/\bOR\s+REPLACE\b/i.test(verb)) reach(table, "delete", keys, add);
    } else if (verb.startsWith("REPLACE")) {
      add(table, false);
      reach(table, "delete", keys, add);
    } else reach(table, verb.startsWith("DELETE") ? "delete" : "update", keys, add);
  }
  if (found) return [...out].map(([table, existing]) => ({ table, existing }));
  return CHANGES_NOTHING.test(text) || /^WITH\b/i.test(text) ? null : "everything";
}

/** `table`'s existing rows change by `how`; so do those the foreign keys carry it to. */
function reach(
  table: string,
  how: "delete" | "update",
  keys: readonly ForeignKey[],
  add: (t: string, existing: boolean) => void,
  seen = new Set<string>(),
): void {
  const key = `${table} ${how}`;
  if (seen.has(key)) return;
  seen.add(key);
  add(table, true);
  for (const k of keys) {
    if (k.parent !== table) continue;
    const action = how === "delete" ? k.onDelete : k.onUpdate;
    if (action === "c") reach(k.child, how, keys, add, seen);
    else if (action === "n" || action === "d") reach(k.child, "update", keys, add, seen);
  }
}
