/**
 * When files' bytes are flushed (issue 31). An upload is answered once its bytes are
 * written and named (moved under their hash, a row naming them committed), not once the
 * disk has flushed them: a process killed after that (kill -9) leaves them in the page
 * cache, whole, and only an operating-system crash or a power loss could tear them. So
 * the flush (the file, then the directories its name is in) runs behind the answer,
 * remembered per blob here, and whatever names a blob for good (a message, an avatar, an
 * icon, an emoji) waits for it first (settle(), core/media.ts). A blob this process did
 * not flush itself (after a restart; through another node on a shared directory) is
 * flushed and checked against its hash before it is named: torn bytes are removed and
 * refused (MediaDamaged), so the person sends them again.
 *
 * What is remembered is the file (its inode), not only the hash: the same bytes placed
 * again by another process replace the file, and a blob counts as flushed only while the
 * file at its path is the one flushed. The same bytes uploaded again over a file this
 * process does not know are not trusted as they stand either: that file is flushed and
 * checked behind the answer, and replaced by the new copy if it is torn.
 *
 * Bytes that must be durable before the caller's next step (a bot's avatar sent as data,
 * an import) are placed at once instead (placeNow): fsynced before, renamed over any copy
 * not known flushed, their directory fsynced, all before place() returns.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, unlinkSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { MediaDamaged, MediaWriteFailed, mediaError } from "./media-errors";
import type { Hasher } from "./media-hash";

/** What the flushes need of the store: where blobs live, the hasher, and how a file is flushed (a test's disk may hold it). */
export interface FlushDisk {
  readonly blobsDir: string;
  readonly hasher: Hasher;
  pathOf(sha256: string): string;
  fsync(file: { fd: number }): Promise<void>;
}

interface Entry {
  /** The file (inode) placed or checked; 0 while a check has not opened it yet. */
  ino: number;
  done: boolean;
  promise: Promise<void>;
}

/** Flushed blobs remembered at most (the oldest forgotten first: checked again if named again). */
const KEEP = 10_000;

