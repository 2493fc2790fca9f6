/**
 * The people's live connection (/api/client/v1/live, docs/people-api.md "Live
 * connection"): a WebSocket that delivers, as the people's API's own JSON, everything a
 * person's screen shows. The session token comes in the first frame, never in the URL
 * (URLs end up in logs). A person with a connection open is online; the last one
 * closing, on any node, takes them offline (core/presence.ts). Events are numbered by
 * the server and kept per person (live-streams.ts), so a reconnecting client resumes
 * from its last one; an event that a whole server's members get alike is one publish to
 * that server's topic.
 */
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import type { ClientContext, ClientCore } from "./context";
import type { DomainEvent, SessionEndReason } from "../core";
import { meView } from "./views";
import { LiveDispatcher, type LiveDelivery } from "./live-events";
import { eventFrame, Streams, type LiveConn, type Stream } from "./live-streams";

/** The first frame must arrive within this. */
export const HELLO_DEADLINE_MS = 10_000;
/** A connection silent for this long is closed (clients ping every 25 s or so). */
export const IDLE_TIMEOUT_MS = 75_000;
const MAX_FRAME = 4096;

/** Close codes (docs/people-api.md); 4001 also when the connection's session ends, the reason saying why. */
export const LIVE_CLOSE = { NOT_AUTHENTICATED: 4001, BAD_FRAME: 4002, TIMEOUT: 4003, RESET: 4004 } as const;

export interface LiveSocketData {
  live: true;
  connId: number;
  conn?: LiveConn;
}

type WS = ServerWebSocket<LiveSocketData>;

export interface Live {
  websocket: WebSocketHandler<LiveSocketData>;
  upgrade(req: Request, server: Server<any>): Response | undefined;
  /** Close every connection and forget every stream (shutdown, harness reset). */
  closeAll(): void;
  /** Open, authenticated connections (for tests and the bench). */
  connections(): number;
}

export function createLive(p: ClientContext): Live {
  const conns = new LiveConnections(p);
  let nextConn = 1;
  p.core.bus.subscribe((e) => conns.onEvent(e));
  return {
    websocket: {
      idleTimeout: 0,
      maxPayloadLength: MAX_FRAME * 4,
      perMessageDeflate: false,
      open: (ws) => conns.open(ws),
      message: (ws, raw) => conns.message(ws, raw),
      close(ws) {
        if (ws.data.conn) conns.close(ws.data.conn, null);
      },
    },
    upgrade(req, server) {
      conns.server = server as Server<LiveSocketData>;
      if (conns.server.upgrade(req, { data: { live: true, connId: nextConn++ } })) return undefined;
      return new Response(JSON.stringify({ code: 0, message: "WebSocket upgrade required" }), {
        status: 400,
        headers: { "Content-Type": "application/json" },
      });
    },
    closeAll: () => conns.closeAll(1001, "Server stopping"),
    connections: () => conns.openCount(),
  };
}

/** Every live connection: its first frame and deadlines, presence, and the fan-out of events. */
class LiveConnections {
  /** Known once a socket has been upgraded: the server that publishes to topics. */
  server: Server<LiveSocketData> | null = null;
  /** The server's event sequence: every frame sent carries the next number. */
  private seq = 0;
  private readonly core: ClientCore;
  private readonly streams: Streams;
  private readonly dispatcher: LiveDispatcher;
  private readonly conns = new Set<LiveConn>();

  constructor(p: ClientContext) {
    this.core = p.core;
    this.streams = new Streams(p.core.clock);
    this.dispatcher = new LiveDispatcher(p.core, p.flakes.media, p.flakes.files);
  }

  private get clock() {
    return this.core.clock;
  }

  open(ws: WS): void {
    const conn: LiveConn = {
      id: ws.data.connId,
      ws,
      state: "awaiting",
      userId: null,
      sessionId: null,
      stream: null,
      lastFrame: this.clock.now(),
      timer: null,
    };
    ws.data.conn = conn;
    this.conns.add(conn);
    conn.timer = this.clock.setTimeout(() => {
      conn.timer = null;
      if (conn.state === "awaiting") this.close(conn, LIVE_CLOSE.NOT_AUTHENTICATED, "No hello in time");
    }, HELLO_DEADLINE_MS);
  }

  /** The one close path: the core hears of each connection closing (the last one anywhere takes the person offline). */
  close(conn: LiveConn, code: number | null, reason = ""): void {
    if (conn.state === "closed") return;
    const wasOpen = conn.state === "open";
    conn.state = "closed";
    conn.timer?.cancel();
    conn.timer = null;
    this.conns.delete(conn);
    const s = conn.stream;
    if (s && wasOpen) {
      s.conns.delete(conn);
      if (!s.conns.size) this.streams.release(s);
      this.core.presence.disconnected(s.userId);
    }
    if (code === null) return;
    try {
      conn.ws.close(code, reason);
    } catch {
      // Already closing on the client's side.
    }
  }

  closeAll(code: number, reason: string): void {
    for (const c of [...this.conns]) this.close(c, code, reason);
    this.streams.clear();
  }

  openCount(): number {
    let n = 0;
    for (const c of this.conns) if (c.state === "open") n++;
    return n;
  }

