/**
 * Gateway sessions shared by every node (`--redis`), so that a RESUME which a balancer
 * sends to another node replays what the session missed there (spec 3.2) exactly as its
 * own node would. Per session, Redis holds a record (`gs:<id>`: the node that holds it,
 * its bot, application, intents and last seq) and its replay ring (`gr:<id>`: the newest
 * REPLAY_RING dispatch frames, whole), both expiring SESSION_TTL_MS after the last write.
 *
 * The node that holds a session writes every frame numbered for it, and each heartbeat
 * refreshes the expiry; writes are gathered for one turn of the event loop and sent as
 * one script, so a message fanned out to a thousand sessions is one command, not a
 * thousand. A node without `--redis` never loads this module.
 *
 * A RESUME for a session this node does not hold claims it: one script checks the bot
 * and the intents, makes this node the holder and answers the record and ring. The node
 * that held it learns at its next write for it (refused: no longer the holder) and
 * forgets it, closing any socket still on it.
 *
 * Every node says it is alive in Redis every second (`gn:<node>`, gone 3 s after it
 * stops): a session whose node is gone (killed) cannot be claimed, since nobody recorded
 * its frames after that node died; its bot gets op 9 and identifies.
 *
 * Redis away: writes are not queued; the sessions they were for are marked, and once
 * Redis answers again every held session's record and ring are written whole from the
 * node's own ring, so Redis never keeps a ring with a hole in it. Meanwhile a RESUME on
 * another node gets op 9 (spec 3.2: "session store unavailable") and the bot identifies.
 */
import type { RedisLink } from "../wire/redis-link";
import { REPLAY_RING, SESSION_TTL_MS } from "./protocol";
import type { Session } from "./session";

/** What a claim answers: the session's record and the frames its ring holds, oldest first. */
export interface Claimed {
  appId: string;
  intents: number;
  seq: number;
  frames: string[];
}

/** What the gateway lets this module do to the sessions it holds. */
export interface SessionHolder {
  /** Another node has taken the session over: forget it here (and close its socket). */
  lose(s: Session): void;
  /** Whether the gateway still holds the session. */
  holds(s: Session): boolean;
  all(): Session[];
}

/**
 * KEYS: record, ring, per session. ARGV: node, ttl ms, ring size, the number of distinct
 * frames and the frames, then per session: create (1/0), frame count, seq, bot,
 * application, intents, and its frames as indexes into the distinct ones (the members of
 * a cohort get byte-identical frames: each is sent once, not once per member). Answers
 * the (1-based) sessions another node holds now, and those whose record is gone.
 */
const WRITE = `
local node, ttl, ring, u = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local a, lost, gone = 5 + u, {}, {}
for i = 1, #KEYS, 2 do
  local create, n = ARGV[a] == '1', tonumber(ARGV[a + 1])
  local owner = redis.call('HGET', KEYS[i], 'node')
  if owner == node or (create and not owner) then
    if create then
      redis.call('DEL', KEYS[i + 1])
      redis.call('HSET', KEYS[i], 'node', node, 'bot', ARGV[a + 3], 'app', ARGV[a + 4], 'intents', ARGV[a + 5])
    end
    if n > 0 then
      local frames = {}
      for k = 1, n do frames[k] = ARGV[4 + tonumber(ARGV[a + 5 + k])] end
      redis.call('RPUSH', KEYS[i + 1], unpack(frames))
      redis.call('LTRIM', KEYS[i + 1], -ring, -1)
    end
    redis.call('HSET', KEYS[i], 'seq', ARGV[a + 2])
    redis.call('PEXPIRE', KEYS[i], ttl)
    redis.call('PEXPIRE', KEYS[i + 1], ttl)
  elseif owner then
    lost[#lost + 1] = (i + 1) / 2
  else
    gone[#gone + 1] = (i + 1) / 2
  end
  a = a + 6 + n
end
return {lost, gone}
`;

/**
 * KEYS: record, ring. ARGV: node, bot user id, the application's grant, ttl ms. Claims
 * the session for this node when it is the bot's, its intents are still granted and the
 * node that holds it is alive (a dead node recorded nothing since it died: its ring may
 * miss frames, so the bot identifies rather than miss them unknowingly); answers
 * {application, intents, seq, frames}, or 0.
 */
