/**
 * Fan-out by cohort. Every dispatch frame carries its session's own `s` (spec 6.1), so a
 * naive fan-out builds and sends one frame per session, and Bun's per-socket send is the
 * cost that dominates at scale. But sessions that share their next `s` and receive the
 * same payload receive byte-identical frames: a *cohort* is a set of live sessions with
 * equal seq and equal IDENTIFY intents, subscribed to one Bun pub/sub topic, so such a
 * frame is built once and published once for all of them.
 *
 * Cohorts are maintained lazily, from what dispatches actually do:
 * - a frame for only part of a cohort splits it (the smaller side moves to a new topic),
 *   since the two sides' numbering now differs;
 * - cohorts that get the same frame (same seq, same intents, same payload) in one
 *   dispatch merge (the smaller ones move into the largest): this is how sessions that
 *   identified separately, with per-session READY and GUILD_CREATE, come together;
 * - a cohort whose members get different payloads (a bot's own message, per-viewer
 *   `reactions[].me`) stays whole, since their numbering stays aligned, and is sent per
 *   member for that frame; its ring keeps the payload most members got and the bots
 *   whose sessions got another (Views), not a payload per member.
 * Intents are part of the key so that content and content-less views of one guild never
 * merge only to split again on the next message.
 *
 * Numbering and replay stay per session, exactly as a per-session send would give them,
 * but a frame is recorded once, in its cohort's ring, and a member takes the frames it got
 * there into its own ring when it leaves (Session.leaving): recording a frame in a
 * thousand members' rings cost a thousand scattered writes per message.
 *
 * Both tricks have a switch (config/fast-paths.ts), whose off path is the plain one the
 * differential test (test/diff) holds them to: `cohorts` off, every live session is a
 * cohort of its own, never split or merged, sent its own frames; `cohortRings` off, each
 * member records every frame in its own ring as it is sent.
 */
import type { Server } from "bun";
import { dispatchFrame } from "./protocol";
import { Ring, Views, type CohortSlot, type FrameSink, type Session } from "./session";

/** The cohort of a live session (set by this module only). */
const cohortOf = (s: Session) => s.cohort as Cohort | null;

export class Cohort implements CohortSlot {
  readonly members = new Set<Session>();
  /** Scratch state of the dispatch in progress (valid while `mark` equals the current epoch). */
  mark = 0;
  recv: Session[] = [];
  recvD: string[] = [];
  /** The frames numbered here, each member's since it joined; null when each member keeps its own (`cohortRings` off). */
  readonly ring: Ring | null;
  constructor(
    readonly topic: string,
    readonly intents: number,
    /** Seq every member has reached: the next frame of each carries seq + 1. */
    public seq: number,
    /** When its last frame was numbered: its members' last dispatch, for their expiry once closed. */
    public lastAt: number,
    ring = true,
  ) {
    this.ring = ring ? new Ring() : null;
  }

  /** Record frame `s`: once in the cohort's ring, or in every member's own (`cohortRings` off) with what each was sent. */
  record(s: number, t: string, d: string | Views): void {
    if (this.ring !== null) return this.ring.set(s, t, d);
    for (const m of this.members) m.keep(s, t, typeof d === "string" ? d : d.of(m));
  }
}

export class Cohorts {
  private nextId = 1;
  private epoch = 0;
  /**
   * Moves whenever a cohort is made or a session joins, moves or leaves one, or a session
   * is added or forgotten (touch()): who a remembered fan-out reached may have changed
   * (plans.ts).
   */
  version = 0;
  /** Frames published (or sent per member) so far: see plans.ts. */
  published = 0;
  /** Set by the gateway when the first socket upgrades; until then there is nothing to publish to. */
  server: Server<unknown> | null = null;
  /** Live cohorts, for tests and the harness's understanding of fan-out. */
  readonly all = new Set<Cohort>();
  /** Whether live sessions share cohorts (`cohorts`): off, each is its own, never split or merged. */
  readonly grouped: boolean;
  private readonly rings: boolean;

  constructor(
    private readonly prefix: string,
    /** Told of every frame of every session (the harness's log): null when nobody asks. */
    private readonly sink: FrameSink | null = null,
    /** Told how many frames were numbered, once per send (the metrics). */
    private readonly count: ((frames: number) => void) | null = null,
    /** The fast paths `cohorts` (grouped) and `cohortRings` (rings): absent, on. */
    paths: { grouped?: boolean; rings?: boolean } = {},
  ) {
    this.grouped = paths.grouped ?? true;
    this.rings = paths.rings ?? true;
  }

  /** Sessions were added or forgotten (the registry): see `version`. */
  touch(): void {
    this.version++;
  }

