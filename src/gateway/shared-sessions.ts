/**
 * Gateway sessions shared by every node (`--redis`), so that a RESUME which a balancer
 * sends to another node replays what the session missed there (spec 3.2) exactly as its
 * own node would. Per session, Redis holds a record (`gs:<id>`: the node that holds it,
 * its bot, application, intents and last seq, and while a takeover is under way its cut)
 * and its replay ring (`gr:<id>`: the newest REPLAY_RING dispatch frames, whole, each
 * after the number of the commit whose event it carries: `<number> <frame>`, 0 for frames
 * no event caused, READY or RESUMED), both expiring SESSION_TTL_MS after the last write.
 *
 * The node that holds a session writes every frame numbered for it, and each heartbeat
 * refreshes the expiry; writes are gathered for one turn of the event loop and sent as
 * one script, so a message fanned out to a thousand sessions is one command, not a
 * thousand. A node without `--redis` never loads this module (a single SQLite node never
 * does: `--redis` needs `--database`, and SQLite numbers no commits).
 *
 * Every node says it is alive in Redis every second (`gn:<node>`, gone 3 s after it
 * stops), and the value it sets is its mark: a commit number up to which every frame it
 * numbered for its sessions is in Redis (the commits are numbered in one order for all
 * nodes: store/pg/relay.ts). Each write script sets it too, with the ring writes it
 * covers; it does not move while writes wait (Redis away, a session to be written whole).
 *
 * A RESUME for a session this node does not hold claims it: one script checks the bot
 * and the intents, makes this node the holder and answers the record, the ring, and the
 * cut: the mark of the node that held it (or the cut still recorded, when that node had
 * itself just claimed it and not yet written to it). Every frame of a commit up to the
 * cut is in the ring if the session heard it; frames of later commits in it are that
 * node's own, written early. The claiming node then hands the session, after the ring,
 * what it has itself published after the cut that the ring lacks, and sends live only
 * what it hears afterwards (claims.ts): so a frame committed in the instant of the claim
 * is neither lost (numbered by the old holder, whose write is then refused) nor sent
 * twice (in the ring, and heard here after the claim). Its first write for the session
 * drops the cut. The node that held it learns at its next write for it (refused: no
 * longer the holder) and forgets it, closing any socket still on it.
 *
 * A session whose node is gone (killed) cannot be claimed, since nobody recorded its
 * frames after that node died, nor told up to where it had: its bot gets op 9 and
 * identifies.
 *
 * Redis away: writes are not queued; the sessions they were for are marked, and once
 * Redis answers again every held session's record and ring are written whole from the
 * node's own ring, so Redis never keeps a ring with a hole in it. The node's own rings
 * keep no commit numbers, so that whole write waits until the node has heard every
 * commit it numbered frames for (a moment): its frames then all fall at or before its
 * mark. Meanwhile a RESUME on another node gets op 9 (spec 3.2: "session store
 * unavailable") and the bot identifies.
 */
import type { RedisLink } from "../wire/redis-link";
import { REPLAY_RING, SESSION_TTL_MS } from "./protocol";
import type { Session } from "./session";
import { ALIVE_EVERY_MS, ALIVE_FOR_MS, CLAIM, DROP, WRITE } from "./shared-scripts";

/** What a claim answers: the session's record and the frames its ring holds, oldest first. */
export interface Claimed {
  appId: string;
  intents: number;
  seq: number;
  frames: string[];
  /** Per frame, the number of the commit whose event it carries (0: none). */
  at: number[];
  /** Up to this commit, every frame the session heard is in `frames` (the old holder's mark). */
  cut: number;
}

/** What the gateway lets this module do to the sessions it holds. */
export interface SessionHolder {
  /** Another node has taken the session over: forget it here (and close its socket). */
  lose(s: Session): void;
  /** Whether the gateway still holds the session. */
  holds(s: Session): boolean;
  all(): Session[];
  /** Every commit numbered up to this one has been published here, and its frames numbered. */
  published(): number;
}

interface Entry {
  /** Its record is (re)made and its ring written whole: a new session, or one Redis missed writes of. */
  create: boolean;
  /** This node has just claimed it: its first write drops the cut the claim left on the record. */
  adopted: boolean;
  frames: string[];
  /** Per frame, the number of the commit whose event it carries (0: none). */
  at: number[];
}

export class SharedSessions {
  /** This process, as the holder of its sessions. */
  readonly node = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
  private pending = new Map<Session, Entry>();
  /** Held sessions whose writes Redis did not take: written whole at the next write. */
  private readonly stale = new Set<Session>();
  /** Sessions another node took over: forgetting them leaves Redis alone. */
  private readonly given = new WeakSet<Session>();
  private due = false;
  private holder: SessionHolder | null = null;
  /** Holds in place (test mode, hold()): writes wait. */
  private holding = 0;
  /** The mark last sent: every frame of a commit numbered up to it is in Redis, or on its way ahead of it. */
  private mark = 0;
  /** The highest commit number of a frame recorded here (a session written whole waits until it is heard). */
  private newest = 0;
  private readonly aliveTimer: ReturnType<typeof setInterval>;

