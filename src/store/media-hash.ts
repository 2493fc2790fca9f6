/**
 * Files' SHA-256 off the event loop (issue 31). Hashing 10 MiB takes this runtime about
 * 15 ms of one core; on the event loop, every other person's request and every gateway
 * frame would wait that long. So an app's media store keeps one worker thread, started
 * when it first hashes, that hashes every file under way at once, each by its own id:
 * the store hands it each chunk once the chunk is written (the chunk's buffer itself when
 * the chunk is the whole of it and the store's to give, a copy otherwise), and it answers
 * the digest at the end, so the hashing runs beside the receiving and the writing.
 *
 * The worker's script is an inline source started from a Blob URL, so the compiled
 * executable needs no second entry point for it (scripts/build.ts). It never keeps a
 * process alive on its own (unref), yet is held (ref) while a digest is awaited, or a
 * command waiting on one alone would end before the answer. Chunks in its queue are
 * bounded (AHEAD), so a slow worker holds the uploads back rather than their bytes in
 * memory. If it cannot start, or the `hashWorker` switch is off (config/fast-paths.ts),
 * the event loop hashes, as before; a worker that stops mid-way fails the files it was
 * hashing (the store then keeps none of them) and the next file starts another.
 */
import type { FileHandle } from "node:fs/promises";
import { MediaWriteFailed } from "./media-errors";

/** The worker: a hasher per id; acknowledges each chunk's bytes, answers the digest. */
const WORKER_SOURCE = `
const hashers = new Map();
self.onmessage = ({ data: m }) => {
  if (m.chunk !== undefined) {
    let h = hashers.get(m.id);
    if (!h) hashers.set(m.id, (h = new Bun.CryptoHasher("sha256")));
    h.update(new Uint8Array(m.chunk));
    self.postMessage({ id: m.id, n: m.chunk.byteLength });
  } else if (m.end) {
    const h = hashers.get(m.id) ?? new Bun.CryptoHasher("sha256");
    hashers.delete(m.id);
    self.postMessage({ id: m.id, hex: h.digest("hex") });
  } else if (m.abort) hashers.delete(m.id);
};
self.postMessage({ ready: true });
`;

/** Bytes handed to the worker and not yet hashed, at most (all files together). */
const AHEAD = 16 * 1024 * 1024;
/** How long a new worker may take to say it is ready before the event loop hashes instead. */
const START_MS = 10_000;
/** Read this much of a file at a time to hash it. */
const READ = 1024 * 1024;

/** One file's digest under way. */
export interface Digest {
  /** Bytes in order. `owned`: the chunk is the hasher's to take (its buffer may be handed to the worker). */
  update(chunk: Uint8Array, owned: boolean): Promise<void> | void;
  /** The hex SHA-256 of every byte given. */
  digest(): Promise<string>;
  /** Forget it (a failed write). */
  abort(): void;
}

/** Bun's workers can be let go of and held again (the DOM's type does not say so). */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Pending {
  resolve(hex: string): void;
  reject(e: Error): void;
}

export class Hasher {
  /** Digests answered by the worker and by the event loop (tests, and the proof the worker is used). */
  readonly counts = { worker: 0, inline: 0 };

