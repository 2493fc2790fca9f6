/**
 * The connection handler (spec 3.2): HELLO, the first-frame and zombie deadlines,
 * heartbeats, IDENTIFY and RESUME, and the one close path every socket takes. A session
 * outlives its socket (registry.ts); the socket side is a Conn.
 *
 * It is longer than 400 lines because RESUME now has two paths (a session this node
 * holds, one claimed from another node) and both must end in the same state machine and
 * close path: split, the two halves would share most of the class's private state.
 */
import type { Application } from "../core";
import type { ServerWebSocket } from "bun";
import { parseBotToken } from "../wire/tokens";
import { parseBoundedJson } from "../wire/json";
import { selfUserJson } from "../wire/serializers/user";
import { applicationFlags } from "../wire/serializers/application";
import type { GatewayContext } from "./context";
import type { Cohorts } from "./cohorts";
import type { SessionRegistry } from "./registry";
import {
  ACK_FRAME,
  CLOSE_DISALLOWED_INTENTS,
  CLOSE_HEARTBEAT_TIMEOUT,
  CLOSE_PLAIN,
  FIRST_FRAME_DEADLINE_MS,
  HEARTBEAT_INTERVAL_MS,
  HELLO_DELAY_MS,
  helloFrame,
  INVALID_SESSION_FRAME,
  MAX_FRAMES_BEFORE_IDENTIFY,
  MAX_INBOUND_BYTES,
  OP,
} from "./protocol";
import { Session, type Conn } from "./session";
import { GATES, hears } from "./intents";
import type { Claims } from "./claims";

export interface GatewaySocketData {
  connId: number;
  conn?: Conn;
}

type WS = ServerWebSocket<GatewaySocketData>;

/** Number, record and (when live) send one dispatch to one session. */
export type Push = (s: Session, t: string, d: string, now: number) => void;

/** What a new session is sent after READY: one GUILD_CREATE payload per guild READY listed (each saying `unavailable: false`). */
export type GuildCreatePayload = (guildId: string, s: Session) => string;

export class Connections {
  private readonly conns = new Set<Conn>();
  /** Sockets whose HELLO is still to go out (it waits for the upgrade's write, see open()). */
  private readonly helloDue = new Set<Conn>();

  constructor(
    private readonly ctx: GatewayContext,
    private readonly registry: SessionRegistry,
    private readonly cohorts: Cohorts,
    private readonly push: Push,
    private readonly guildCreate: GuildCreatePayload,
    /** Sessions taken over from other nodes (claims.ts); null without `--redis`. */
    private readonly claims: Claims | null = null,
  ) {
    const interval = ctx.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    this.hello = helloFrame(interval);
    this.zombieMs = Math.round(2.5 * interval);
  }

  /** HELLO with its interval (the spec's 41250 ms unless a test server shortens it). */
  private readonly hello: string;
  /** Spec 3.2: 2.5 x heartbeat_interval, counted from HELLO and re-armed by each heartbeat. */
  private readonly zombieMs: number;

  private get clock() {
    return this.ctx.core.clock;
  }

  private get hooks() {
    return this.ctx.hooks;
  }

  /** Every frame but numbered dispatches goes out here, so hooks see it. */
  private send(conn: Conn, frame: string): void {
    conn.ws.sendText(frame);
    for (const h of this.hooks) h.sent?.(conn.id, conn.session, frame);
  }

  // ---- the socket's life ----

  open(ws: WS): void {
    const now = this.clock.now();
    const conn: Conn = {
      id: ws.data.connId,
      ws: ws as never,
      state: "awaiting",
      session: null,
      lastBeat: now,
      firstFrameTimer: null,
      zombieTimer: null,
      framesBeforeIdentify: 0,
    };
    ws.data.conn = conn;
    this.conns.add(conn);
    for (const h of this.hooks) h.opened?.(conn.id);
    // HELLO goes out in a write of its own, after the upgrade: sent inside open() it shares
    // a TCP segment with the 101, and a client that reads only the upgrade response
    // (Seyfert's own Node socket drops the bytes after it) waits for a HELLO it already
    // got. A host timer, not the shared clock: this is transport timing, and a virtual
    // clock would never send it.
    this.helloDue.add(conn);
    setTimeout(() => this.sayHello(conn), HELLO_DELAY_MS);
    this.armFirstFrame(conn, FIRST_FRAME_DEADLINE_MS);
    this.armZombie(conn);
  }

