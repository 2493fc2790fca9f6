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
 * An upload can go further (receive()): its bytes are written without being hashed,
 * natively when their length is declared (Bun writes a request's body to the file without
 * handing a chunk to JavaScript), and moved under its slot's name (`tmp/received-<slot>`)
 * as the slot's row is committed, so the upload is answered as soon as they are written;
 * stageReceived() hashes them behind that answer and gives them to place() as staged
 * bytes (core/media-place.ts). Hashing
 * 10 MiB costs a core 6 to 9 ms, as long as the write itself, and on two shared cores it
 * could not run beside the receiving without slowing it (scripts/bench/media.ts).
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
import { closeSync, existsSync, fsync as fsyncFd, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FullDiskNote, MediaDamaged, MediaDigestMismatch, MediaSourceFailed, mediaError } from "./media-errors";
import { Flushes } from "./media-flush";
import { Hasher, type Digest } from "./media-hash";
import { type ByteSource, closeQuietly, type FileSink, readStart, readStartSync, writeChunks } from "./media-write";
import type { MediaStore, ReceiveOptions, Received, Staged, StageOptions } from "./media-api";

export { MediaDamaged, MediaDigestMismatch, MediaSourceFailed, MediaTooLarge, MediaWriteFailed } from "./media-errors";

export type { ByteSource } from "./media-write";
export type { MediaStore, ReceiveOptions, Received, Staged, StageOptions } from "./media-api";

const HEAD = 64 * 1024;
/**
 * What a staged file's sink holds before it writes. Bun's FileSink copies each chunk in
 * and writes natively (synchronously, for a regular file), where awaiting node:fs's
 * write for every 64 KiB chunk of a request body cost a 10 MiB upload about half its
 * speed (scripts/bench/media.ts). Memory stays bounded: at most this much per upload.
 */
const SINK_BUFFER = 1024 * 1024;