const CLAIM = `
local h = redis.call('HMGET', KEYS[1], 'bot', 'app', 'intents', 'seq', 'node')
if not h[1] or h[1] ~= ARGV[2] then return 0 end
if h[5] ~= ARGV[1] and redis.call('EXISTS', 'gn:' .. h[5]) == 0 then return 0 end
if bit.band(tonumber(h[3]), bit.bnot(tonumber(ARGV[3]))) ~= 0 then return 0 end
redis.call('HSET', KEYS[1], 'node', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {h[2], h[3], h[4] or '0', redis.call('LRANGE', KEYS[2], 0, -1)}
`;

/** KEYS: record, ring. ARGV: node. The session ended here: gone from Redis too, if this node still holds it. */
const DROP = `if redis.call('HGET', KEYS[1], 'node') == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end return 0`;

/** A node says it is alive this often, and counts as dead this long after it last did. */
const ALIVE_EVERY_MS = 1000;
const ALIVE_FOR_MS = 3000;

interface Entry {
  /** Its record is (re)made and its ring written whole: a new session, or one Redis missed writes of. */
  create: boolean;
  frames: string[];
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

  /** Failures are the link's to report (wire/redis-link.ts): this module only falls back. */
  constructor(private readonly link: RedisLink) {
    link.degradesTo("a RESUME on another node than the session's gets op 9 (the bot identifies)");
    // Host timers, not the shared clock: this is transport timing, as the heartbeat of a socket.
    const alive = () => void this.link.send("SET", [`gn:${this.node}`, "1", "PX", String(ALIVE_FOR_MS)])?.catch(() => {});
    const timer = setInterval(alive, ALIVE_EVERY_MS);
    (timer as { unref?: () => void }).unref?.();
    alive();
    link.onUp(() => {
      alive();
      // Redis may have lost what it held, and missed writes meanwhile: every held session is written whole.
      for (const s of this.holder?.all() ?? []) this.stale.add(s);
      this.schedule();
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

  /** A frame numbered for a held session (the gateway's frame sink). */
  recorded(s: Session, frame: string): void {
    this.entry(s).frames.push(frame);
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
    // A failure is the link's to report (once, at the loss of Redis); the record then expires there.
    this.link.send("EVAL", [DROP, "2", `gs:${s.id}`, `gr:${s.id}`, this.node])?.catch(() => {});
  }

  /**
   * Take over a session another node held (or this one, before a restart) for a RESUME:
   * its record and ring, or null (unknown, expired, another bot's, intents no longer
   * granted), or "unavailable" when Redis does not answer.
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
    return { appId: String(r[0]), intents: Number(r[1]), seq: Number(r[2]), frames: (r[3] as unknown[]).map(String) };
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

  private entry(s: Session): Entry {
    let e = this.pending.get(s);
    if (e === undefined) {
      this.pending.set(s, (e = { create: false, frames: [] }));
      this.schedule();
    }
    return e;
  }

  private schedule(): void {
    if (this.due) return;
    this.due = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.due = false;
    if (this.holding) return;
    const batch = this.pending;
    this.pending = new Map();
    if (!this.link.connected) {
      for (const s of batch.keys()) this.stale.add(s);
      this.link.send("PING", []); // away: this tries a reconnect (at most once a second)
      return;
    }
    // Written whole from the node's own ring: it holds every frame Redis missed.
    for (const s of this.stale) if (this.holder?.holds(s)) batch.set(s, { create: true, frames: s.replayAfter(s.oldest - 1) });
    this.stale.clear();
    if (batch.size === 0) return;
    const sessions = [...batch.keys()];
    const keys: string[] = [];
    const distinct = new Map<string, number>();
    const each: string[] = [];
    for (const s of sessions) {
      const e = batch.get(s)!;
      const frames = e.frames.length > REPLAY_RING ? e.frames.slice(-REPLAY_RING) : e.frames;
      keys.push(`gs:${s.id}`, `gr:${s.id}`);
      each.push(e.create ? "1" : "0", String(frames.length), String(s.seq), s.owner.botUserId, s.owner.appId, String(s.intents));
      for (const f of frames) {
        let i = distinct.get(f);
        if (i === undefined) distinct.set(f, (i = distinct.size + 1));
        each.push(String(i));
      }
    }
    const args = [this.node, String(SESSION_TTL_MS), String(REPLAY_RING), String(distinct.size), ...distinct.keys(), ...each];
    const sent = this.link.send("EVAL", [WRITE, String(keys.length), ...keys, ...args]);
    if (sent === null) {
      for (const s of sessions) this.stale.add(s);
      return;
    }
    sent.then(
      (r: [number[], number[]]) => this.answered(sessions, r),
      () => {
        for (const s of sessions) this.stale.add(s);
      },
    );
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