  /** Failures are the link's to report (wire/redis-link.ts): this module only falls back. */
  constructor(private readonly link: RedisLink) {
    link.degradesTo("a RESUME on another node than the session's gets op 9 (the bot identifies)");
    // Host timers, not the shared clock: this is transport timing, as the heartbeat of a socket.
    const alive = () => {
      // Sessions to write whole, the moment this node has heard every commit it numbered frames for.
      if (this.stale.size) this.schedule();
      this.link.send("SET", [`gn:${this.node}`, String(this.markNow()), "PX", String(ALIVE_FOR_MS)])?.catch(() => {});
    };
    this.aliveTimer = setInterval(alive, ALIVE_EVERY_MS);
    (this.aliveTimer as { unref?: () => void }).unref?.();
    alive();
    link.onUp(() => {
      // Redis may have lost what it held, and missed writes meanwhile: every held session is written whole.
      for (const s of this.holder?.all() ?? []) this.stale.add(s);
      alive();
    });
  }

  /** The gateway that holds the sessions (set once, when it is built). */
  attach(holder: SessionHolder): void {
    this.holder = holder;
  }

  /** A new session (IDENTIFY): its record is made with its first frames. */
  created(s: Session): void {
    this.entry(s).create = true;
  }

  /** A session this node has just claimed, now held here (claims.ts). */
  adopted(s: Session): void {
    this.entry(s).adopted = true;
  }

  /** A frame numbered for a held session (the gateway's frame sink), from commit `at` (0: none). */
  recorded(s: Session, frame: string, at: number): void {
    const e = this.entry(s);
    e.frames.push(frame);
    e.at.push(at);
    if (at > this.newest) this.newest = at;
  }

  /** A heartbeat: the record's expiry starts again. */
  touched(s: Session): void {
    this.entry(s);
  }

  /** The session ended here (expiry, op 9, rotation): nobody may resume it elsewhere either. */
  forgotten(s: Session): void {
    this.pending.delete(s);
    this.stale.delete(s);
    if (this.given.has(s)) return;
    this.release(s.id);
  }

  /**
   * A clean stop (SIGTERM; a rolling restart): the sessions held here are handed over
   * rather than ended. What waits is written, and the node's mark stays in Redis for a
   * session's lifetime instead of 3 s, so a RESUME on another node claims them (a claim
   * needs its holder's mark) and replays every frame up to it, then what that node
   * published since. Answers whether it did: with Redis away, or a write refused, the
   * sessions end as before (op 9 elsewhere, and the bot identifies).
   */
  async handOver(): Promise<boolean> {
    clearInterval(this.aliveTimer);
    const held = this.holder?.all() ?? [];
    if (!this.link.connected) return false;
    this.due = false;
    try {
      await this.flush();
      // Frames numbered since (other nodes' commits, heard while stopping) are of commits
      // after the mark, which the claiming node replays from what it published itself.
      if (this.stale.size) return false;
      const kept = this.link.send("SET", [`gn:${this.node}`, String(this.markNow()), "PX", String(SESSION_TTL_MS)]);
      if (kept === null) return false;
      await kept;
    } catch {
      return false;
    }
    for (const s of held) this.given.add(s);
    return true;
  }

  /** Forget a session in Redis, if this node holds it there (a claim not taken up here). */
  release(sessionId: string): void {
    // A failure is the link's to report (once, at the loss of Redis); the record then expires there.
    this.link.send("EVAL", [DROP, "2", `gs:${sessionId}`, `gr:${sessionId}`, this.node])?.catch(() => {});
  }

  /**
   * Take over a session another node held (or this one, before a restart) for a RESUME:
   * its record, ring and cut, or null (unknown, expired, another bot's, intents no longer
   * granted, its node gone), or "unavailable" when Redis does not answer.
   */
  async claim(sessionId: string, botUserId: string, grant: number): Promise<Claimed | null | "unavailable"> {
    const sent = this.link.send("EVAL", [
      CLAIM,
      "2",
      `gs:${sessionId}`,
      `gr:${sessionId}`,
      this.node,
      botUserId,
      String(grant),
      String(SESSION_TTL_MS),
    ]);
    if (sent === null) return "unavailable";
    let r: any;
    try {
      r = await sent;
    } catch {
      return "unavailable";
    }
    if (!Array.isArray(r)) return null;
    const frames: string[] = [];
    const at: number[] = [];
    for (const entry of r[4] as unknown[]) {
      const text = String(entry);
      const space = text.indexOf(" ");
      at.push(Number(text.slice(0, space)) || 0);
      frames.push(text.slice(space + 1));
    }
    return { appId: String(r[0]), intents: Number(r[1]), seq: Number(r[2]), cut: Number(r[3]) || 0, frames, at };
  }

