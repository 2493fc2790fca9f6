/**
 * A session taken over from another node (a RESUME the balancer sent elsewhere, spec
 * 3.2) gets every frame exactly once: what the ring in Redis holds, then what this node
 * heard that the ring lacks, then what comes live. Which is which is told by the number
 * of the commit that carried each event (store/pg/relay.ts), the same on every node:
 *
 * - The claim (shared-sessions.ts) answers the ring, each frame with its event's number
 *   (0 for READY, RESUMED and other frames no event caused), and a cut: a number up to
 *   which the node that held the session had written every frame of every commit. Each
 *   frame of a later commit in the ring is that node's own, written early (a node
 *   publishes its own commits at once, others' when it hears them).
 * - Before the session goes live here, this node waits until it has published every
 *   commit up to the newest in the ring (bounded: CATCH_UP_MS). So nothing it hears
 *   afterwards is in the ring, and live sending needs no check at all.
 * - Then the events it published after the cut whose commits have no frame in the ring
 *   are derived again for this session from a short memory of recent events (Heard),
 *   in the order this node published them, and numbered on after the ring's last seq.
 *   If that memory no longer reaches back to the cut (or this node began hearing the
 *   others after it), what the session missed cannot be told: op 9, and the bot
 *   identifies, as when the store is away.
 *
 * Frames derived again are recorded with their event's number, so a session taken over
 * once more is handed on alike. Nothing here runs on a node without `--redis`.
 */
import type { Clock, CommitOrder, DomainEvent } from "../core";
import type { Delivery } from "./deliveries";
import { hears } from "./intents";
import type { Session } from "./session";
import type { Claimed, SharedSessions } from "./shared-sessions";

/** Number, record and (when live) send one dispatch to one session (the gateway's push). */
type Push = (s: Session, t: string, d: string, now: number) => void;

/** Events kept for a claim to derive again: far more than a node publishes between the cut and the claim's answer. */
const HEARD = 8192;
/** How long a claim waits for this node to hear the commits the ring already holds frames of. */
const CATCH_UP_MS = 5000;
/** How often it looks meanwhile (host time: this is transport timing, as the liveness beat is). */
const LOOK_MS = 5;

/** The events this node published lately, with their commits' numbers, oldest first. */
export class Heard {
  private readonly at: number[] = new Array(HEARD).fill(0);
  private readonly events: (DomainEvent | undefined)[] = new Array(HEARD);
  private next = 0;
  private full = false;
  /** The highest number among the events no longer kept. */
  private forgotten = 0;

  add(at: number, e: DomainEvent): void {
    const i = this.next;
    if (this.full && this.at[i] > this.forgotten) this.forgotten = this.at[i];
    this.at[i] = at;
    this.events[i] = e;
    this.next = i + 1 === HEARD ? 0 : i + 1;
    if (this.next === 0) this.full = true;
  }

  /** Whether every event published here with a number above `cut` is still kept. */
  keepsAfter(cut: number): boolean {
    return cut >= this.forgotten;
  }

  /** The kept events numbered above `cut` and not in `skip`, oldest first. */
  *after(cut: number, skip: ReadonlySet<number>): Generator<[number, DomainEvent]> {
    const start = this.full ? this.next : 0;
    const n = this.full ? HEARD : this.next;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % HEARD;
      const at = this.at[i];
      if (at > cut && !skip.has(at)) yield [at, this.events[i]!];
    }
  }
}

/** A claim that succeeded, for the connection handler to finish. */
export interface Taken {
  claimed: Claimed;
  /**
   * The session (adopted from the claim, just registered): the frames it missed between
   * the cut and now, derived again and numbered on. False when they cannot be told (the
   * session is then to be dropped: op 9).
   */
  catchUp(s: Session): boolean;
}

export class Claims {
  readonly heard = new Heard();
  /** The number of the event whose frames are being derived again, or -1. */
  private replaying = -1;
  private deliveriesFor: ((e: DomainEvent) => Delivery[]) | null = null;
  private push: Push | null = null;

  constructor(
    private readonly shared: SharedSessions,
    private readonly bus: { readonly at: number; readonly order: CommitOrder },
    private readonly clock: Clock,
  ) {}

  /** What derives an event's dispatches and numbers one for a session (set once, when the gateway is built). */
  deriveWith(deliveriesFor: (e: DomainEvent) => Delivery[], push: Push): void {
    this.deliveriesFor = deliveriesFor;
    this.push = push;
  }

  /** The number of the commit whose event a frame being numbered now comes from (0: none). */
  at(): number {
    return this.replaying >= 0 ? this.replaying : this.bus.at;
  }

  /**
   * Claim a session for a RESUME, and wait until this node has published every commit
   * the ring holds frames of. Null: unknown, refused, the store away, or this node did
   * not hear those commits in time (then the session is released in Redis too).
   */
  async take(sessionId: string, botUserId: string, grant: number): Promise<Taken | null> {
    const c = await this.shared.claim(sessionId, botUserId, grant);
    if (c === null || c === "unavailable") return null;
    const inRing = new Set<number>();
    let newest = c.cut;
    for (const at of c.at) {
      if (at <= c.cut) continue;
      inRing.add(at);
      if (at > newest) newest = at;
    }
    if (!(await this.published(newest))) {
      this.shared.release(sessionId);
      return null;
    }
    return { claimed: c, catchUp: (s) => this.catchUp(s, c.cut, inRing) };
  }

  /** A claim that succeeded in Redis but is not taken up here (no room, op 9): nobody holds it now. */
  giveUp(sessionId: string): void {
    this.shared.release(sessionId);
  }

  private async published(n: number): Promise<boolean> {
    const deadline = performance.now() + CATCH_UP_MS;
    while (this.bus.order.through() < n) {
      if (performance.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, LOOK_MS));
    }
    return true;
  }

  private catchUp(s: Session, cut: number, inRing: ReadonlySet<number>): boolean {
    if (!this.heard.keepsAfter(cut) || cut < this.bus.order.since()) return false;
    this.shared.adopted(s);
    const bot = s.owner.botUserId;
    const now = this.clock.now();
    try {
      for (const [at, e] of this.heard.after(cut, inRing)) {
        for (const del of this.deliveriesFor!(e)) {
          // Interactions go to connected sessions only (spec 3.1): this one was not.
          if (del.liveOnly || !hears(s, del.intent) || !del.bots.includes(bot)) continue;
          this.replaying = at;
          this.push!(s, del.t, del.payload(s), now);
        }
      }
    } finally {
      this.replaying = -1;
    }
    return true;
  }
}
