/**
 * Writing a file's bytes for the media store (store/media.ts): a source's chunks through a
 * FileSink with their count held to a limit and the first bytes kept for sniffing, and the
 * small reads and closes around it. Module functions, so the store's class keeps only what
 * a test's disk overrides (the sink, the native write, the flush).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { MediaSourceFailed, MediaTooLarge } from "./media-errors";

/** What stage() and receive() take: a request's body stream, any async iterable of chunks, or bytes already in memory. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array;

export type FileSink = ReturnType<ReturnType<typeof Bun.file>["writer"]>;

/**
 * A source's chunks into a file through its sink, counted against `limit`, the first
 * `headBytes` kept; each chunk handed to `then` once written (the hasher). The sink is
 * ended either way, before the caller closes its descriptor.
 */
export async function writeChunks(
  sink: FileSink,
  source: ByteSource,
  limit: number,
  headBytes: number,
  then: ((chunk: Uint8Array) => Promise<void> | void) | null,
): Promise<{ size: number; head: Uint8Array }> {
  const head = new Uint8Array(headBytes);
  let headLength = 0;
  let size = 0;
  let open: FileSink | null = sink;
  try {
    for await (const chunk of chunksOf(source)) {
      size += chunk.byteLength;
      if (size > limit) throw new MediaTooLarge(limit);
      if (headLength < headBytes) {
        const n = Math.min(headBytes - headLength, chunk.byteLength);
        head.set(chunk.subarray(0, n), headLength);
        headLength += n;
      }
      await write(sink, chunk);
      const behind = then?.(chunk);
      if (behind) await behind;
    }
    await written(sink);
    open = null;
    return { size, head: head.slice(0, headLength) };
  } finally {
    // Ended before its descriptor closes: bytes it still held must never reach whatever file takes the number next.
    if (open) await abandon(open);
  }
}

/**
 * One chunk into the file's sink, whole: copied into its buffer, written once the buffer
 * passes its high-water mark. A failed write (a full disk) answers a rejected promise
 * rather than throwing.
 */
async function write(sink: FileSink, chunk: Uint8Array): Promise<void> {
  const wrote = sink.write(chunk);
  if (wrote instanceof Promise) await wrote;
}

/** The sink's last bytes out to the file (it keeps the descriptor open: the caller closes it). */
async function written(sink: FileSink): Promise<void> {
  const flushed = sink.flush();
  if (flushed instanceof Promise) await flushed;
  const ended = sink.end();
  if (ended instanceof Promise) await ended;
}

/** A sink given up (a failed write, a body over its limit): ended, its failure ignored (the file goes). */
async function abandon(sink: FileSink): Promise<void> {
  try {
    const ended = sink.end();
    if (ended instanceof Promise) await ended;
  } catch {
    // The write has failed already, or fails again on the same full disk.
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

/** Up to `length` bytes from the start of a file. */
export async function readStart(path: string, length: number): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    const buf = new Uint8Array(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The same at once: microseconds from the page cache, where a trip through the thread pool can take a loaded machine a millisecond. */
export function readStartSync(path: string, length: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(length);
    return buf.subarray(0, readSync(fd, buf, 0, length, 0));
  } finally {
    closeSync(fd);
  }
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already failed: the write's own error is the one reported.
  }
}
