/**
 * The bytes of files (issue 31), content-addressed: `<data>/media/blobs/ab/cd/<sha256>`,
 * written once and never changed, beside the database that says what they are
 * (media_blobs, migration 13). An app on `:memory:` keeps them in a temporary directory
 * removed when it closes.
 *
 * A file arrives in two steps, so that no row ever names bytes that are not there:
 * stage() streams the bytes to a temporary file with constant memory (awaited writes are
 * the back-pressure), hashing them as they pass (in a worker, media-hash.ts) and counting
 * them against a limit; place() then moves it under its hash (or drops it: the same bytes
 * are there already). place() is synchronous on purpose: the caller commits its row in
 * the same turn of the event loop, and the collector deletes a blob's row and unlinks its
 * file in one turn too (core/media-gc.ts), so the two can never interleave between "the
 * file is there" and "a row names it".
 *
 * When the bytes are flushed depends on the caller (StageOptions.flush): an upload's are
 * flushed behind its answer, and whatever names them for good waits for that (settle();
 * media-flush.ts says why a killed process loses nothing by it); other bytes (a bot's
 * avatar sent as data, an import) are flushed before place() returns.
 *
 * A failed write (a full disk, an I/O error, a body over its limit, a broken stream)
 * leaves nothing: the temporary file goes, and the caller gets one of the errors of
 * media-errors.ts.
 *
 * Several nodes may share the directory (`--media-dir` on NFS or the like; docs/scaling.md):
 * each writes under a random temporary name and renames, so two nodes writing the same
 * bytes at once leave one whole file and nobody ever sees part of one; the row locks of
 * the shared database order an upload against the collector (core/media-gc.ts).
 */
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsync as fsyncFd, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FullDiskNote, MediaDigestMismatch, MediaSourceFailed, MediaTooLarge, mediaError } from "./media-errors";
import { Flushes } from "./media-flush";
import { Hasher, type Digest } from "./media-hash";

export { MediaDamaged, MediaDigestMismatch, MediaSourceFailed, MediaTooLarge, MediaWriteFailed } from "./media-errors";

/** What stage() takes: a request's body stream, any async iterable of chunks, or bytes already in memory. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array;

/** Bytes written to a temporary file (and flushed, unless staged to be flushed behind), not yet under their hash. */
export interface Staged {
  readonly sha256: string;
  readonly size: number;
  /** The first bytes (at most `headBytes`), kept while streaming for sniffing. */
  readonly head: Uint8Array;
  /** Up to `length` bytes from the start of the staged file (a JPEG's size may sit past the head). */
  read(length: number): Promise<Uint8Array>;
  /**
   * Move the bytes under their hash (or drop them when the same bytes are there).
   * Synchronous. Staged with `flush: "now"`, durable when it returns; with "behind", the
   * flush starts now, and settle() waits for it.
   */
  place(): void;
  /** Forget the staged bytes (nothing will name them). */
  discard(): void;
}

export interface StageOptions {
  /** The most bytes accepted; one more and the write stops with MediaTooLarge. */
  limit: number;
  /** The SHA-256 the bytes must have (a restore, an import): otherwise MediaDigestMismatch. */
  expect?: string;
  /** How many of the first bytes to keep for sniffing (default 64 KiB). */
  headBytes?: number;
  /** "now" (the default): flushed before place() returns. "behind": flushed after it, settle() waits (an upload answered before the disk's flush). */
  flush?: "now" | "behind";
}

export interface MediaStore {
  /** Stream bytes into a temporary file; see the file's comment. */
  stage(source: ByteSource, opts: StageOptions): Promise<Staged>;
  /** The stored bytes of a hash, as a Blob served without copying (Bun.file), or null. */
  open(sha256: string): Blob | null;
  has(sha256: string): boolean;
  /** Whether a blob's file is known flushed and whole (this process flushed or checked that very file). */
  settled(sha256: string): boolean;
  /**
   * Resolves once it is: its flush awaited, or, for a file this process did not flush,
   * flushed and checked against its hash now. Torn or gone: MediaDamaged (the torn file removed).
   */
  settle(sha256: string): Promise<void>;
  /** Remove a blob's file (the collector, after the row that named it is gone). Synchronous. */
  unlink(sha256: string): void;
  /** Every stored blob file and when it was written. */
  list(): AsyncIterable<{ sha256: string; mtimeMs: number }>;
  /**
   * Remove temporary files last written before `before` (ms since the epoch); answers how
   * many. Files this store is staging are never among them, whatever their time.
   */
  cleanTemp(before: number): Promise<number>;
  /** Files and bytes under the blobs directory. */
  usage(): Promise<{ files: number; bytes: number }>;
  /** What works in a degraded way, for /readyz: a disk that refused the last upload for lack of space. */
  degraded?(): string[];
  /** Close; a temporary store (`:memory:` apps) removes its directory. */
  close(): void;
  /** A directory other nodes may write to at once (`--media-dir`): its temporary files are not all this process's. */
  readonly shared?: boolean;
}

