/**
 * The collector of files nothing names any more (an upload never sent, a deleted
 * message's files, a replaced avatar): mark, then sweep after a grace period. A sweep
 * first drops expired upload slots, then marks every blob no reference names
 * (`media_refs`: attachments, slots, avatars, icons, emoji) with the time it was first
 * found so, and unmarks those named again; a blob marked longer than the grace is
 * deleted, its row and its file in one transaction, in the same turn of the event loop
 * (see store/media.ts for why that matters). The marks live in the database, so with
 * several nodes on one database and one shared media directory the grace counts the
 * same on every node, whichever sweeps.
 *
 * The grace (24 hours by default) is what keeps a backup restorable: a backup taken at T
 * holds every blob its database names, and none of those can be deleted before T plus
 * the grace, longer than any backup takes to copy them.
 *
 * Runs on the one clock, every ten minutes in the server (start()), or at once through
 * `parley media sweep` while no server runs on the data directory.
 */
import type { CoreDeps } from "./deps";
import type { TimerHandle } from "./clock";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ByteSource } from "../store/media";
import { storeError } from "./media-types";

const EVERY_MS = 10 * 60_000;
/** In a shared media directory, a temporary file untouched this long is a stopped node's leftover, not an upload under way. */
const SHARED_TEMP_MS = 60 * 60_000;

export interface SweepReport {
  /** Upload slots past their time, removed. */
  expiredUploads: number;
  /** Blobs found unreferenced in this sweep (the grace starts). */
  marked: number;
  /** Blobs deleted, and their bytes. */
  removed: number;
  removedBytes: number;
}

export class MediaCollector {
  private timer: TimerHandle | null = null;
  /** Set by stop(): start()'s clean-up, which awaits the disk, then leaves the closed database alone. */
  private stopped = false;

  constructor(private readonly d: CoreDeps) {}

  private get db() {
    return this.d.store.db;
  }

  sweep(): SweepReport {
    const now = this.d.clock.now();
    const { expired, marked, received } = this.d.store.write(() => {
      // Slots whose bytes were received and never placed (core/media-place.ts) leave those bytes under their name.
      const received = this.db.query("SELECT id FROM uploads WHERE expires_at <= ? AND sha256 IS NULL AND size IS NOT NULL").all(now) as {
        id: string;
      }[];
      const expiredUploads = this.db.query("DELETE FROM uploads WHERE expires_at <= ?").run(now).changes;
      this.db
        .query(
          "UPDATE media_blobs SET unreferenced_since = NULL WHERE unreferenced_since IS NOT NULL AND sha256 IN (SELECT sha256 FROM media_refs)",
        )
        .run();
      const newlyMarked = this.db
        .query(
          "UPDATE media_blobs SET unreferenced_since = ? WHERE unreferenced_since IS NULL AND sha256 NOT IN (SELECT sha256 FROM media_refs)",
        )
        .run(now).changes;
      return { expired: expiredUploads, marked: newlyMarked, received };
    });
    for (const r of received) this.d.media.store.dropReceived(r.id);
    const cutoff = now - this.d.media.limits.graceMs;
    const doomed = this.d.store.write(() => {
      const rows = this.db
        .query(
          "SELECT sha256, size FROM media_blobs WHERE unreferenced_since <= ? AND sha256 NOT IN (SELECT sha256 FROM media_refs) ORDER BY sha256",
        )
        .all(cutoff) as { sha256: string; size: number }[];
      // Each row deleted only if it is still unreferenced past the grace: an upload of the
      // same bytes on another node clears the mark (and holds the row until it commits),
      // so the check is made again on the row itself. Its file goes inside this write,
      // while the row is held: an upload waiting for it then finds no file and places its
      // own (core/media.ts, commitStaged). A commit that fails after the unlink leaves an
      // unreferenced row without bytes, which the next sweep removes.
      const del = this.db.query(
        "DELETE FROM media_blobs WHERE sha256 = ? AND unreferenced_since <= ? AND sha256 NOT IN (SELECT sha256 FROM media_refs)",
      );
      return rows.filter((r) => {
        if (del.run(r.sha256, cutoff).changes !== 1) return false;
        this.d.media.store.unlink(r.sha256);
        return true;
      });
    });
    return { expiredUploads: expired, marked, removed: doomed.length, removedBytes: doomed.reduce((n, r) => n + Number(r.size), 0) };
  }

