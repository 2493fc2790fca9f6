/**
 * A gateway session outlives its socket: it keeps numbering frames and recording them
 * in its replay ring while closed, until it expires (spec 3.2). While live, in a cohort,
 * its frames are recorded once in the cohort's ring and become its own when it leaves.
 * The socket side (Conn) holds the per-connection deadlines.
 */
import type { ServerWebSocket } from "bun";
import type { TimerHandle } from "../core";
import { dispatchFrame, REPLAY_RING } from "./protocol";

export interface Conn {
  id: number;
  ws: ServerWebSocket<{ connId: number; conn?: Conn }>;
  /** `resuming`: a RESUME waits for another node's session (shared-sessions.ts). */
  state: "awaiting" | "resuming" | "active" | "closed";
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

/**
 * The payloads the members of one cohort got for one frame, when they were not all the
 * same (a bot's own message, per-viewer `reactions[].me`, GUILD_CREATE's `joined_at`).
 * A cohort shares intents, and a payload depends on a session only through its bot and
 * its intents (deliveries.ts), so a frame is kept as the payload most members got plus
 * the bots whose sessions got another: one entry per bot that differs, not one per
 * member (a thousand members' Map was 40 KiB a frame, and kept closed sessions alive).
 */
export class Views {
  constructor(
    /** What every member got but those of the bots in `except`. */
    readonly d: string,
    /** Bot user id -> the payload its sessions got. */
    readonly except: ReadonlyMap<string, string> | null,
    /** Per member, should one bot's sessions ever get different payloads of one frame. */
    readonly each: ReadonlyMap<Session, string> | null = null,
  ) {}

  of(s: Session): string {
    if (this.each !== null) return this.each.get(s)!;
    return this.except?.get(s.owner.botUserId) ?? this.d;
  }
}

/**
 * Frames by seq % REPLAY_RING (contiguous numbering makes the slot the index): event
 * names and payloads, not frames. A payload string is shared by everyone who got the
 * same view, so a ring costs references, not copies; frames are rebuilt on replay. A
 * cohort's ring holds `Views` for a frame whose members got different payloads.
 */
export class Ring {
  readonly t: string[] = [];
  readonly d: (string | Views)[] = [];

  set(seq: number, t: string, d: string | Views): void {
    const i = seq % REPLAY_RING;
    this.t[i] = t;
    this.d[i] = d;
  }
}

/** A live session's fan-out group; cohorts.ts owns the type behind it. */
export interface CohortSlot {
  readonly topic: string;
  /** Seq every member has reached. */
  readonly seq: number;
  /** The frames numbered for its members (each since it joined); null when each member records its own (keep()). */
  readonly ring: Ring | null;
  /** When its last frame was numbered. */
  readonly lastAt: number;
}

export class Session {
  conn: Conn | null = null;
  /** Last heartbeat or dispatched frame: the 5-minute expiry counts from here. */
  lastActivity: number;
  expiryTimer: TimerHandle | null = null;
  /** The fan-out cohort while live (cohorts.ts); null while closed. */
  cohort: CohortSlot | null = null;
  /**
   * The seq at which it joined its cohort: the frames after it are in the cohort's ring,
   * recorded once for every member, and become this session's own when it leaves
   * (leaving()). A publish to a thousand sessions then records one entry, not a thousand.
   */
  joinedAt = 0;
  /** Scratch mark of the fan-out in progress. */
  mark = 0;
  /** This session as a viewer of content (intents.ts), made on first use. */
  viewer: { botUserId: string; intents: number } | null = null;
  /** Frames numbered while outside any cohort, and those taken from cohorts it left; made on first use (a live session's frames are its cohort's). */
  private ring: Ring | null = null;
  private ownSeq = 0;
  /** The oldest frame it holds when it was taken over from another node with fewer than a ring's worth (adopt()). */
  private floor = 1;

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

  /** The last frame numbered for it (its next frame carries seq + 1). */
  get seq(): number {
    return this.cohort !== null ? this.cohort.seq : this.ownSeq;
  }

  /**
   * Record frame `s` (always this session's seq + 1: numbering is contiguous) in its own
   * ring: a session outside any cohort. Sending is the caller's.
   */
  record(t: string, d: string, s: number, now: number): void {
    this.ownSeq = s;
    (this.ring ??= new Ring()).set(s, t, d);
    this.lastActivity = now;
  }

  /**
   * Record frame `s` of its cohort in its own ring: a cohort that keeps no ring of its own
   * (`cohortRings` off) records each frame in every member's, as it is sent.
   */
  keep(s: number, t: string, d: string): void {
    (this.ring ??= new Ring()).set(s, t, d);
  }

  /** It is leaving cohort `c` (cohorts.ts, before `cohort` changes): the frames it got there become its own. */
  leaving(c: CohortSlot): void {
    const from = c.ring === null ? c.seq + 1 : Math.max(this.joinedAt + 1, c.seq - REPLAY_RING + 1);
    const ring = from <= c.seq ? (this.ring ??= new Ring()) : null;
    for (let q = from; q <= c.seq; q++) {
      const i = q % REPLAY_RING;
      const d = c.ring!.d[i];
      ring!.set(q, c.ring!.t[i], typeof d === "string" ? d : d.of(this));
    }
    this.ownSeq = c.seq;
    if (c.lastAt > this.lastActivity) this.lastActivity = c.lastAt;
  }

  /**
   * It was taken over from another node (shared-sessions.ts): its numbering goes on from
   * `seq`, and `frames` (whole dispatch frames, the last of them numbered `seq`) are what
   * that node's ring held for it.
   */
  adopt(seq: number, frames: readonly string[]): void {
    this.ownSeq = seq;
    this.floor = seq - frames.length + 1;
    let s = this.floor;
    for (const f of frames) {
      const { t, d } = JSON.parse(f) as { t: string; d: unknown };
      (this.ring ??= new Ring()).set(s++, t, JSON.stringify(d));
    }
  }

  /** The oldest frame it can still replay (when it has any). */
  get oldest(): number {
    return Math.max(1, this.floor, this.seq - REPLAY_RING + 1);
  }

  /**
   * Frames after `after`, oldest first. A seq older than the ring gets nothing (spec 3.2:
   * the resume still succeeds), as does a seq from the future.
   */
  replayAfter(after: number): string[] {
    const seq = this.seq;
    const oldest = this.oldest;
    if (after < oldest - 1 || after >= seq) return [];
    const out: string[] = [];
    for (let s = after + 1; s <= seq; s++) {
      // While in a cohort that keeps a ring, what came after joining it is there.
      const ring = this.cohort?.ring && s > this.joinedAt ? this.cohort.ring : this.ring!;
      const i = s % REPLAY_RING;
      const d = ring.d[i];
      out.push(dispatchFrame(ring.t[i], s, typeof d === "string" ? d : d.of(this)));
    }
    return out;
  }
}