  /**
   * Test mode (the harness's `hold` fault): writes wait, gathered, until the answer is
   * called, as a node whose turn of the event loop ends late would make them.
   */
  hold(): () => void {
    this.holding++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holding === 0) this.schedule();
    };
  }

  /** The mark this node may set now: with nothing waiting to be written, everything it has published. */
  private markNow(): number {
    if (this.pending.size === 0 && this.stale.size === 0 && this.holder) this.mark = this.holder.published();
    return this.mark;
  }

  private entry(s: Session): Entry {
    let e = this.pending.get(s);
    if (e === undefined) {
      this.pending.set(s, (e = { create: false, adopted: false, frames: [], at: [] }));
      this.schedule();
    }
    return e;
  }

  private schedule(): void {
    if (this.due) return;
    this.due = true;
    setImmediate(() => this.flush());
  }

  /** Write what waits, as one script; answers the write on its way, if one was sent. */
  private flush(): Promise<unknown> | undefined {
    this.due = false;
    if (this.holding) return;
    const batch = this.pending;
    this.pending = new Map();
    if (!this.link.connected) {
      for (const s of batch.keys()) this.stale.add(s);
      this.link.send("PING", []); // away: this tries a reconnect (at most once a second)
      return;
    }
    this.wholes(batch);
    if (batch.size === 0) return;
    const sessions = [...batch.keys()];
    const { keys, distinct, each } = this.argsOf(batch, sessions);
    // Every frame of a commit up to it is in this batch or an earlier one, unless some wait to be written whole.
    if (this.stale.size === 0) this.mark = this.holder?.published() ?? this.mark;
    const args = [this.node, String(SESSION_TTL_MS), String(REPLAY_RING), String(this.mark), String(distinct.length), ...distinct, ...each];
    const sent = this.link.send("EVAL", [WRITE, String(keys.length), ...keys, ...args]);
    if (sent === null) {
      for (const s of sessions) this.stale.add(s);
      return;
    }
    return sent.then(
      (r: [number[], number[]]) => this.answered(sessions, r),
      () => {
        for (const s of sessions) this.stale.add(s);
      },
    );
  }

  /**
   * Sessions Redis missed writes of, written whole from the node's own ring (it holds
   * every frame Redis missed), once the node has heard every commit it numbered frames
   * for: its rings keep no commit numbers, and every one of those frames then falls at or
   * before the mark this write sets. Until then their frames wait with them.
   */
  private wholes(batch: Map<Session, Entry>): void {
    if (this.stale.size === 0) return;
    if ((this.holder?.published() ?? 0) < this.newest) {
      for (const s of this.stale) batch.delete(s);
      return;
    }
    for (const s of this.stale)
      if (this.holder?.holds(s)) batch.set(s, { create: true, adopted: false, frames: s.replayAfter(s.oldest - 1), at: [] });
    this.stale.clear();
  }

  /** The script's keys and arguments: each distinct frame (after its commit's number) once, and per session its indexes. */
  private argsOf(batch: Map<Session, Entry>, sessions: Session[]): { keys: string[]; distinct: string[]; each: string[] } {
    const keys: string[] = [];
    const index = new Map<string, number>();
    const distinct: string[] = [];
    const distinctAt: number[] = [];
    const each: string[] = [];
    for (const s of sessions) {
      const e = batch.get(s)!;
      const from = Math.max(0, e.frames.length - REPLAY_RING);
      keys.push(`gs:${s.id}`, `gr:${s.id}`);
      const how = e.create ? "1" : e.adopted ? "2" : "0";
      each.push(how, String(e.frames.length - from), String(s.seq), s.owner.botUserId, s.owner.appId, String(s.intents));
      for (let k = from; k < e.frames.length; k++) {
        const f = e.frames[k];
        const at = e.at[k] ?? 0;
        let i = index.get(f);
        // The same frame from another commit (two sessions at one seq, equal payloads): an entry of its own.
        if (i === undefined || distinctAt[i - 1] !== at) {
          distinct.push(`${at} ${f}`);
          distinctAt.push(at);
          index.set(f, (i = distinct.length));
        }
        each.push(String(i));
      }
    }
    return { keys, distinct, each };
  }

  private answered(sessions: Session[], [lost, gone]: [number[], number[]]): void {
    for (const i of gone) this.stale.add(sessions[i - 1]);
    if (gone.length) this.schedule();
    for (const i of lost) {
      const s = sessions[i - 1];
      this.given.add(s);
      this.stale.delete(s);
      this.holder?.lose(s);
    }
  }
}