export class Flushes {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly disk: FlushDisk) {}

  /** Whether the file at the blob's path is one this process flushed (placed, or checked against its hash). */
  settled(sha256: string): boolean {
    const e = this.entries.get(sha256);
    return e !== undefined && e.done && inoOf(this.disk.pathOf(sha256)) === e.ino;
  }

  /** Resolves once the blob's file is flushed and known whole: its own flush awaited, or a check (fsync and hash). */
  async settle(sha256: string): Promise<void> {
    for (let tries = 0; tries < 3 && !this.settled(sha256); tries++) {
      const e = this.entries.get(sha256);
      await (e && !e.done ? e.promise : this.track(sha256, 0, this.check(sha256, true)));
    }
    if (!this.settled(sha256)) throw new MediaWriteFailed("EAGAIN", `the stored bytes of ${sha256} kept changing while they were checked`);
  }

  /** A fsynced temporary file, under its hash now, durably (see the file's comment). Synchronous. */
  placeNow(temp: string, sha256: string): void {
    if (this.settled(sha256)) return unlinkSync(temp);
    const dest = this.disk.pathOf(sha256);
    const ino = statSync(temp).ino;
    const made = mkdirSync(dirname(dest), { recursive: true }) !== undefined;
    renameSync(temp, dest);
    for (const d of this.dirsOf(dest, made)) fsyncDirSync(d);
    this.entries.delete(sha256);
    this.entries.set(sha256, { ino, done: true, promise: Promise.resolve() });
    this.trim();
  }

  /** A written temporary file, under its hash now; its flush starts and is remembered. Synchronous. */
  placeBehind(temp: string, sha256: string): void {
    const dest = this.disk.pathOf(sha256);
    const there = inoOf(dest);
    const e = this.entries.get(sha256);
    if (there !== null) {
      // Placed or checked by this process (flushed, or its flush under way): the same bytes.
      if (e && e.ino === there) return unlinkSync(temp);
      void this.track(sha256, 0, this.adopt(temp, sha256, e?.promise));
      return;
    }
    const ino = statSync(temp).ino;
    const made = mkdirSync(dirname(dest), { recursive: true }) !== undefined;
    renameSync(temp, dest);
    void this.track(sha256, ino, this.flushPlaced(sha256, made));
  }

  /** The blob's file is gone (the collector): nothing is remembered of it. */
  forget(sha256: string): void {
    this.entries.delete(sha256);
  }

  private track(sha256: string, ino: number, task: Promise<number>): Promise<void> {
    const entry: Entry = { ino, done: false, promise: Promise.resolve() };
    entry.promise = task.then(
      (flushed) => {
        if (this.entries.get(sha256) !== entry) return;
        entry.ino = flushed;
        entry.done = true;
        // Newest last: the oldest flushed are forgotten first.
        this.entries.delete(sha256);
        this.entries.set(sha256, entry);
        this.trim();
      },
      (e) => {
        if (this.entries.get(sha256) === entry) this.entries.delete(sha256);
        throw mediaError(e);
      },
    );
    // Whoever settles the blob hears of a failure; nobody else has to.
    entry.promise.catch(() => {});
    this.entries.set(sha256, entry);
    return entry.promise;
  }

  /** The file just placed, flushed, then its directory (and those made for it); answers the file flushed. */
  private async flushPlaced(sha256: string, made: boolean): Promise<number> {
    const dest = this.disk.pathOf(sha256);
    const fh = await open(dest, "r").catch((e) => Promise.reject(gone(e, sha256)));
    let ino: number;
    try {
      await this.disk.fsync(fh);
      ino = (await fh.stat()).ino;
    } finally {
      await fh.close();
    }
    await syncDirs(this.dirsOf(dest, made));
    return ino;
  }

  /**
   * A file at the blob's path this process does not know: flushed and hashed. Torn, it is
   * removed when `removeTorn` (unless another file has taken its place meanwhile).
   */
  private async check(sha256: string, removeTorn: boolean): Promise<number> {
    const path = this.disk.pathOf(sha256);
    const fh = await open(path, "r").catch((e) => Promise.reject(gone(e, sha256)));
    let ino: number;
    try {
      ino = (await fh.stat()).ino;
      await this.disk.fsync(fh);
      if ((await this.disk.hasher.ofFile(fh)) !== sha256) {
        if (removeTorn && inoOf(path) === ino) rmSync(path, { force: true });
        throw new MediaDamaged(sha256, "torn");
      }
    } finally {
      await fh.close();
    }
    await syncDirs(this.dirsOf(path, true));
    return ino;
  }

  /** The same bytes again, over a file not known flushed: that file if it checks out, else this copy in its place. */
  private async adopt(temp: string, sha256: string, before: Promise<void> | undefined): Promise<number> {
    await before?.catch(() => {});
    try {
      const ino = await this.check(sha256, false);
      await rm(temp, { force: true });
      return ino;
    } catch (e) {
      if (!(e instanceof MediaDamaged)) {
        await rm(temp, { force: true });
        throw e;
      }
    }
    const dest = this.disk.pathOf(sha256);
    const fh = await open(temp, "r");
    let ino: number;
    try {
      await this.disk.fsync(fh);
      ino = (await fh.stat()).ino;
    } finally {
      await fh.close();
    }
    await mkdir(dirname(dest), { recursive: true });
    await rename(temp, dest);
    await syncDirs(this.dirsOf(dest, true));
    return ino;
  }

  /** The directories to flush for a name in `blobs/ab/cd/`: that one, and its parents up to blobs/ when any was made. */
  private dirsOf(path: string, all: boolean): string[] {
    const dir = dirname(path);
    return all ? [dir, dirname(dir), this.disk.blobsDir] : [dir];
  }

  private trim(): void {
    if (this.entries.size <= KEEP) return;
    for (const [sha, e] of this.entries) {
      if (this.entries.size <= KEEP) break;
      if (e.done) this.entries.delete(sha);
    }
  }
}

function inoOf(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.ino ?? null;
}

function gone(e: unknown, sha256: string): Error {
  return (e as { code?: string })?.code === "ENOENT" ? new MediaDamaged(sha256, "missing") : mediaError(e);
}

async function syncDirs(dirs: string[]): Promise<void> {
  for (const d of dirs) {
    const fh = await open(d, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }
}

function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