const HEAD = 64 * 1024;
/**
 * What a staged file's sink holds before it writes. Bun's FileSink copies each chunk in
 * and writes natively (synchronously, for a regular file), where awaiting node:fs's
 * write for every 64 KiB chunk of a request body cost a 10 MiB upload about half its
 * speed (scripts/bench/media.ts). Memory stays bounded: at most this much per upload.
 */
const SINK_BUFFER = 1024 * 1024;

type FileSink = ReturnType<ReturnType<typeof Bun.file>["writer"]>;
const SHA256 = /^[0-9a-f]{64}$/;

export class DiskMediaStore implements MediaStore {
  readonly root: string;
  readonly blobsDir: string;
  /** Hashes files' bytes (in a worker unless `hashWorker` is off: media-hash.ts). */
  readonly hasher: Hasher;
  private readonly tmp: string;
  private readonly temporary: boolean;
  private readonly flushes: Flushes;
  /**
   * Temporary files this store is writing or holds staged (until placed or discarded).
   * The server's start removes every temporary file a stopped process left, and it reads
   * the directory while the first uploads may already be staging: those are not left over.
   */
  private readonly staging = new Set<string>();

  private made = false;

  /**
   * `root` null: a temporary directory, removed on close (an app on `:memory:`). The
   * directories are made on the first write, so the many apps that never store a file
   * (tests, operator commands) leave nothing behind. `hashWorker`: the fast path of
   * config/fast-paths.ts (off: the event loop hashes).
   */
  constructor(
    root: string | null,
    readonly shared = false,
    hashWorker = true,
  ) {
    this.temporary = root === null;
    this.root = root ?? join(tmpdir(), `parley-media-${randomUUID()}`);
    this.blobsDir = join(this.root, "blobs");
    this.tmp = join(this.root, "tmp");
    this.hasher = new Hasher({ worker: hashWorker });
    this.flushes = new Flushes({
      blobsDir: this.blobsDir,
      hasher: this.hasher,
      pathOf: (sha256) => this.pathOf(sha256),
      fsync: (fh) => this.fsync(fh),
    });
  }

  private ensure(): void {
    if (this.made) return;
    // A temporary root is made here, private to this process (an existing one is refused).
    if (this.temporary && !existsSync(this.root)) mkdirSync(this.root, { mode: 0o700 });
    mkdirSync(this.blobsDir, { recursive: true });
    mkdirSync(this.tmp, { recursive: true });
    this.made = true;
  }