  /** HELLO, once, before anything else the socket is sent (a client that speaks first still gets it first). */
  private sayHello(conn: Conn): void {
    if (this.helloDue.delete(conn) && conn.state !== "closed") this.send(conn, this.hello);
  }

  message(ws: WS, raw: string | Buffer): void {
    const conn = ws.data.conn;
    if (!conn || conn.state === "closed") return;
    this.sayHello(conn);
    for (const h of this.hooks) h.received?.(conn.id, conn.session, typeof raw === "string" ? raw : "<binary>");
    // Frames are JSON text only (spec 6.1): binary, oversized or unparsable frames end the session.
    if (typeof raw !== "string" || raw.length > MAX_INBOUND_BYTES) return this.invalidate(conn);
    // Before a session exists a socket costs nothing to open: it may say only a little.
    if (conn.state === "awaiting" && ++conn.framesBeforeIdentify > MAX_FRAMES_BEFORE_IDENTIFY) return this.invalidate(conn);
    // Malformed or nested deeper than any real frame: null (wire/json.ts).
    const frame: any = parseBoundedJson(raw);
    if (!frame || typeof frame !== "object" || !Number.isInteger(frame.op)) return this.invalidate(conn);
    switch (frame.op) {
      case OP.HEARTBEAT:
        // Heartbeating may start before IDENTIFY (libraries begin at HELLO).
        conn.lastBeat = this.clock.now();
        if (conn.session) {
          conn.session.lastActivity = conn.lastBeat;
          this.ctx.sessions?.touched(conn.session);
        }
        if (this.hooks.every((h) => h.acknowledge?.(conn.session) ?? true)) this.send(conn, ACK_FRAME);
        return;
      case OP.IDENTIFY:
        return conn.state === "awaiting" ? this.identify(conn, frame.d) : this.invalidate(conn);
      case OP.RESUME:
        return conn.state === "awaiting" ? this.resume(conn, frame.d) : this.invalidate(conn);
      case OP.PRESENCE_UPDATE:
      case OP.VOICE_STATE_UPDATE:
      case OP.REQUEST_GUILD_MEMBERS:
        // Accepted and ignored once identified; before that there is nothing to apply them to.
        return conn.state === "active" ? undefined : this.invalidate(conn);
      default:
        return this.invalidate(conn);
    }
  }

  /** The client (or Bun) closed the socket: the same path as a close of ours. */
  closed(ws: WS): void {
    const conn = ws.data.conn;
    if (conn) this.close(conn, null);
  }

  /**
   * The one close path: deadlines stop, the socket's session (if any) stays resumable
   * until it expires (spec 3.2), and the socket is closed with `code` unless it is gone.
   */
  close(conn: Conn, code: number | null, reason = ""): void {
    if (conn.state === "closed") return;
    conn.state = "closed";
    this.helloDue.delete(conn);
    conn.firstFrameTimer?.cancel();
    conn.zombieTimer?.cancel();
    conn.firstFrameTimer = conn.zombieTimer = null;
    const s = conn.session;
    conn.session = null;
    if (s && s.conn === conn) {
      this.cohorts.leave(s);
      s.conn = null;
      if (this.registry.get(s.id)) this.registry.armExpiry(s);
    }
    this.conns.delete(conn);
    for (const h of this.hooks) h.closed?.(conn.id, s, code);
    if (code === null) return;
    try {
      conn.ws.close(code, reason);
    } catch {
      // Already closing on the client's side.
    }
  }

  /** Op 9 (d false) then a plain close; the session, if any, cannot be resumed. */
  invalidate(conn: Conn): void {
    const s = conn.session;
    if (s) {
      this.registry.drop(s);
      s.conn = null;
      conn.session = null;
    }
    if (conn.state === "closed") return;
    this.send(conn, INVALID_SESSION_FRAME);
    this.close(conn, CLOSE_PLAIN);
  }

  /** Rotation, deletion or disabling: live sessions get op 9 and close; none can be resumed. */
  endSessionsOfApp(appId: string): void {
    for (const s of this.registry.ofApp(appId)) this.end(s);
  }

  /**
   * The application's grant narrowed (a privileged intent revoked): its sessions whose
   * IDENTIFY intents it no longer covers end as a rotated token's do (op 9, no RESUME;
   * an IDENTIFY asking for them again gets 4014), the others carry on untouched.
   */
  endSessionsBeyondGrant(appId: string): void {
    const app = this.ctx.core.apps.get(appId);
    if (!app) return this.endSessionsOfApp(appId);
    const grant = this.ctx.core.apps.currentGrant(app);
    for (const s of this.registry.ofApp(appId)) if (beyond(s.intents, grant)) this.end(s);
  }