  message(ws: WS, raw: string | Buffer): void {
    const conn = ws.data.conn;
    if (!conn || conn.state === "closed") return;
    const frame = typeof raw === "string" && raw.length <= MAX_FRAME ? parseObject(raw) : null;
    if (!frame) return this.close(conn, LIVE_CLOSE.BAD_FRAME, "Frames are JSON objects");
    conn.lastFrame = this.clock.now();
    if (conn.state === "awaiting")
      return frame.op === "hello" ? this.hello(conn, frame) : this.close(conn, LIVE_CLOSE.NOT_AUTHENTICATED, "Say hello first");
    if (frame.op === "ping") return this.ping(conn);
    this.close(conn, LIVE_CLOSE.BAD_FRAME, "Unknown op");
  }

  /** A ping is the session in use: answered while it lasts; once it has ended or expired, the connection closes. */
  private ping(conn: LiveConn): void {
    if (!this.core.sessions.keepAlive(conn.sessionId!)) return this.close(conn, LIVE_CLOSE.NOT_AUTHENTICATED, "Session ended");
    conn.ws.sendText('{"op":"pong"}');
  }

  private hello(conn: LiveConn, frame: Record<string, unknown>): void {
    const signedIn = typeof frame.token === "string" ? this.core.sessions.authenticate(frame.token) : null;
    if (!signedIn) return this.close(conn, LIVE_CLOSE.NOT_AUTHENTICATED, "Not authenticated");
    const me = signedIn.user;
    conn.sessionId = signedIn.session.id;
    conn.timer?.cancel();
    const resume = frame.resume as { stream?: unknown; seq?: unknown } | undefined;
    const resumable = !!resume && this.streams.of(me.id)?.id === resume.stream;
    const s: Stream = this.streams.open(me.id, this.seq);
    // Going online first: the presence event is numbered before ready, and ready shows it.
    this.core.presence.connected(me.id);
    const replay = resumable ? s.after(Number(resume!.seq), this.seq) : null;
    conn.state = "open";
    conn.userId = me.id;
    conn.stream = s;
    s.conns.add(conn);
    for (const g of this.core.guilds.guildIdsOf(me.id)) conn.ws.subscribe(topicOf(g));
    const user = meView(this.core.users.get(me.id) ?? me);
    conn.ws.sendText(JSON.stringify({ op: "ready", stream: s.id, seq: this.seq, resumed: replay !== null, user }));
    for (const f of replay ?? []) conn.ws.sendText(f);
    this.armIdle(conn);
  }

  private armIdle(conn: LiveConn): void {
    conn.timer = this.clock.setTimeout(
      () => {
        conn.timer = null;
        if (conn.state !== "open") return;
        if (this.clock.now() - conn.lastFrame >= IDLE_TIMEOUT_MS) return this.close(conn, LIVE_CLOSE.TIMEOUT, "No ping within 75 s");
        this.armIdle(conn);
      },
      IDLE_TIMEOUT_MS - (this.clock.now() - conn.lastFrame),
    );
  }

  /** Fan an event out: each person in its audience who has a stream gets it, numbered. */
  onEvent(e: DomainEvent): void {
    if (e.type === "world.reset") this.closeAll(LIVE_CLOSE.RESET, "World reset");
    if (e.type === "person.sessions_ended") return this.sessionsEnded(e.sessionIds, e.reason);
    this.dispatcher.observe(e);
    if (this.streams.size === 0) return; // nobody listening: no reads, no serialization
    this.follow(e);
    for (const d of this.dispatcher.deliveriesFor(e)) this.deliver(d);
  }

  /**
   * Sessions ended (in this process or another): their connections close as a bad hello
   * would, the reason naming why (a SessionEndReason), for the client to tell the person.
   */
  private sessionsEnded(ids: string[], reason: SessionEndReason): void {
    const ended = new Set(ids);
    for (const c of [...this.conns])
      if (c.sessionId !== null && ended.has(c.sessionId)) this.close(c, LIVE_CLOSE.NOT_AUTHENTICATED, reason);
  }

  /**
   * One number per delivery. A server-wide view is recorded in each member's ring and
   * published once to the server's topic, whose subscribers are exactly the open
   * connections of its members (follow() keeps them so); any other view goes to each
   * person's connections.
   */
  private deliver(d: LiveDelivery): void {
    let seq = 0;
    if (d.topic && this.server) {
      let frame: string | null = null;
      for (const u of d.users) {
        const s = this.streams.of(u);
        if (!s) continue;
        frame ??= eventFrame((seq = ++this.seq), d.type, d.data(u));
        s.record(seq, frame);
      }
      if (frame) this.server.publish(topicOf(d.topic), frame);
      return;
    }
    for (const u of d.users) {
      const s = this.streams.of(u);
      if (!s) continue;
      seq ||= ++this.seq;
      s.push(seq, eventFrame(seq, d.type, d.data(u)));
    }
  }

  /** Connections follow their person into and out of servers' topics. */
  private follow(e: DomainEvent): void {
    const each = (users: Iterable<string>, guildId: string, on: boolean) => {
      for (const u of users)
        for (const c of this.streams.of(u)?.conns ?? []) on ? c.ws.subscribe(topicOf(guildId)) : c.ws.unsubscribe(topicOf(guildId));
    };
    if (e.type === "member.added" || e.type === "member.removed") each([e.userId], e.guildId, e.type === "member.added");
    else if (e.type === "guild.created") each(this.core.guilds.memberIds(e.guildId), e.guildId, true);
    else if (e.type === "guild.deleted") each(e.memberIds, e.guildId, false);
  }
}

function topicOf(guildId: string): string {
  return `lv:${guildId}`;
}

function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