const SHA256 = /^[0-9a-f]{64}$/;
/** The temporary name of bytes received for a slot: `received-<slot id>`. */
const RECEIVED = "received-";

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
    this.begin();
    const path = join(this.tmp, randomUUID());
    this.staging.add(path);
    const now = (opts.flush ?? "now") === "now";
    // A request's body chunks are the store's once read; a caller's bytes or iterable may be reused by it.
    const owned = source instanceof ReadableStream;
    let fd: number | null = null;
    let digest: Digest | null = null;
    try {
      digest = await this.hasher.start();
      // Opened and closed synchronously: a new file's open is microseconds, where the thread
      // pool's round trip cost an upload 1 to 3 ms on a busy machine (scripts/bench/media.ts).
      fd = openSync(path, "wx", 0o600);
      const d = digest;
      // Hashed once written (the sink copied it): the worker may take the chunk's buffer.
      const { size, head } = await writeChunks(this.sinkFor(fd), source, opts.limit, opts.headBytes ?? HEAD, (chunk) =>
        d.update(chunk, owned),
      );
      if (now) await this.fsync({ fd });
      closeSync(fd);
      fd = null;
      const sha256 = await digest.digest();
      if (opts.expect !== undefined && opts.expect !== sha256) throw new MediaDigestMismatch(opts.expect, sha256);
      this.diskFull.room();
      return this.staged(path, sha256, size, head, now);
    } catch (e) {
      digest?.abort();
      throw await this.failed(e, path, fd);
    }
  }

  async receive(name: string, source: ByteSource, opts: ReceiveOptions): Promise<Received> {
    this.begin();
    const final = this.receivedPath(name);
    // Written under a name of its own, moved under the slot's by keep(): a second body for
    // the slot (another node's), or one a crash left half-written, never meets this one.
    const path = join(this.tmp, randomUUID());
    this.staging.add(path);
    let fd: number | null = null;
    try {
      fd = openSync(path, "wx", 0o600);
      let size: number;
      let head: Uint8Array | null = null;
      if (source instanceof ReadableStream && opts.length !== null && opts.length <= opts.limit) {
        size = await this.writeNative(fd, source);
        if (size !== opts.length) throw new MediaSourceFailed(new Error(`${size} of the ${opts.length} bytes declared arrived`));
      } else ({ size, head } = await writeChunks(this.sinkFor(fd), source, opts.limit, HEAD, null));
      closeSync(fd);
      fd = null;
      this.diskFull.room();
      let done = false;
      let first = head;
      return {
        size,
        // Read back only when asked (an image's slot is judged before the answer; a file's bytes behind it).
        get head() {
          first ??= readStartSync(path, HEAD);
          return first;
        },
        read: (length) => readStart(path, length),
        keep: () => {
          if (done) return;
          done = true;
          try {
            renameSync(path, final);
          } catch (e) {
            rmSync(path, { force: true });
            throw mediaError(e);
          } finally {
            this.staging.delete(path);
          }
        },
        discard: () => {
          if (done) return;
          done = true;
          this.staging.delete(path);
          rmSync(path, { force: true });
        },
      };
    } catch (e) {
      throw await this.failed(e, path, fd);
    }
  }

  async stageReceived(name: string): Promise<Staged> {
    const path = this.receivedPath(name);
    this.staging.add(path);
    try {
      const fh = await open(path, "r");
      try {
        const size = (await fh.stat()).size;
        const sha256 = await this.hasher.ofFile(fh);
        return this.staged(path, sha256, size, await readStart(path, HEAD), false);
      } finally {
        await fh.close();
      }
    } catch (e) {
      this.staging.delete(path);
      if ((e as { code?: string })?.code === "ENOENT") throw new MediaDamaged(name, "missing");
      throw mediaError(e);
    }
  }

  dropReceived(name: string): void {
    const path = this.receivedPath(name);
    if (!this.staging.has(path)) rmSync(path, { force: true });
  }

  /** Where bytes received for a slot wait to be hashed: a name the start's clean-up can tell from a leftover. */
  private receivedPath(name: string): string {
    if (!/^[0-9A-Za-z_-]{1,64}$/.test(name)) throw new Error(`not a slot's name: ${name}`);
    return join(this.tmp, `${RECEIVED}${name}`);
  }

  /** The directories made, or the write refused as a full disk's. */
  private begin(): void {
    try {
      this.ensure();
    } catch (e) {
      throw this.diskFull.saw(mediaError(e));
    }
  }

  /**
   * A request body of declared length into the file by Bun itself, no chunk through
   * JavaScript (as fast as Bun.write of the request). Answers the bytes written; a client
   * that went away mid-body is MediaSourceFailed, a refusing disk MediaWriteFailed.
   */
  protected async writeNative(fd: number, body: ReadableStream<Uint8Array>): Promise<number> {
    try {
      return await Bun.write(Bun.file(fd), new Response(body));
    } catch (e) {
      throw typeof (e as { code?: unknown })?.code === "string" ? mediaError(e) : new MediaSourceFailed(e);
    }
  }

  /** A write that failed: its file removed, the failure as the store's error (a full disk noted). */
  private async failed(e: unknown, path: string, fd: number | null): Promise<Error> {
    if (fd !== null) closeQuietly(fd);
    await rm(path, { force: true }).catch(() => {});
    this.staging.delete(path);
    return this.diskFull.saw(mediaError(e));
  }

  /** Flush a file's bytes to the disk. A test's disk overrides it (to hold a flush, or count them). */
  protected fsync(file: { fd: number }): Promise<void> {
    return new Promise((resolve, reject) => fsyncFd(file.fd, (e) => (e ? reject(e) : resolve())));
  }

  /** The sink a staged file's bytes go through. A test's full disk overrides it. */
  protected sinkFor(fd: number): FileSink {
    return Bun.file(fd).writer({ highWaterMark: SINK_BUFFER });
  }

  private staged(path: string, sha256: string, size: number, head: Uint8Array, now: boolean): Staged {
    let done = false;
    return {
      sha256,
      size,
      head,
      read: (length) => readStart(path, Math.min(length, size)),
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

  async cleanTemp(before: number, keep?: (name: string) => boolean): Promise<number> {
    let n = 0;
    for (const name of await readdir(this.tmp).catch(() => [] as string[])) {
      if (name.startsWith(RECEIVED) && keep?.(name.slice(RECEIVED.length))) continue;
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