  private end(s: Session): void {
    if (s.conn) this.invalidate(s.conn);
    else this.registry.drop(s);
  }

  /** Op 9 and a plain close for a live session, which is gone; false when not connected. */
  invalidateSession(sessionId: string): boolean {
    const s = this.registry.get(sessionId);
    if (!s?.conn) return false;
    this.invalidate(s.conn);
    return true;
  }

  /** Close a live session's socket with a code (4000 keeps it resumable); false when not connected. */
  disconnect(sessionId: string, code: number): boolean {
    const s = this.registry.get(sessionId);
    if (!s?.conn) return false;
    this.close(s.conn, code);
    return true;
  }

  /** Close every socket with `code` and forget every session; answers how many sockets there were. */
  closeAll(code = CLOSE_PLAIN): number {
    const all = [...this.conns];
    for (const conn of all) this.close(conn, code);
    this.registry.clear();
    return all.length;
  }

  /**
   * The clock is about to jump to `until` (a test moving time): every socket counts as
   * having heartbeated all the way, because its bot's own clock moves with the jump (or
   * its heartbeats go on in real time, which a virtual jump takes none of). So no
   * deadline falls due inside the jump, and live sessions survive it whole.
   */
  carryThrough(until: number): void {
    const now = this.clock.now();
    for (const conn of this.conns) {
      if (conn.state === "closed") continue;
      conn.lastBeat = Math.max(conn.lastBeat, until);
      if (conn.session) conn.session.lastActivity = Math.max(conn.session.lastActivity, until);
      if (!conn.firstFrameTimer) continue;
      conn.firstFrameTimer.cancel();
      this.armFirstFrame(conn, until - now + FIRST_FRAME_DEADLINE_MS);
    }
  }

  /** Spec 3.2: a socket that sends no IDENTIFY or RESUME in time gets a plain close. */
  private armFirstFrame(conn: Conn, ms: number): void {
    conn.firstFrameTimer = this.clock.setTimeout(() => {
      conn.firstFrameTimer = null;
      if (conn.state === "awaiting") this.close(conn, CLOSE_PLAIN);
    }, ms);
  }

  private armZombie(conn: Conn): void {
    conn.zombieTimer = this.clock.setTimeout(
      () => {
        conn.zombieTimer = null;
        if (conn.state === "closed") return;
        const idle = this.clock.now() - conn.lastBeat;
        if (idle < this.zombieMs) return this.armZombie(conn);
        // Before IDENTIFY the 30 s first-frame deadline has already closed the socket.
        if (conn.state === "active") this.close(conn, CLOSE_HEARTBEAT_TIMEOUT, "Heartbeat timeout");
      },
      this.zombieMs - (this.clock.now() - conn.lastBeat),
    );
  }

  // ---- IDENTIFY and RESUME ----

  private appForToken(token: unknown): Application | null {
    if (typeof token !== "string") return null;
    // Libraries may send the token with the REST "Bot " prefix.
    const parsed = parseBotToken(token.replace(/^Bot\s+/i, "").trim(), this.ctx.flakes);
    return parsed ? this.ctx.core.apps.authenticate(parsed.botUserId, parsed.version, parsed.secret) : null;
  }

  private identify(conn: Conn, d: any): void {
    const { core, flakes, urls } = this.ctx;
    if (!d || typeof d !== "object") return this.invalidate(conn);
    const intents = d.intents;
    if (typeof intents !== "number" || !Number.isSafeInteger(intents) || intents < 0) return this.invalidate(conn);
    const app = this.appForToken(d.token);
    if (!app) return this.invalidate(conn);
    if (beyond(intents, core.apps.currentGrant(app))) return this.close(conn, CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).");
    const bot = core.users.get(app.bot_user_id);
    if (!bot) return this.invalidate(conn);

    if (!this.registry.makeRoom(bot.id)) return this.invalidate(conn);
    const now = this.clock.now();
    const s = new Session(
      Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex"),
      { appId: app.id, appFlake: flakes.of(app.id), botUserId: bot.id },
      intents,
      now,
    );
    this.registry.add(s);
    this.ctx.sessions?.created(s);
    this.attach(conn, s);
    for (const h of this.hooks) h.attached?.(conn.id, s, "identify");
    const guildIds = core.guilds.guildIdsOf(bot.id);
    const ready = {
      v: 10,
      user: selfUserJson(flakes, bot),
      guilds: guildIds.map((g) => ({ id: flakes.of(g), unavailable: true })),
      session_id: s.id,
      // The resume URL is the same gateway, which accepts IDENTIFY as well.
      resume_gateway_url: urls.gateway,
      session_type: "normal",
      private_channels: [],
      shard: [0, 1],
      application: { id: flakes.of(app.id), flags: applicationFlags(app) },
    };
    this.push(s, "READY", JSON.stringify(ready), now);
    if (hears(s, GATES.guilds)) for (const g of guildIds) this.push(s, "GUILD_CREATE", this.guildCreate(g, s), now);
  }

