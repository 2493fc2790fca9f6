/**
 * What crosses between the bridge (the server's thread, blocked in Atomics.wait) and its
 * worker (running Bun.sql): one request, then one response, as JSON in a growable
 * SharedArrayBuffer. No postMessage on the way: the blocked thread could not take it,
 * and a message costs more than a store and a notify.
 *
 * The first 16 bytes are the control words: the state (idle, request, response) and the
 * length of what follows.
 */
import type { ErrorInfo } from "./errors";

export const STATE = 0;
export const LENGTH = 1;
export const IDLE = 0;
export const REQUEST = 1;
export const RESPONSE = 2;
export const HEADER_BYTES = 16;
export const INITIAL_BYTES = 64 * 1024;
/** A page of 1,000 members or messages is well under this; past it, the statement fails. */
export const MAX_BYTES = 256 * 1024 * 1024;

/** How a statement's answer is wanted. */
export type Mode = "get" | "all" | "values" | "run" | "exec";

/** A parameter as it crosses: text (Postgres types it from where it stands), null, or bytes. */
export type Param = string | null | { bytes: string };

export interface StatementRequest {
  sql: string;
  params: Param[];
  mode: Mode;
  /** Every integer column as a BigInt (bun:sqlite's safeIntegers). */
  safe?: boolean;
}

export type Request = { op: "run"; statements: StatementRequest[] } | { op: "close" };

/** One statement's answer: rows (columns, then each row's values) or the rows it changed. */
export interface StatementResult {
  changes: number;
  columns?: string[];
  rows?: unknown[][];
  /** Columns that hold integers sent as text (too large for a number, or a safeIntegers statement). */
  big?: number[];
  /** Columns that hold bytes sent as base64. */
  bytes?: number[];
}

export interface Response {
  /** The answers of the statements that ran, in order; on an error, those before it. */
  results: StatementResult[];
  /** The first statement that failed (the ones after it did not run). */
  error?: ErrorInfo;
  /** Whether the connection is inside a transaction once they ran. */
  inTransaction: boolean;
}

/** The worker's first answer, once it is connected (or could not connect). */
export interface Ready {
  ready: true;
  error?: ErrorInfo;
}

/** Both ends' view of one shared buffer. */
export class Channel {
  readonly ctrl: Int32Array;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(readonly sab: SharedArrayBuffer) {
    this.ctrl = new Int32Array(sab, 0, HEADER_BYTES / 4);
  }

  static create(): Channel {
    return new Channel(new SharedArrayBuffer(INITIAL_BYTES, { maxByteLength: MAX_BYTES }));
  }

  /** Write a message and set the state; grows the buffer when it does not fit. */
  write(message: unknown, state: number): void {
    const text = JSON.stringify(message);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    let body = new Uint8Array(this.sab, HEADER_BYTES);
    let { read, written } = this.encoder.encodeInto(text, body);
    if (read < text.length) {
      const need = HEADER_BYTES + text.length * 3;
      if (need > MAX_BYTES) throw new Error(`a message of ${text.length} characters is over the bridge's ${MAX_BYTES} bytes`);
      this.sab.grow(Math.min(MAX_BYTES, Math.max(need, this.sab.byteLength * 2)));
      body = new Uint8Array(this.sab, HEADER_BYTES);
      ({ written } = this.encoder.encodeInto(text, body));
    }
    Atomics.store(this.ctrl, LENGTH, written);
    Atomics.store(this.ctrl, STATE, state);
    Atomics.notify(this.ctrl, STATE);
  }

  read<T>(): T {
    const n = Atomics.load(this.ctrl, LENGTH);
    return JSON.parse(this.decoder.decode(new Uint8Array(this.sab, HEADER_BYTES, n))) as T;
  }
}
