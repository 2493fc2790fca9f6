/**
 * The gateway (spec 3.2, 5, 6): Bun's native WebSocket server at /gateway. Sessions,
 * their replay rings and their deadlines live in memory; every deadline is a timer on
 * the shared clock, so a virtual clock drives them in tests.
 */
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { randomBytes } from "node:crypto";
import type { BotApi } from "../botapi/context";
import type { DomainEvent } from "../core/events";
import { INTENTS } from "../core/permissions";
import { parseBotToken } from "../wire/tokens";
import { selfUserJson } from "../wire/serializers/user";
import { applicationFlags } from "../wire/serializers/application";
import type { ApplicationRow } from "../core/types";
import {
  ACK_FRAME,
  CLOSE_DISALLOWED_INTENTS,
  CLOSE_HEARTBEAT_TIMEOUT,
  CLOSE_PLAIN,
  FIRST_FRAME_DEADLINE_MS,
  HELLO_FRAME,
  INVALID_SESSION_FRAME,
  MAX_INBOUND_BYTES,
  OP,
  SESSION_TTL_MS,
  ZOMBIE_TIMEOUT_MS,
} from "./protocol";
import { Session, type Conn, type FrameSink } from "./session";
import { deliveriesFor, GuildBots, GuildCreateCache } from "./dispatch";
import { EventLog } from "./eventlog";
import { Cohorts } from "./cohorts";
import { dispatchFrame } from "./protocol";

export interface GatewaySocketData {
  connId: number;
  conn?: Conn;
}

export interface SessionInfo {
  session_id: string;
  intents: number;
  connected: boolean;
  seq: number;
}

export interface Gateway {
  websocket: WebSocketHandler<GatewaySocketData>;
  /** Upgrade a request for the gateway path; undefined when it was not a WebSocket request. */
  upgrade(req: Request, server: Server<GatewaySocketData>): Response | undefined;
  /** Close every socket and forget every session (shutdown, harness reset). */
  closeAll(): void;
  /** Whether the bot user has at least one live (connected, identified) session. */
  hasLiveSession(botUserId: string): boolean;
  /** The application's known (unexpired) sessions, for the harness. */
  sessionsOf(applicationId: string): SessionInfo[];
  /** Dispatch frames sent to bots, for the harness (null when the harness is off). */
  events: EventLog | null;
  /**
   * Close a session's socket with a code as the server would (4000 keeps it resumable);
   * false when the session is unknown or not connected. Tests and tools use this.
   */
  disconnect(sessionId: string, code?: number): boolean;
  /**
   * Sizes of the fan-out cohorts (live sessions sharing seq and intents, one publish per
   * frame each), largest first: how well fan-out is grouped, for tests and the bench.
   */
  cohortSizes(): number[];
}

type WS = ServerWebSocket<GatewaySocketData>;

