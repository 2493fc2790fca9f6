/**
 * Each person's live event stream: the events meant for them, in order, shared by all of
 * their open connections (tabs, devices), with a ring of recent frames so a reconnecting
 * client resumes from its last event without losing any. Event numbers are the server's
 * (one increasing sequence), so the frame of an event is the same for everyone who gets
 * it and can be published once to a server's topic; a person sees a subset, with gaps.
 * A stream outlives its connections by STREAM_TTL_MS, on the shared clock.
 */
import type { Clock, TimerHandle as Timer } from "../core";

/** Frames kept for a resume at least; a client further behind starts over (ready with resumed false). */
export const RING_SIZE = 1000;
/** How long a stream with no connection is kept for a resume. */
export const STREAM_TTL_MS = 2 * 60 * 1000;

/** The socket side of a live connection, as the streams see it. */
export interface LiveSocket {
  sendText(frame: string): unknown;
  close(code?: number, reason?: string): void;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
}

export interface LiveConn {
  id: number;
  ws: LiveSocket;
  state: "awaiting" | "open" | "closed";
  userId: string | null;
  /** The person's session it said hello with: the connection closes when that session ends. */
  sessionId: string | null;
  stream: Stream | null;
  lastFrame: number;
  timer: Timer | null;
}

/** The frame of one event, as every recipient of that view gets it. */
export function eventFrame(seq: number, type: string, data: string): string {
  return `{"op":"event","seq":${seq},"type":"${type}","data":${data}}`;
}

export class Stream {
  readonly conns = new Set<LiveConn>();
  expiry: Timer | null = null;
  private seqs: number[] = [];
  private frames: string[] = [];
  /** Every event of this person numbered up to here is in the ring (or was never theirs). */
  private covered: number;

  constructor(
    readonly id: string,
    readonly userId: string,
    /** The server's sequence when the stream began: nothing before it can be resumed. */
    readonly start: number,
  ) {
    this.covered = start;
  }

  /** Keep an event for resumes (its frame went out to the connections some other way). */
  record(seq: number, frame: string): void {
    this.seqs.push(seq);
    this.frames.push(frame);
    if (this.seqs.length > RING_SIZE + (RING_SIZE >> 2)) {
      // Drop in chunks (one splice per RING_SIZE/4 events, not a shift per event), keeping RING_SIZE.
      const drop = this.seqs.length - RING_SIZE;
      this.covered = this.seqs[drop - 1];
      this.seqs.splice(0, drop);
      this.frames.splice(0, drop);
    }
  }

  /** Keep an event and send it on every open connection of this person. */
  push(seq: number, frame: string): void {
    this.record(seq, frame);
    for (const c of this.conns) c.ws.sendText(frame);
  }

  /** The frames after `seq`, or null when the ring may no longer hold all of them. */
  after(seq: number, current: number): string[] | null {
    if (!Number.isInteger(seq) || seq < this.covered || seq > current) return null;
    let i = this.seqs.length;
    while (i > 0 && this.seqs[i - 1] > seq) i--;
    return this.frames.slice(i);
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

  /** The person's stream, started at `seq` if they have none. */
  open(userId: string, seq: number): Stream {
    let s = this.byUser.get(userId);
    if (!s) this.byUser.set(userId, (s = new Stream(crypto.randomUUID(), userId, seq)));
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