  /** Where a hash's bytes live: two levels of fan-out keep directories small. */
  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return join(this.blobsDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  /** Uploads refused for lack of space, for /readyz (media-errors.ts). */
  private readonly diskFull = new FullDiskNote();

  degraded(): string[] {
    return this.diskFull.notices();
  }

  async stage(source: ByteSource, opts: StageOptions): Promise<Staged> {
    try {
      this.ensure();
    } catch (e) {
      throw this.diskFull.saw(mediaError(e));
    }
    const path = join(this.tmp, randomUUID());
    this.staging.add(path);
    const headBytes = opts.headBytes ?? HEAD;
    const head = new Uint8Array(headBytes);
    const now = (opts.flush ?? "now") === "now";
    // A request's body chunks are the store's once read; a caller's bytes or iterable may be reused by it.
    const owned = source instanceof ReadableStream;
    let headLength = 0;
    let size = 0;
    let fd: number | null = null;
    let sink: FileSink | null = null;
    let digest: Digest | null = null;
    try {
      digest = await this.hasher.start();
      // Opened and closed synchronously: a new file's open is microseconds, where the thread
      // pool's round trip cost an upload 1 to 3 ms on a busy machine (scripts/bench/media.ts).
      fd = openSync(path, "wx", 0o600);
      sink = this.sinkFor(fd);
      for await (const chunk of chunksOf(source)) {
        size += chunk.byteLength;
        if (size > opts.limit) throw new MediaTooLarge(opts.limit);
        if (headLength < headBytes) {
          const n = Math.min(headBytes - headLength, chunk.byteLength);
          head.set(chunk.subarray(0, n), headLength);
          headLength += n;
        }
        await this.write(sink, chunk);
        // Hashed once written (the sink copied it): the worker may take the chunk's buffer.
        const behind = digest.update(chunk, owned);
        if (behind) await behind;
      }
      await this.written(sink);
      sink = null;
      if (now) await this.fsync({ fd });
      closeSync(fd);
      fd = null;
      const sha256 = await digest.digest();
      if (opts.expect !== undefined && opts.expect !== sha256) throw new MediaDigestMismatch(opts.expect, sha256);
      this.diskFull.room();
      return this.staged(path, sha256, size, head.slice(0, headLength), now);
    } catch (e) {
      digest?.abort();
      // Ended before its descriptor closes: bytes it still held must never reach whatever file takes the number next.
      if (sink) await this.abandon(sink);
      if (fd !== null) closeQuietly(fd);
      await rm(path, { force: true }).catch(() => {});
      this.staging.delete(path);
      throw this.diskFull.saw(mediaError(e));
    }
  }

  /** Flush a file's bytes to the disk. A test's disk overrides it (to hold a flush, or count them). */
  protected fsync(file: { fd: number }): Promise<void> {
    return new Promise((resolve, reject) => fsyncFd(file.fd, (e) => (e ? reject(e) : resolve())));
  }

  /** The sink a staged file's bytes go through. A test's full disk overrides it. */
  protected sinkFor(fd: number): FileSink {
    return Bun.file(fd).writer({ highWaterMark: SINK_BUFFER });
  }

  /**
   * One chunk into the file's sink, whole: copied into its buffer, written once the buffer
   * passes SINK_BUFFER. A failed write (a full disk) answers a rejected promise rather
   * than throwing.
   */
  private async write(sink: FileSink, chunk: Uint8Array): Promise<void> {
    const wrote = sink.write(chunk);
    if (wrote instanceof Promise) await wrote;
  }

  /** The sink's last bytes out to the file (it keeps the descriptor open: the caller closes it). */
  private async written(sink: FileSink): Promise<void> {
    const flushed = sink.flush();
    if (flushed instanceof Promise) await flushed;
    const ended = sink.end();
    if (ended instanceof Promise) await ended;
  }

  /** A sink given up (a failed write, a body over its limit): ended, its failure ignored (the file goes). */
  private async abandon(sink: FileSink): Promise<void> {
    try {
      const ended = sink.end();
      if (ended instanceof Promise) await ended;
    } catch {
      // The write has failed already, or fails again on the same full disk.
    }
  }

  private staged(path: string, sha256: string, size: number, head: Uint8Array, now: boolean): Staged {
    let done = false;
    return {
      sha256,
      size,
      head,
      read: async (length) => {
        const fh = await open(path, "r");
        try {
          const buf = new Uint8Array(Math.min(length, size));
          const { bytesRead } = await fh.read(buf, 0, buf.byteLength, 0);
          return buf.subarray(0, bytesRead);
        } finally {
          await fh.close();
        }
      },
      place: () => {
        if (done) return;
        done = true;
        this.staging.delete(path);
        try {
          if (now) this.flushes.placeNow(path, sha256);
          else this.flushes.placeBehind(path, sha256);
        } catch (e) {
          rmSync(path, { force: true });
          throw mediaError(e);
        }
      },
      discard: () => {
        if (done) return;
        done = true;
        this.staging.delete(path);
        rmSync(path, { force: true });
      },
    };
  }

  settled(sha256: string): boolean {
    return this.flushes.settled(sha256);
  }

  async settle(sha256: string): Promise<void> {
    try {
      await this.flushes.settle(sha256);
    } catch (e) {
      throw mediaError(e);
    }
  }

  open(sha256: string): Blob | null {
    const path = this.pathOf(sha256);
    return existsSync(path) ? Bun.file(path) : null;
  }

  has(sha256: string): boolean {
    return existsSync(this.pathOf(sha256));
  }

  unlink(sha256: string): void {
    this.flushes.forget(sha256);
    rmSync(this.pathOf(sha256), { force: true });
  }

  async *list(): AsyncIterable<{ sha256: string; mtimeMs: number }> {
    for (const a of await readdir(this.blobsDir).catch(() => [] as string[])) {
      for (const b of await readdir(join(this.blobsDir, a)).catch(() => [] as string[])) {
        for (const name of await readdir(join(this.blobsDir, a, b)).catch(() => [] as string[])) {
          if (!SHA256.test(name)) continue;
          const st = await stat(join(this.blobsDir, a, b, name)).catch(() => null);
          if (st?.isFile()) yield { sha256: name, mtimeMs: st.mtimeMs };
        }
      }
    }
  }

  async cleanTemp(before: number): Promise<number> {
    let n = 0;
    for (const name of await readdir(this.tmp).catch(() => [] as string[])) {
      const p = join(this.tmp, name);
      const st = await stat(p).catch(() => null);
      if (st && st.mtimeMs < before && !this.staging.has(p)) {
        await rm(p, { force: true, recursive: true });
        n++;
      }
    }
    return n;
  }

  async usage(): Promise<{ files: number; bytes: number }> {
    let files = 0;
    let bytes = 0;
    for await (const b of this.list()) {
      files++;
      bytes += statSync(this.pathOf(b.sha256), { throwIfNoEntry: false })?.size ?? 0;
    }
    return { files, bytes };
  }

  close(): void {
    this.hasher.close();
    if (this.temporary) rmSync(this.root, { recursive: true, force: true });
  }
}

/** Chunks of any source, as Uint8Array. */
async function* chunksOf(source: ByteSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>)
      yield typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
  } catch (e) {
    throw new MediaSourceFailed(e);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already failed: the write's own error is the one reported.
  }
}