export function createGateway(api: BotApi): Gateway {
  const clock = api.core.clock;
  const core = api.core;
  let nextConn = 1;
  const conns = new Set<Conn>();
  const sessions = new Map<string, Session>();
  const byBot = new Map<string, Set<Session>>();
  const events = api.config.harness ? new EventLog() : null;
  const guildCreates = new GuildCreateCache(api);
  const guildBots = new GuildBots(api, (botUserId) => byBot.has(botUserId));
  const sink: FrameSink | null = events ? (s, frame) => events.append(s.owner.appFlake, s.id, frame) : null;
  // Topics are per server; the prefix only keeps them readable apart from anything else published.
  const cohorts = new Cohorts("gw:");

  /** Number, record and (when live) send one dispatch to one session. */
  function push(s: Session, t: string, d: string, now: number) {
    if (s.cohort) return cohorts.send(t, [s], [d], now, sink);
    const seq = s.seq + 1;
    s.record(t, d, seq, now);
    sink?.(s, dispatchFrame(t, seq, d), t, seq);
  }

  // ---- sessions ----

  function addSession(s: Session) {
    sessions.set(s.id, s);
    let set = byBot.get(s.owner.botUserId);
    if (!set) {
      byBot.set(s.owner.botUserId, (set = new Set()));
      guildBots.clear();
    }
    set.add(s);
  }

  function dropSession(s: Session) {
    cohorts.leave(s);
    s.expiryTimer?.cancel();
    s.expiryTimer = null;
    sessions.delete(s.id);
    const set = byBot.get(s.owner.botUserId);
    if (set) {
      set.delete(s);
      if (!set.size) {
        byBot.delete(s.owner.botUserId);
        guildBots.clear();
      }
    }
  }

  /**
   * A closed session expires 5 minutes after its last heartbeat or dispatch. The timer
   * re-checks when it fires, so dispatches need not re-arm it.
   */
  function armExpiry(s: Session) {
    s.expiryTimer?.cancel();
    const due = s.lastActivity + SESSION_TTL_MS - clock.now();
    s.expiryTimer = clock.setTimeout(() => {
      s.expiryTimer = null;
      if (!sessions.has(s.id) || s.conn) return;
      if (clock.now() - s.lastActivity >= SESSION_TTL_MS) dropSession(s);
      else armExpiry(s);
    }, Math.max(0, due));
  }

  /** Op 9 (d false) then a plain close; the session, if any, cannot be resumed. */
  function invalidate(conn: Conn) {
    const s = conn.session;
    if (s) {
      cohorts.leave(s);
      s.conn = null;
      dropSession(s);
      conn.session = null;
    }
    if (conn.state !== "closed") {
      conn.ws.send(INVALID_SESSION_FRAME);
      closeConn(conn, CLOSE_PLAIN);
    }
  }

  function closeConn(conn: Conn, code: number, reason = "") {
    if (conn.state === "closed") return;
    conn.state = "closed";
    conn.firstFrameTimer?.cancel();
    conn.zombieTimer?.cancel();
    conn.firstFrameTimer = conn.zombieTimer = null;
    detach(conn);
    conns.delete(conn);
    try {
      conn.ws.close(code, reason);
    } catch {
      // Already closing on the client's side.
    }
  }

  /** The socket is gone; the session stays resumable until it expires (spec 3.2). */
  function detach(conn: Conn) {
    const s = conn.session;
    conn.session = null;
    if (s && s.conn === conn) {
      cohorts.leave(s);
      s.conn = null;
      if (sessions.has(s.id)) armExpiry(s);
    }
  }

  function armZombie(conn: Conn) {
    conn.zombieTimer = clock.setTimeout(() => {
      conn.zombieTimer = null;
      if (conn.state === "closed") return;
      const idle = clock.now() - conn.lastBeat;
      if (idle >= ZOMBIE_TIMEOUT_MS) {
        if (conn.state === "active") closeConn(conn, CLOSE_HEARTBEAT_TIMEOUT, "Heartbeat timeout");
        // Before IDENTIFY the 30 s first-frame deadline has already closed the socket.
      } else armZombie(conn);
    }, ZOMBIE_TIMEOUT_MS - (clock.now() - conn.lastBeat));
  }

  // ---- authentication ----

  function appForToken(token: unknown): ApplicationRow | null {
    if (typeof token !== "string") return null;
    // Libraries may send the token with the REST "Bot " prefix.
    const raw = token.replace(/^Bot\s+/i, "").trim();
    const parsed = parseBotToken(raw, api.flakes);
    if (!parsed) return null;
    return core.apps.authenticate(parsed.botUserId, parsed.version, parsed.secret);
  }

  function beyond(intents: number, grant: number): boolean {
    return (BigInt(intents) & ~BigInt(grant)) !== 0n;
  }

  // ---- frames from the client ----

  function onIdentify(conn: Conn, d: any) {
    if (!d || typeof d !== "object") return invalidate(conn);
    const intents = d.intents;
    if (typeof intents !== "number" || !Number.isSafeInteger(intents) || intents < 0) return invalidate(conn);
    const app = appForToken(d.token);
    if (!app) return invalidate(conn);
    if (beyond(intents, app.token_intents)) return closeConn(conn, CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).");
    const bot = core.users.get(app.bot_user_id);
    if (!bot) return invalidate(conn);

    const now = clock.now();
    const s = new Session(randomBytes(16).toString("hex"), { appId: app.id, appFlake: api.flakes.of(app.id), botUserId: bot.id }, intents, now);
    addSession(s);
    conn.session = s;
    s.conn = conn;
    conn.state = "active";
    conn.firstFrameTimer?.cancel();
    conn.firstFrameTimer = null;
    cohorts.join(s);

    const guildIds = core.guilds.guildIdsOf(bot.id);
    const ready = {
      v: 10,
      user: selfUserJson(api.flakes, bot),
      guilds: guildIds.map((g) => ({ id: api.flakes.of(g), unavailable: true })),
      session_id: s.id,
      // The resume URL is the same gateway, which accepts IDENTIFY as well.
      resume_gateway_url: api.urls.gateway,
      session_type: "normal",
      private_channels: [],
      shard: [0, 1],
      application: { id: api.flakes.of(app.id), flags: applicationFlags(app) },
    };
    push(s, "READY", JSON.stringify(ready), now);
    if (intents & INTENTS.GUILDS) {
      const presences = (intents & INTENTS.GUILD_PRESENCES) !== 0;
      for (const g of guildIds) push(s, "GUILD_CREATE", guildCreates.payload(g, bot.id, presences), now);
    }
  }

  function onResume(conn: Conn, d: any) {
    if (!d || typeof d !== "object" || typeof d.session_id !== "string") return invalidate(conn);
    const app = appForToken(d.token);
    const s = sessions.get(d.session_id);
    if (!app || !s || s.owner.botUserId !== app.bot_user_id || beyond(s.intents, app.token_intents)) return invalidate(conn);
    const seq = d.seq === null || d.seq === undefined ? 0 : Number(d.seq);
    if (!Number.isFinite(seq)) return invalidate(conn);

    // A newer connection takes the session over from an older one still attached.
    const old = s.conn;
    if (old && old !== conn) {
      old.session = null;
      cohorts.leave(s);
      s.conn = null;
      closeConn(old, CLOSE_PLAIN);
    }
    s.expiryTimer?.cancel();
    s.expiryTimer = null;
    conn.session = s;
    s.conn = conn;
    conn.state = "active";
    conn.firstFrameTimer?.cancel();
    conn.firstFrameTimer = null;
    for (const frame of s.replayAfter(seq)) conn.ws.sendText(frame);
    cohorts.join(s);
    push(s, "RESUMED", "{}", clock.now());
  }

  function onMessage(ws: WS, raw: string | Buffer) {
    const conn = ws.data.conn;
    if (!conn || conn.state === "closed") return;
    // Frames are JSON text only (spec 6.1): binary, oversized or unparsable frames end the session.
    if (typeof raw !== "string" || raw.length > MAX_INBOUND_BYTES) return invalidate(conn);
    let frame: any;
    try {
      frame = JSON.parse(raw);
    } catch {
      return invalidate(conn);
    }
    if (!frame || typeof frame !== "object" || !Number.isInteger(frame.op)) return invalidate(conn);

    switch (frame.op) {
      case OP.HEARTBEAT: {
        // Heartbeating may start before IDENTIFY (libraries begin at HELLO).
        conn.lastBeat = clock.now();
        if (conn.session) conn.session.lastActivity = conn.lastBeat;
        ws.send(ACK_FRAME);
        return;
      }
      case OP.IDENTIFY:
        if (conn.state !== "awaiting") return invalidate(conn);
        return onIdentify(conn, frame.d);
      case OP.RESUME:
        if (conn.state !== "awaiting") return invalidate(conn);
        return onResume(conn, frame.d);
      case OP.PRESENCE_UPDATE:
      case OP.VOICE_STATE_UPDATE:
      case OP.REQUEST_GUILD_MEMBERS:
        // Accepted and ignored once identified; before that there is nothing to apply them to.
        if (conn.state !== "active") return invalidate(conn);
        return;
      default:
        return invalidate(conn);
    }
  }

  // ---- events from the core ----

  const audience = { hasSessions: (botUserId: string) => byBot.has(botUserId), guildBots: (guildId: string) => guildBots.of(guildId) };

  function onEvent(e: DomainEvent) {
    guildCreates.clear();
    if (GuildBots.changes(e)) guildBots.clear();
    switch (e.type) {
      case "application.token_rotated":
        return endSessionsOfApp(e.applicationId);
      case "application.deleted":
        return endSessionsOfApp(e.applicationId);
      case "world.reset":
        return closeAll();
    }
    if (byBot.size === 0) return; // nobody listening: no serialization work at all
    const now = clock.now();
    for (const del of deliveriesFor(api, e, audience, guildCreates)) {
      const live: Session[] = [];
      const ds: string[] = [];
      for (const bot of del.bots) {
        const set = byBot.get(bot);
        if (!set) continue;
        for (const s of set) {
          if (del.intent && (s.intents & del.intent) === 0) continue;
          if (s.cohort) {
            live.push(s);
            ds.push(del.payload(s));
          } else if (!del.liveOnly) push(s, del.t, del.payload(s), now);
        }
      }
      if (live.length) cohorts.send(del.t, live, ds, now, sink, del.perBot);
    }
  }

  /** Rotation or deletion: live sessions get op 9 and close; none can be resumed. */
  function endSessionsOfApp(appId: string) {
    for (const s of [...sessions.values()]) {
      if (s.owner.appId !== appId) continue;
      const conn = s.conn;
      if (conn) invalidate(conn);
      else dropSession(s);
    }
  }

  core.bus.subscribe(onEvent);

  function closeAll() {
    for (const conn of [...conns]) {
      conn.session = null;
      closeConn(conn, CLOSE_PLAIN);
    }
    for (const s of [...sessions.values()]) dropSession(s);
    events?.clear();
  }

  return {
    websocket: {
      // The heartbeat contract is the liveness check; Bun's own idle timeout would
      // otherwise cut a socket the spec keeps open.
      idleTimeout: 0,
      maxPayloadLength: MAX_INBOUND_BYTES * 4,
      perMessageDeflate: false,
      open(ws) {
        const now = clock.now();
        const conn: Conn = { ws: ws as never, state: "awaiting", session: null, lastBeat: now, firstFrameTimer: null, zombieTimer: null };
        ws.data.conn = conn;
        conns.add(conn);
        ws.send(HELLO_FRAME);
        conn.firstFrameTimer = clock.setTimeout(() => {
          conn.firstFrameTimer = null;
          if (conn.state === "awaiting") closeConn(conn, CLOSE_PLAIN);
        }, FIRST_FRAME_DEADLINE_MS);
        armZombie(conn);
      },
      message(ws, raw) {
        onMessage(ws, raw);
      },
      close(ws) {
        const conn = ws.data.conn;
        if (!conn) return;
        conn.firstFrameTimer?.cancel();
        conn.zombieTimer?.cancel();
        conn.firstFrameTimer = conn.zombieTimer = null;
        conn.state = "closed";
        detach(conn);
        conns.delete(conn);
      },
    },
    upgrade(req, server) {
      // Query parameters (v, encoding, compress) are accepted and ignored (spec 6.1).
      cohorts.server = server as Server<unknown>;
      if (server.upgrade(req, { data: { connId: nextConn++ } })) return new Response(null, { status: 101 });
      return new Response(JSON.stringify({ code: 0, message: "WebSocket upgrade required" }), {
        status: 400,
        headers: { "Content-Type": "application/json" },
      });
    },
    closeAll,
    hasLiveSession(botUserId) {
      const set = byBot.get(botUserId);
      if (!set) return false;
      for (const s of set) if (s.live) return true;
      return false;
    },
    sessionsOf(applicationId) {
      const out: SessionInfo[] = [];
      for (const s of sessions.values())
        if (s.owner.appId === applicationId) out.push({ session_id: s.id, intents: s.intents, connected: s.live, seq: s.seq });
      return out;
    },
    events,
    cohortSizes() {
      return [...cohorts.all].map((c) => c.members.size).sort((a, b) => b - a);
    },
    disconnect(sessionId, code = CLOSE_HEARTBEAT_TIMEOUT) {
      const s = sessions.get(sessionId);
      if (!s?.conn) return false;
      closeConn(s.conn, code);
      return true;
    },
  };
}
