/**
 * A gateway session outlives its socket: it keeps numbering frames and recording them
 * in its replay ring while closed, until it expires (spec 3.2). The socket side
 * (Conn) holds the per-connection deadlines.
 */
import type { ServerWebSocket } from "bun";
import type { TimerHandle } from "../core/clock";
import { dispatchFrame, REPLAY_RING } from "./protocol";

export interface Conn {
  id: number;
  ws: ServerWebSocket<{ connId: number; conn?: Conn }>;
  state: "awaiting" | "active" | "closed";
  session: Session | null;
  /** Last heartbeat (or HELLO): the zombie deadline counts from here. */
  lastBeat: number;
  firstFrameTimer: TimerHandle | null;
  zombieTimer: TimerHandle | null;
  /** Frames received while awaiting IDENTIFY or RESUME (bounded: MAX_FRAMES_BEFORE_IDENTIFY). */
  framesBeforeIdentify: number;
}

export interface SessionOwner {
  appId: string;
  appFlake: string;
  botUserId: string;
}

/** Called for every frame a session records (the harness event log). */
export type FrameSink = (s: Session, frame: string, t: string, seq: number) => void;

/** A live session's fan-out group; cohorts.ts owns the type behind it. */
export interface CohortSlot {
  readonly topic: string;
}

export class Session {
  seq = 0;
  conn: Conn | null = null;
  /** Last heartbeat or dispatched frame: the 5-minute expiry counts from here. */
  lastActivity: number;
  expiryTimer: TimerHandle | null = null;
  /** The fan-out cohort while live (cohorts.ts); null while closed. */
  cohort: CohortSlot | null = null;
  /** Scratch mark of the fan-out in progress. */
  mark = 0;
  /** This session as a viewer of content (intents.ts), made on first use. */
  viewer: { botUserId: string; intents: number } | null = null;
  /**
   * Event names and payloads by seq % REPLAY_RING (contiguous numbering makes the slot
   * the index). Payloads, not frames: a payload string is shared by every session that
   * got the same view, so a ring costs references, not copies; frames are rebuilt on replay.
   */
  private readonly ringT: string[] = [];
  private readonly ringD: string[] = [];

  constructor(
    readonly id: string,
    readonly owner: SessionOwner,
    /** IDENTIFY intents: what this session's dispatches are filtered by. */
    readonly intents: number,
    now: number,
  ) {
    this.lastActivity = now;
  }

  get live(): boolean {
    return this.conn !== null && this.conn.state === "active";
  }

  /**
   * Record frame `s` (always this session's seq + 1: numbering is contiguous) in the
   * ring. Sending is the caller's: live sessions are sent to by cohort.
   */
  record(t: string, d: string, s: number, now: number): void {
    this.seq = s;
    this.ringT[s % REPLAY_RING] = t;
    this.ringD[s % REPLAY_RING] = d;
    this.lastActivity = now;
  }

  /**
   * Frames after `after`, oldest first. A seq older than the ring gets nothing (spec 3.2:
   * the resume still succeeds), as does a seq from the future.
   */
  replayAfter(after: number): string[] {
    const oldest = Math.max(1, this.seq - REPLAY_RING + 1);
    if (after < oldest - 1 || after >= this.seq) return [];
    const out: string[] = [];
    for (let s = after + 1; s <= this.seq; s++) out.push(dispatchFrame(this.ringT[s % REPLAY_RING], s, this.ringD[s % REPLAY_RING]));
    return out;
  }
}
