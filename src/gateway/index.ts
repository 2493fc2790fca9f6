/**
 * The gateway (spec 3.2, 5, 6): Bun's native WebSocket server at /gateway, as named
 * parts: the session registry (registry.ts), the connection handler (connection.ts),
 * domain events to dispatches (dispatch.ts), intent filtering (intents.ts) and fan-out
 * by cohort (fanout.ts, cohorts.ts, plans.ts). Sessions, replay rings and deadlines live
 * in memory (and sessions and rings in Redis too with `--redis`, shared-sessions.ts); every deadline is a timer on the shared clock, so a virtual clock drives
 * them in tests.
 */
import { reportToStderr, type DomainEvent, type Report } from "../core";
import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { storeUnavailable } from "../wire/errors";
import { fastPathOn, type GatewayContext, type GatewayHooks } from "./context";
import { CLOSE_HEARTBEAT_TIMEOUT, CLOSE_UNKNOWN_ERROR, dispatchFrame, MAX_BUFFERED_BYTES, MAX_INBOUND_BYTES } from "./protocol";
import type { FrameSink, Session } from "./session";
import { Cohorts } from "./cohorts";
import { SessionRegistry, type SessionInfo } from "./registry";
import { Connections, type GatewaySocketData } from "./connection";
import { GuildBots, GuildCreateCache } from "./caches";
import { Dispatcher } from "./dispatch";
import type { Audience } from "./deliveries";
import { FanOut } from "./fanout";
import { seesPresences } from "./intents";
import type { SharedSessions } from "./shared-sessions";
import { Claims } from "./claims";

export type { GatewaySocketData } from "./connection";
export type { SessionInfo } from "./registry";
export type { GatewayContext, GatewayHooks, SessionRef } from "./context";

export interface Gateway {
  websocket: WebSocketHandler<GatewaySocketData>;
  /** Upgrade a request for the gateway path; a JSON 400 when it is not a WebSocket request. */
  upgrade(req: Request, server: Server<GatewaySocketData>): Response | undefined;
  /**
   * Close every socket and forget every session (harness reset: 1000; shutdown: 4000, so
   * libraries reconnect). Answers how many sockets were open.
   */
  closeAll(code?: number): number;
  /**
   * A clean stop, on a node sharing its sessions through Redis: hand them over (written,
   * and claimable on another node with every frame) instead of ending them at closeAll.
   * Answers whether they were; false, and nothing to do, without --redis.
   */
  handOver(): Promise<boolean>;
  /** Whether the bot user has at least one live (connected, identified) session. */
  hasLiveSession(botUserId: string): boolean;
  /** The application's known (unexpired) sessions, for the harness. */
  sessionsOf(applicationId: string): SessionInfo[];
  /**
   * Close a session's socket with a code as the server would (4000 keeps it resumable);
   * false when the session is unknown or not connected. Tests and tools use this.
   */
  disconnect(sessionId: string, code?: number): boolean;
  /** Op 9 (d false) and a plain close for a live session, which cannot be resumed; false when not connected. */
  invalidate(sessionId: string): boolean;
  /** The clock is about to jump to `until`: live sockets count as heartbeating through it (connection.ts). */
  carryThrough(until: number): void;
  /**
   * Sizes of the fan-out cohorts (live sessions sharing seq and intents, one publish per
   * frame each), largest first: how well fan-out is grouped, for tests and the bench.
   */
  cohortSizes(): number[];
  /** Deliveries that visited every session, and those that followed a remembered plan (fanout.ts), for tests. */
  fanOutCounts(): { visits: number; planned: number };
}