  /**
   * The server's part (it alone holds the data directory): temporary files a stopped
   * process left are removed now, blob files no row names and older than the grace too
   * (a crash between a file's move and its row's commit leaves one), and sweeps run from
   * now on (schedule()).
   */
  async start(): Promise<{ temp: number; orphans: number }> {
    this.stopped = false;
    this.schedule();
    // A directory other nodes share holds their uploads under way: only what nobody has written to for an hour is left over.
    const before = this.d.media.store.shared ? this.d.clock.now() - SHARED_TEMP_MS : Number.POSITIVE_INFINITY;
    // Bytes received for a slot still waiting for them are an acknowledged upload, not a leftover.
    const waiting = this.db.query("SELECT 1 AS x FROM uploads WHERE id = ? AND sha256 IS NULL AND size IS NOT NULL");
    // (Stopped meanwhile, the database is closed: keep whatever is left to look at.)
    const temp = await this.d.media.store.cleanTemp(before, (id) => this.stopped || !!waiting.get(id));
    // A server stopped while this looked at the disk: its database is closed.
    if (this.stopped) return { temp, orphans: 0 };
    return { temp, orphans: await this.removeOrphans() };
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
  }

  /**
   * Every ten minutes while something waits (an upload slot, a file in its grace);
   * otherwise once a grace, so a file that loses its last reference waits at most two
   * graces. A virtual jump of years (the harness's clock) then fires a few thousand
   * sweeps, not hundreds of thousands.
   */
  private schedule(): void {
    this.timer?.cancel();
    this.timer = this.d.clock.setTimeout(
      () => {
        this.sweep();
        this.schedule();
      },
      this.waiting() ? EVERY_MS : Math.max(EVERY_MS, this.d.media.limits.graceMs),
    );
  }

