/**
 * Each person's live event stream: one numbered sequence shared by all of their open
 * connections (tabs, devices), with a ring of recent frames so a reconnecting client
 * resumes from its last event without losing any. A stream outlives its connections by
 * STREAM_TTL_MS, on the shared clock, and then goes with its ring.
 */
import type { Clock, TimerHandle as Timer } from "../core/clock";

/** Frames kept for a resume at least; a client further behind starts over (ready with resumed false). */
export const RING_SIZE = 1000;
/** How long a stream with no connection is kept for a resume. */
export const STREAM_TTL_MS = 2 * 60 * 1000;

/** The socket side of a live connection, as the streams see it. */
export interface LiveSocket {
  sendText(frame: string): unknown;
  close(code?: number, reason?: string): void;
}

export interface LiveConn {
  id: number;
  ws: LiveSocket;
  state: "awaiting" | "open" | "closed";
  userId: string | null;
  stream: Stream | null;
  lastFrame: number;
  timer: Timer | null;
}

export class Stream {
  seq = 0;
  readonly conns = new Set<LiveConn>();
  expiry: Timer | null = null;
  /** ring[i] holds frame number `first + i`. */
  private ring: string[] = [];
  private first = 1;

  constructor(
    readonly id: string,
    readonly userId: string,
  ) {}

  /** Number one event, keep it for resumes, and send it on every open connection. */
  push(type: string, data: string): void {
    const seq = ++this.seq;
    const frame = `{"op":"event","seq":${seq},"type":"${type}","data":${data}}`;
    this.ring.push(frame);
    if (this.ring.length > RING_SIZE + (RING_SIZE >> 2)) {
      // Drop in chunks (one splice per RING_SIZE/4 events, not a shift per event), keeping RING_SIZE.
      const drop = this.ring.length - RING_SIZE;
      this.ring.splice(0, drop);
      this.first += drop;
    }
    for (const c of this.conns) c.ws.sendText(frame);
  }

  /** The frames after `seq`, or null when the ring no longer holds all of them. */
  after(seq: number): string[] | null {
    if (!Number.isInteger(seq) || seq < 0 || seq > this.seq) return null;
    if (seq + 1 < this.first) return null;
    return this.ring.slice(seq + 1 - this.first);
  }
}

export class Streams {
  private readonly byUser = new Map<string, Stream>();

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.byUser.size;
  }

  of(userId: string): Stream | undefined {
    return this.byUser.get(userId);
  }

  /** The person's stream, started if they have none. */
  open(userId: string): Stream {
    let s = this.byUser.get(userId);
    if (!s) this.byUser.set(userId, (s = new Stream(crypto.randomUUID(), userId)));
    s.expiry?.cancel();
    s.expiry = null;
    return s;
  }

  /** The last connection left: keep the stream for a resume, then forget it. */
  release(s: Stream): void {
    if (s.conns.size) return;
    s.expiry?.cancel();
    s.expiry = this.clock.setTimeout(() => {
      s.expiry = null;
      if (!s.conns.size && this.byUser.get(s.userId) === s) this.byUser.delete(s.userId);
    }, STREAM_TTL_MS);
  }

  clear(): void {
    for (const s of this.byUser.values()) s.expiry?.cancel();
    this.byUser.clear();
  }
}