  private create(intents: number, seq: number, lastAt: number): Cohort {
    this.version++;
    const c = new Cohort(`${this.prefix}${this.nextId++}`, intents, seq, lastAt, this.rings);
    this.all.add(c);
    return c;
  }

  /** A session that has just become live (IDENTIFY or RESUME) starts in a cohort of its own. */
  join(s: Session): void {
    if (s.cohort) this.leave(s);
    const c = this.create(s.intents, s.seq, s.lastActivity);
    this.move(s, null, c);
  }

  /** The session's socket is going away: it leaves its cohort (and its socket the topic). */
  leave(s: Session): void {
    const c = cohortOf(s);
    if (!c) return;
    this.version++;
    s.leaving(c);
    c.members.delete(s);
    s.cohort = null;
    try {
      s.conn?.ws.unsubscribe(c.topic);
    } catch {
      // The socket is already closed: Bun dropped its subscriptions with it.
    }
    if (!c.members.size) this.all.delete(c);
  }

  private move(s: Session, from: Cohort | null, to: Cohort): void {
    this.version++;
    const ws = s.conn!.ws;
    if (from) {
      s.leaving(from);
      from.members.delete(s);
      ws.unsubscribe(from.topic);
      if (!from.members.size) this.all.delete(from);
    }
    to.members.add(s);
    s.cohort = to;
    s.joinedAt = to.seq;
    // A cohort of one is sent to directly (publish()): its topic would only hold memory,
    // about a kilobyte per idle session. Members subscribe once there are two of them.
    if (to.members.size === 2) for (const m of to.members) m.conn!.ws.subscribe(to.topic);
    else if (to.members.size > 2) ws.subscribe(to.topic);
  }

  /**
   * Number, record and send one dispatch `t` to live sessions (each in a cohort), with
   * payload `ds[i]` for `ss[i]`. Each recipient's `s` is its own seq + 1, as always.
   * `distinct`: the payloads are known to differ per bot (GUILD_CREATE's `joined_at`),
   * so they are not compared. Comparing or hashing them would also flatten the cheap
   * concatenated strings the rings hold into full copies, one per session.
   *
   * Answers the cohorts it sent to when it changed none (each heard the frame whole,
   * none split or merged, `version` unmoved), else null: what a plan remembers (plans.ts).
   */
  send(t: string, ss: Session[], ds: string[], now: number, distinct = false): Cohort[] | null {
    const version = this.version;
    const touched = this.deliver(t, ss, ds, now, distinct);
    return this.version === version ? touched : null;
  }

  private deliver(t: string, ss: Session[], ds: string[], now: number, distinct: boolean): Cohort[] {
    const epoch = ++this.epoch;
    const touched: Cohort[] = [];
    for (let i = 0; i < ss.length; i++) {
      const s = ss[i];
      const c = cohortOf(s)!;
      if (c.mark !== epoch) {
        c.mark = epoch;
        // Reused from dispatch to dispatch (a big cohort's arrays are a fan-out's largest garbage).
        c.recv.length = 0;
        c.recvD.length = 0;
        touched.push(c);
      }
      s.mark = epoch;
      c.recv.push(s);
      c.recvD.push(ds[i]);
    }
    // Cohorts of one (`cohorts` off) hear a frame whole or not at all: nothing to split or merge.
    if (!this.grouped) {
      for (const c of touched) this.publish(t, c, c.recvD[0], now);
      return touched;
    }

    // Split cohorts that only partly receive this frame: the larger side keeps the topic.
    const whole: Cohort[] = [];
    for (const c of touched) {
      if (c.recv.length === c.members.size) {
        whole.push(c);
        continue;
      }
      const stayers: Session[] = [];
      for (const m of c.members) if (m.mark !== epoch) stayers.push(m);
      const n = this.create(c.intents, c.seq, c.lastAt);
      if (c.recv.length * 2 >= c.members.size) {
        for (const m of stayers) this.move(m, c, n);
        whole.push(c);
      } else {
        for (const m of c.recv) this.move(m, c, n);
        n.recv = c.recv;
        n.recvD = c.recvD;
        // c keeps arrays of its own: n's are reused by n from now on.
        c.recv = [];
        c.recvD = [];
        whole.push(n);
      }
    }

    if (whole.length === 1 && whole[0].recv.length === 1) {
      this.publish(t, whole[0], whole[0].recvD[0], now);
      return touched;
    }

    // Cohorts whose members all get one payload: merge equal ones, then publish once each.
    let uniform: Map<string, Cohort[]> | null = null;
    for (const c of whole) {
      const d0 = c.recvD[0];
      let same = !distinct || c.recv.length === 1;
      if (!distinct) for (let i = 1; i < c.recvD.length && same; i++) same = c.recvD[i] === d0;
      if (!same) {
        this.sendEach(t, c, now, distinct);
        continue;
      }
      if (distinct || whole.length === 1) {
        this.publish(t, c, d0, now);
        continue;
      }
      uniform ??= new Map();
      const list = uniform.get(d0);
      if (list) list.push(c);
      else uniform.set(d0, [c]);
    }
    if (uniform) {
      for (const [d, list] of uniform) {
        for (const c of list.length > 1 ? this.merge(list) : list) this.publish(t, c, d, now);
      }
    }
    return touched;
  }

