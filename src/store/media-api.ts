/**
 * What the media store (store/media.ts) offers the core: staging bytes under their hash,
 * receiving an upload's bytes to be hashed later, opening, flushing and removing them.
 * The core holds a MediaStore, never the disk's class; a test's disk extends that class.
 */
import type { ByteSource } from "./media-write";

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

/** An upload's bytes written, not hashed yet (receive()): kept under the slot's name, to be placed later through stageReceived(). */
export interface Received {
  readonly size: number;
  /** The first bytes (at most 64 KiB), for sniffing. */
  readonly head: Uint8Array;
  /** Up to `length` bytes from the start of the file (before keep()). */
  read(length: number): Promise<Uint8Array>;
  /** Move the bytes under the slot's name (replacing any a crash left there). Synchronous: the caller commits the slot's row in the same turn. */
  keep(): void;
  /** Forget the bytes (the slot is gone, or refused them). */
  discard(): void;
}

export interface ReceiveOptions {
  /** The most bytes accepted; one more and the write stops with MediaTooLarge. */
  limit: number;
  /** The body's declared length (Content-Length), within `limit`: the bytes are then written natively, and must be exactly that many. */
  length: number | null;
}

export interface MediaStore {
  /** Stream bytes into a temporary file; see the file's comment. */
  stage(source: ByteSource, opts: StageOptions): Promise<Staged>;
  /**
   * An upload's bytes written, to be kept under `name` (a slot's id), without hashing
   * them, so the upload can be answered before they are hashed; see store/media.ts.
   */
  receive(name: string, source: ByteSource, opts: ReceiveOptions): Promise<Received>;
  /** The bytes received under `name`, hashed now and ready to place (flushed behind). Gone: MediaDamaged "missing". */
  stageReceived(name: string): Promise<Staged>;
  /** Remove the bytes received under `name`, if any (their slot went). */
  dropReceived(name: string): void;
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
   * many. Files this store is staging are never among them, whatever their time, nor
   * bytes received under a name `keep` answers true for (a slot still waiting for them).
   */
  cleanTemp(before: number, keep?: (name: string) => boolean): Promise<number>;
  /** Files and bytes under the blobs directory. */
  usage(): Promise<{ files: number; bytes: number }>;
  /** What works in a degraded way, for /readyz: a disk that refused the last upload for lack of space. */
  degraded?(): string[];
  /** Close; a temporary store (`:memory:` apps) removes its directory. */
  close(): void;
  /** A directory other nodes may write to at once (`--media-dir`): its temporary files are not all this process's. */
  readonly shared?: boolean;
}