  /** Whether an upload slot is open or a file is in its grace. */
  private waiting(): boolean {
    const row = this.db
      .query(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM uploads) OR EXISTS (SELECT 1 FROM media_blobs WHERE unreferenced_since IS NOT NULL) THEN 1 ELSE 0 END AS w",
      )
      .get() as { w: number };
    return row.w === 1;
  }

  /**
   * Blob files without a row, written longer than the grace ago. Each is claimed first:
   * a row for it inserted (and deleted again) in the write that unlinks it, so an upload
   * of the same bytes on another node, whose row insert meets this one, waits for it and
   * then places its own file, or has inserted first and the file stays.
   */
  async removeOrphans(): Promise<number> {
    const before = this.d.clock.now() - this.d.media.limits.graceMs;
    const known = this.db.query("SELECT 1 AS x FROM media_blobs WHERE sha256 = ?");
    const claim = this.db.query(
      `INSERT INTO media_blobs (sha256, size, content_type, inline, width, height, animated, created_at, unreferenced_since)
       VALUES (?, 0, 'application/octet-stream', 0, NULL, NULL, 0, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
    );
    const unclaim = this.db.query("DELETE FROM media_blobs WHERE sha256 = ?");
    let n = 0;
    for await (const f of this.d.media.store.list()) {
      // A server stopped while this looked at the disk: its database is closed.
      if (this.stopped) break;
      if (f.mtimeMs >= before || known.get(f.sha256)) continue;
      const removed = this.d.store.write(() => {
        if (claim.run(f.sha256, before, before).changes !== 1) return false;
        this.d.media.store.unlink(f.sha256);
        unclaim.run(f.sha256);
        return true;
      });
      if (removed) n++;
    }
    return n;
  }

  /**
   * Copy every stored file to `dest` (a backup's `media/`, laid out as the data
   * directory's: `blobs/ab/cd/<sha256>`), each checked against its hash. Called after the
   * database's snapshot: every blob the snapshot names still has its row then, since none
   * is deleted before it has gone unnamed for the grace period, longer than a copy takes.
   */
  async copyAll(dest: string, only?: readonly string[]): Promise<{ files: number; bytes: number }> {
    const all = this.db.query("SELECT sha256 FROM media_blobs ORDER BY sha256").all() as { sha256: string }[];
    const wanted = only && new Set(only);
    const rows = wanted ? all.filter((r) => wanted.has(r.sha256)) : all;
    let bytes = 0;
    for (const { sha256 } of rows) {
      const blob = this.d.media.store.open(sha256);
      if (!blob) throw new Error(`the file of ${sha256} is missing from the data directory`);
      bytes += await copyChecked(blob, join(dest, "blobs", sha256.slice(0, 2), sha256.slice(2, 4), sha256), sha256);
    }
    return { files: rows.length, bytes };
  }

  /**
   * Put a file's bytes in place ahead of the rows that will name them (an import): they
   * must hash to `sha256`, or nothing is kept. Until a row names them they are an orphan
   * the collector would remove after the grace, so an import that fails leaves no debris.
   */
  async restoreFile(bytes: ByteSource, sha256: string): Promise<void> {
    let staged;
    try {
      staged = await this.d.media.store.stage(bytes, { limit: Number.MAX_SAFE_INTEGER, expect: sha256 });
    } catch (e) {
      throw storeError(e, Number.MAX_SAFE_INTEGER);
    }
    staged.place();
  }

  /** Every blob's row, read a page at a time in its hash's order (`parley migrate` walks them all). */
  *blobs(page = 500): Iterable<{ sha256: string; size: number }> {
    const next = this.db.query("SELECT sha256, size FROM media_blobs WHERE sha256 > ? ORDER BY sha256 LIMIT ?");
    for (let after = ""; ; ) {
      const rows = next.all(after, page) as { sha256: string; size: number }[];
      yield* rows;
      if (rows.length < page) return;
      after = rows[rows.length - 1].sha256;
    }
  }

  /** What the stored files hold (`parley media usage`). */
  usage(): Promise<{ files: number; bytes: number }> {
    return this.d.media.store.usage();
  }

  /** Blobs a row names whose bytes are missing (a restore checks there are none). */
  missing(): string[] {
    const named = this.db.query("SELECT DISTINCT sha256 FROM media_refs ORDER BY sha256").all() as { sha256: string }[];
    return named.map((r) => r.sha256).filter((sha) => !this.d.media.store.has(sha));
  }
}

/**
 * Copy one stored file to `to` a chunk at a time, hashing as it goes: a backup of a
 * server holding large files never holds one whole in memory. A copy that does not match
 * its hash is removed, and the copy fails. Answers the bytes copied.
 */
async function copyChecked(blob: Blob, to: string, sha256: string): Promise<number> {
  mkdirSync(dirname(to), { recursive: true });
  const hash = new Bun.CryptoHasher("sha256");
  const sink = Bun.file(to).writer();
  let bytes = 0;
  try {
    const reader = blob.stream().getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      hash.update(r.value);
      sink.write(r.value);
      bytes += r.value.byteLength;
    }
    await sink.end();
  } catch (e) {
    try {
      await sink.end();
    } catch {
      // Already ended, or the disk failed again: the copy goes either way.
    }
    rmSync(to, { force: true });
    throw e;
  }
  if (hash.digest("hex") !== sha256) {
    rmSync(to, { force: true });
    throw new Error(`the file of ${sha256} does not match its hash`);
  }
  return bytes;
}