  /**
   * Merge cohorts with equal seq and intents into the largest of them; returns the
   * cohorts left, each to be published to once.
   */
  private merge(list: Cohort[]): Cohort[] {
    list.sort((a, b) => b.members.size - a.members.size);
    const by = new Map<string, Cohort>();
    const out: Cohort[] = [];
    for (const c of list) {
      const key = `${c.seq}/${c.intents}`;
      const into = by.get(key);
      if (!into) {
        by.set(key, c);
        out.push(c);
      } else for (const m of [...c.members]) this.move(m, c, into);
    }
    return out;
  }

  /** Number, send and record frame `t` with payload `d` for every member of `c`: published once, recorded once. */
  publish(t: string, c: Cohort, d: string, now: number): void {
    this.published++;
    const s = ++c.seq;
    c.record(s, t, d);
    c.lastAt = now;
    const frame = dispatchFrame(t, s, d);
    if (c.members.size === 1 || !this.server) {
      for (const m of c.members) m.conn!.ws.sendText(frame);
    } else {
      this.server.publish(c.topic, frame);
    }
    this.count?.(c.members.size);
    const sink = this.sink;
    if (sink) for (const m of c.members) sink(m, frame, t, s);
  }

  /** Number, send and record frame `t` for every member of `c`, each with its own payload (`c.recvD`). */
  private sendEach(t: string, c: Cohort, now: number, distinct: boolean): void {
    this.published++;
    const s = ++c.seq;
    const { recv, recvD } = c;
    const views = viewsOf(recv, recvD, distinct);
    c.record(s, t, views);
    c.lastAt = now;
    this.count?.(recv.length);
    // A frame per view, not per member: they were a fan-out's largest garbage.
    let common: string | null = null;
    const byBot = new Map<string, string>();
    const frameOf = (i: number): string => {
      if (views.each !== null) return dispatchFrame(t, s, recvD[i]);
      const bot = recv[i].owner.botUserId;
      const d = views.except?.get(bot);
      if (d === undefined) return (common ??= dispatchFrame(t, s, views.d));
      let f = byBot.get(bot);
      if (f === undefined) byBot.set(bot, (f = dispatchFrame(t, s, d)));
      return f;
    };
    for (let i = 0; i < recv.length; i++) {
      const m = recv[i];
      const frame = frameOf(i);
      m.conn!.ws.sendText(frame);
      this.sink?.(m, frame, t, s);
    }
  }
}

/**
 * What the members of a cohort got for one frame (`ds[i]` for `ss[i]`), to keep in its
 * ring: the payload most of them got, and the bots whose sessions got another (Views).
 * `distinct` payloads (GUILD_CREATE's, one per bot) are never compared: that would
 * flatten the concatenated strings into a copy each. Others are: should two sessions of
 * one bot have got different payloads, the frame is kept per member instead.
 */
function viewsOf(ss: Session[], ds: string[], distinct: boolean): Views {
  const byBot = new Map<string, { d: string; n: number }>();
  for (let i = 0; i < ss.length; i++) {
    const bot = ss[i].owner.botUserId;
    const v = byBot.get(bot);
    if (v === undefined) byBot.set(bot, { d: ds[i], n: 1 });
    else if (distinct || v.d === ds[i]) v.n++;
    else return new Views(ds[0], null, new Map(ss.map((s, j) => [s, ds[j]])));
  }
  // The common payload: the one most sessions got (for distinct ones, the largest bot's).
  let commonBot = "";
  let common = "";
  let most = 0;
  const sessionsOf = distinct ? null : new Map<string, number>();
  for (const [bot, v] of byBot) {
    const n = sessionsOf === null ? v.n : (sessionsOf.get(v.d) ?? 0) + v.n;
    sessionsOf?.set(v.d, n);
    if (n > most) [commonBot, common, most] = [bot, v.d, n];
  }
  let except: Map<string, string> | null = null;
  for (const [bot, v] of byBot) if (bot !== commonBot && (distinct || v.d !== common)) (except ??= new Map()).set(bot, v.d);
  return new Views(common, except);
}