  private worker: BunWorker | null = null;
  private starting: Promise<BunWorker | null> | null = null;
  /** The worker could not start: the event loop hashes from now on. */
  private broken = false;
  private closed = false;
  private nextId = 1;
  /** Digests begun in the worker and not yet answered; while any is, the worker holds the process. */
  private readonly open = new Map<number, Pending | null>();
  private ahead = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly opts: { worker: boolean; source?: string }) {}

  /** A digest, in the worker when it runs (started now if it is the first). */
  async start(): Promise<Digest> {
    const worker = this.opts.worker && !this.broken && !this.closed ? await this.ready() : null;
    return worker ? this.inWorker(worker) : this.inline();
  }

  /** The SHA-256 of a whole file, read from its start. */
  async ofFile(fh: FileHandle): Promise<string> {
    const d = await this.start();
    try {
      for (let at = 0; ; ) {
        const buf = new Uint8Array(READ);
        const { bytesRead } = await fh.read(buf, 0, READ, at);
        if (bytesRead === 0) break;
        at += bytesRead;
        await d.update(bytesRead === READ ? buf : buf.subarray(0, bytesRead), true);
      }
      return await d.digest();
    } catch (e) {
      d.abort();
      throw e;
    }
  }

  /** Stop the worker (the app closes); digests under way fail. */
  close(): void {
    this.closed = true;
    this.stop(new MediaWriteFailed("ECANCELED", "the media store closed while a file was being hashed"));
    this.starting = null;
  }

  private inline(): Digest {
    const h = new Bun.CryptoHasher("sha256");
    return {
      update: (chunk) => void h.update(chunk),
      digest: async () => {
        this.counts.inline++;
        return h.digest("hex");
      },
      abort: () => {},
    };
  }

  private inWorker(worker: BunWorker): Digest {
    const id = this.nextId++;
    if (this.open.size === 0) worker.ref();
    this.open.set(id, null);
    let answer: Promise<string> | null = null;
    return {
      update: (chunk, owned) => {
        if (!this.open.has(id)) throw new MediaWriteFailed("ECANCELED", "the hashing thread stopped");
        // The chunk's own buffer when it is all of it and ours to give; otherwise a copy, which is.
        const buf = owned && chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk.buffer : chunk.slice().buffer;
        worker.postMessage({ id, chunk: buf }, [buf as ArrayBuffer]);
        this.ahead += buf.byteLength;
        if (this.ahead > AHEAD) return new Promise<void>((resolve) => this.waiting.push(resolve));
      },
      digest: () => {
        answer ??= new Promise<string>((resolve, reject) => {
          if (!this.open.has(id)) return reject(new MediaWriteFailed("ECANCELED", "the hashing thread stopped"));
          this.open.set(id, { resolve, reject });
          worker.postMessage({ id, end: true });
        });
        return answer;
      },
      abort: () => {
        if (!this.open.has(id)) return;
        worker.postMessage({ id, abort: true });
        this.done(id);
      },
    };
  }

  /** The running worker, or a new one once it says it is ready; null (for good) when it cannot start. */
  private ready(): Promise<BunWorker | null> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= new Promise<BunWorker | null>((resolve) => {
      let worker: BunWorker;
      try {
        const url = URL.createObjectURL(new Blob([this.opts.source ?? WORKER_SOURCE], { type: "application/javascript" }));
        worker = new Worker(url) as BunWorker;
      } catch {
        this.broken = true;
        return resolve(null);
      }
      // Held while it starts (a digest waits for it), let go of once ready and idle.
      const timer = setTimeout(() => fail(), START_MS);
      timer.unref?.();
      const fail = () => {
        clearTimeout(timer);
        void worker.terminate();
        this.broken = true;
        this.starting = null;
        resolve(null);
      };
      worker.addEventListener("error", (e) => (this.worker === worker ? this.crashed(e) : fail()));
      worker.addEventListener("message", (e: MessageEvent) => {
        const m = e.data;
        if (m?.ready && this.worker !== worker) {
          clearTimeout(timer);
          if (this.closed) {
            void worker.terminate();
            return resolve(null);
          }
          this.worker = worker;
          this.starting = null;
          worker.unref();
          return resolve(worker);
        }
        this.heard(m);
      });
    });
    return this.starting;
  }

  private heard(m: { id: number; n?: number; hex?: string }): void {
    if (m.n !== undefined) {
      this.ahead -= m.n;
      while (this.ahead <= AHEAD && this.waiting.length) this.waiting.shift()!();
      return;
    }
    if (m.hex === undefined) return;
    const p = this.open.get(m.id);
    this.done(m.id);
    if (p) {
      this.counts.worker++;
      p.resolve(m.hex);
    }
  }

  private done(id: number): void {
    this.open.delete(id);
    if (this.open.size === 0) this.worker?.unref();
  }

  /** The worker stopped mid-way: its files fail; the next digest starts another. */
  private crashed(e: Event): void {
    const message = (e as { message?: string }).message || "the hashing thread stopped";
    this.stop(new MediaWriteFailed("EHASH", message));
  }

  private stop(reason: Error): void {
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
    for (const p of this.open.values()) p?.reject(reason);
    this.open.clear();
    this.ahead = 0;
    for (const w of this.waiting.splice(0)) w();
  }
}