  private resume(conn: Conn, d: any): void {
    if (!d || typeof d !== "object" || typeof d.session_id !== "string") return this.invalidate(conn);
    const app = this.appForToken(d.token);
    const seq = d.seq === null || d.seq === undefined ? 0 : Number(d.seq);
    if (!app || !Number.isFinite(seq)) return this.invalidate(conn);
    const s = this.registry.get(d.session_id);
    // Another node's session (or one from before a restart): claimed from Redis when nodes share it.
    if (!s && this.claims) return this.resumeShared(conn, app, d.session_id, seq);
    if (!s || s.owner.botUserId !== app.bot_user_id || beyond(s.intents, this.ctx.core.apps.currentGrant(app)))
      return this.invalidate(conn);
    this.resumed(conn, s, seq);
  }

  /**
   * RESUME of a session this node does not hold: claimed from the shared store, handed
   * what it missed between the ring and now (claims.ts), then resumed as one of its own.
   * Unknown, refused, the store away, or what it missed not to be told: op 9 (spec 3.2).
   */
  private resumeShared(conn: Conn, app: Application, sessionId: string, seq: number): void {
    conn.state = "resuming";
    const refuse = (release: boolean) => {
      if (release) this.claims!.giveUp(sessionId);
      if (conn.state === "resuming") conn.state = "awaiting";
      this.invalidate(conn);
    };
    void this.claims!.take(sessionId, app.bot_user_id, this.ctx.core.apps.currentGrant(app)).then((t) => {
      // Taken here meanwhile (another RESUME of it on this node): this one is refused, the session stays.
      if (t === null || this.registry.get(sessionId)) return refuse(false);
      if (!this.registry.makeRoom(app.bot_user_id)) return refuse(true);
      const c = t.claimed;
      const s = new Session(
        sessionId,
        { appId: app.id, appFlake: this.ctx.flakes.of(app.id), botUserId: app.bot_user_id },
        c.intents,
        this.clock.now(),
      );
      s.adopt(c.seq, c.frames);
      this.registry.add(s);
      // In the same turn as the add: nothing published in between escapes both the catch-up and live sending.
      if (!t.catchUp(s)) {
        this.registry.drop(s); // and from Redis
        return refuse(false);
      }
      if (conn.state !== "resuming") return this.registry.armExpiry(s);
      this.resumed(conn, s, seq);
    });
  }

  /** The session is live on this socket again: what it missed, then RESUMED. */
  private resumed(conn: Conn, s: Session, seq: number): void {
    // A newer connection takes the session over from an older one still attached.
    const old = s.conn;
    if (old && old !== conn) this.close(old, CLOSE_PLAIN);
    this.registry.keep(s);
    conn.session = s;
    s.conn = conn;
    conn.state = "active";
    conn.firstFrameTimer?.cancel();
    conn.firstFrameTimer = null;
    for (const frame of s.replayAfter(seq)) this.send(conn, frame);
    this.cohorts.join(s);
    for (const h of this.hooks) h.attached?.(conn.id, s, "resume");
    this.push(s, "RESUMED", "{}", this.clock.now());
  }

  /** Another node took the session over (shared-sessions.ts): it ends here, and so does any socket still on it. */
  lose(s: Session): void {
    if (this.registry.get(s.id) !== s) return;
    if (s.conn) this.close(s.conn, CLOSE_PLAIN);
    this.registry.drop(s);
  }

  private attach(conn: Conn, s: Session): void {
    conn.session = s;
    s.conn = conn;
    conn.state = "active";
    conn.firstFrameTimer?.cancel();
    conn.firstFrameTimer = null;
    this.cohorts.join(s);
  }
}

function beyond(intents: number, grant: number): boolean {
  return (BigInt(intents) & ~BigInt(grant)) !== 0n;
}
