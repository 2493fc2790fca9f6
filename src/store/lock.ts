/**
 * One server per data directory. The server holds an exclusive SQLite lock on
 * `parley.lock` beside the database for as long as it runs: the kernel drops it when the
 * process ends, however it ends (a clean stop, a crash, kill -9), so nothing is ever
 * stale. Beside it, `serving.json` says who holds it (pid, start, public addresses once
 * listening); it is believed only while the lock is held, and removed at a clean stop.
 * Operator commands never take the lock (they run beside the server); they only ask
 * whether it is held, to find the running server's addresses.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const LOCK_FILE = "parley.lock";
export const SERVING_FILE = "serving.json";

/** What serving.json holds. */
export interface Serving {
  pid: number;
  since: string;
  base?: string;
  gateway?: string;
  portal?: string;
}

/** Another server holds the data directory. */
export class DataDirInUse extends Error {
  readonly code = "PARLEY_DATA_IN_USE";
  constructor(
    readonly dir: string,
    readonly holder: Serving | null,
  ) {
    super(`the data directory ${dir} is in use by another Parley${holder ? ` (pid ${holder.pid})` : ""}`);
  }
}

const isBusy = (e: unknown) => String((e as { code?: unknown })?.code ?? "").startsWith("SQLITE_BUSY");

export class DataLock {
  private constructor(
    readonly dir: string,
    private db: Database | null,
    private serving: Serving,
  ) {}

  /** Take the directory (made if missing), or throw DataDirInUse naming who has it. */
  static acquire(dir: string): DataLock {
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, LOCK_FILE), { create: true });
    try {
      // A command's look (held()) takes a shared lock for a moment: wait that out, no longer.
      db.exec("PRAGMA busy_timeout = 500");
      // No journal file: nothing is ever written, the lock is all there is.
      db.exec("PRAGMA journal_mode = MEMORY");
      db.exec("BEGIN EXCLUSIVE");
    } catch (e) {
      db.close();
      if (isBusy(e)) throw new DataDirInUse(dir, readServing(dir));
      throw e;
    }
    const lock = new DataLock(dir, db, { pid: process.pid, since: new Date().toISOString() });
    lock.write();
    return lock;
  }

  /** Add the addresses the server listens on, for commands that print links. */
  listening(urls: { base: string; gateway: string; portal: string }): void {
    this.serving = { ...this.serving, ...urls };
    this.write();
  }

  /** Let go: serving.json goes, the lock is dropped. */
  release(): void {
    if (!this.db) return;
    rmSync(join(this.dir, SERVING_FILE), { force: true });
    this.db.close();
    this.db = null;
  }

  private write(): void {
    writeFileSync(join(this.dir, SERVING_FILE), JSON.stringify(this.serving) + "\n");
  }
}

/** The server running on `dir` now (the lock is held), or null when none is. */
export function runningServer(dir: string): Serving | null {
  let db: Database;
  try {
    db = new Database(join(dir, LOCK_FILE), { readonly: true });
  } catch {
    return null; // no lock file: no server has ever run here
  }
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.query("SELECT count(*) FROM sqlite_master").get();
    return null;
  } catch (e) {
    return isBusy(e) ? (readServing(dir) ?? { pid: 0, since: "" }) : null;
  } finally {
    db.close();
  }
}

function readServing(dir: string): Serving | null {
  try {
    const s = JSON.parse(readFileSync(join(dir, SERVING_FILE), "utf8")) as Serving;
    return typeof s.pid === "number" ? s : null;
  } catch {
    return null;
  }
}