export function createGateway(ctx: GatewayContext): Gateway {
  const { core } = ctx;
  let nextConn = 1;
  const hooked = frameHooks(ctx.hooks);
  const { count } = hooked;
  const shared = ctx.sessions ?? null;
  // Nodes sharing sessions hand a session taken over from another node what it missed there (claims.ts).
  const claims = shared ? new Claims(shared, core.bus, core.clock) : null;
  // Nodes sharing sessions write every frame to Redis as well (shared-sessions.ts); a single node's sink is untouched.
  const sink: FrameSink | null = shared && claims ? withShared(hooked.sink, shared, claims) : hooked.sink;
  // Topics are per server; the prefix only keeps them readable apart from anything else published.
  const cohorts = new Cohorts("gw:", sink, count, { grouped: fastPathOn(ctx, "cohorts"), rings: fastPathOn(ctx, "cohortRings") });
  const registry = new SessionRegistry(core.clock, cohorts, () => guildBots.clear(), shared && ((s) => shared.forgotten(s)));
  const guildBots = new GuildBots(ctx, (botUserId) => registry.hasSessions(botUserId));
  const guildCreates = new GuildCreateCache(ctx);
  const audience: Audience = {
    hasSessions: (botUserId) => registry.hasSessions(botUserId),
    guildBots: (guildId) => guildBots.of(guildId),
    dmBots: (channelId) => core.dms.recipients(channelId).filter((id) => registry.hasSessions(id)),
  };
  const dispatcher = new Dispatcher(ctx, audience, guildCreates);

  /** Number, record and (when live) send one dispatch to one session. */
  function push(s: Session, t: string, d: string, now: number) {
    if (s.cohort) return void cohorts.send(t, [s], [d], now);
    const seq = s.seq + 1;
    s.record(t, d, seq, now);
    count?.(1);
    sink?.(s, dispatchFrame(t, seq, d), t, seq);
  }

  const readyGuild = (g: string, s: Session) => guildCreates.payload(g, s.owner.botUserId, seesPresences(s), true);
  const connections = new Connections(ctx, registry, cohorts, push, readyGuild, claims);

  claims?.deriveWith((e) => dispatcher.deliveriesFor(e), push);
  const published = () => core.bus.order.through();
  shared?.attach({ lose: (s) => connections.lose(s), holds: (s) => registry.get(s.id) === s, all: () => registry.all(), published });

  const fanOut = new FanOut(registry, cohorts, push, fastPathOn(ctx, "plans"));

  /** Fan a domain event out: live sessions by cohort, closed ones into their rings for RESUME. */
  function onEvent(e: DomainEvent) {
    claims?.heard.add(core.bus.at, e);
    guildCreates.onEvent(e);
    if (GuildBots.changes(e)) guildBots.clear();
    // Whichever process ended the credential: a command beside the server relays its events here (store/relay.ts).
    if (e.type === "application.token_rotated" || e.type === "application.deleted" || e.type === "application.disabled")
      return connections.endSessionsOfApp(e.applicationId);
    if (e.type === "application.intents_changed") return connections.endSessionsBeyondGrant(e.applicationId);
    if (e.type === "world.reset") return connections.closeAll();
    if (registry.size === 0) return; // nobody listening: no serialization work at all
    const now = core.clock.now();
    for (const del of dispatcher.deliveriesFor(e)) fanOut.deliver(del, now);
  }
  core.bus.subscribe(onEvent);

  return {
    websocket: socketHandler(connections, ctx.report ?? reportToStderr),
    upgrade(req, server) {
      // Query parameters (v, encoding, compress) are accepted and ignored (spec 6.1).
      cohorts.server = server as Server<unknown>;
      if (server.upgrade(req, { data: { connId: nextConn++ } })) return new Response(null, { status: 101 });
      return new Response(JSON.stringify({ code: 0, message: "WebSocket upgrade required" }), {
        status: 400,
        headers: { "Content-Type": "application/json" },
      });
    },
    closeAll: (code) => connections.closeAll(code),
    handOver: () => shared?.handOver() ?? Promise.resolve(false),
    hasLiveSession: (botUserId) => registry.hasLive(botUserId),
    sessionsOf: (applicationId) => registry.info(applicationId),
    disconnect: (sessionId, code = CLOSE_HEARTBEAT_TIMEOUT) => connections.disconnect(sessionId, code),
    invalidate: (sessionId) => connections.invalidateSession(sessionId),
    carryThrough: (until) => connections.carryThrough(until),
    cohortSizes: () => [...cohorts.all].map((c) => c.members.size).sort((a, b) => b - a),
    fanOutCounts: () => ({ ...fanOut.counts }),
  };
}

/**
 * The hooks told of numbered frames: those that see each one (the harness's log) as one
 * sink, called per session and frame; those that only count (the metrics) as one counter,
 * called once per publish with how many sessions it numbered for.
 */
function frameHooks(hooks: GatewayHooks[]): { sink: FrameSink | null; count: ((n: number) => void) | null } {
  const seeing = hooks.filter((h) => h.dispatched);
  const counting = hooks.filter((h) => h.numbered);
  const sink: FrameSink | null = !seeing.length
    ? null
    : seeing.length === 1
      ? (s, frame) => seeing[0].dispatched!(s, frame)
      : (s, frame) => {
          for (const h of seeing) h.dispatched!(s, frame);
        };
  const count = !counting.length
    ? null
    : (n: number) => {
        for (const h of counting) h.numbered!(n);
      };
  return { sink, count };
}

/** The hooks' sink, and the shared store's record of every frame, with its event's commit number. */
function withShared(sink: FrameSink | null, shared: SharedSessions, claims: Claims): FrameSink {
  if (sink === null) return (s, frame) => shared.recorded(s, frame, claims.at());
  return (s, frame, t, seq) => {
    sink(s, frame, t, seq);
    shared.recorded(s, frame, claims.at());
  };
}

/**
 * Bun's socket callbacks. A handler that throws is a bug (frames are checked before they
 * are acted on): it is reported with the surface's name, and the socket goes on as Bun
 * would have let it, rather than the error reaching Bun's own stderr line. Only the
 * store's "not now" (Postgres timed out or away) is no bug: the socket is closed with
 * 4000, which every library answers by connecting again (RESUME, else IDENTIFY), where
 * it would otherwise wait for a READY that never comes.
 */
function socketHandler(connections: Connections, report: Report): WebSocketHandler<GatewaySocketData> {
  const guard =
    <A extends [ServerWebSocket<GatewaySocketData>, ...unknown[]]>(fn: (...a: A) => void, closing = false) =>
    (...a: A) => {
      try {
        fn(...a);
      } catch (err) {
        report(err, { surface: "gateway" });
        if (!closing && storeUnavailable(err)) a[0].close(CLOSE_UNKNOWN_ERROR, "Unknown error");
      }
    };
  return {
    // The heartbeat contract is the liveness check; Bun's own idle timeout would
    // otherwise cut a socket the spec keeps open.
    idleTimeout: 0,
    maxPayloadLength: MAX_INBOUND_BYTES * 4,
    perMessageDeflate: false,
    // A client that stops reading is closed once this much waits for it (sends and publishes alike).
    backpressureLimit: MAX_BUFFERED_BYTES,
    closeOnBackpressureLimit: true,
    open: guard((ws) => connections.open(ws)),
    message: guard((ws, raw) => connections.message(ws, raw)),
    close: guard((ws) => connections.closed(ws), true),
  };
}
