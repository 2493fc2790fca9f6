/**
 * The gateway (spec 3.2, 5, 6): Bun's native WebSocket server at /gateway, as named
 * parts: the session registry (registry.ts), the connection handler (connection.ts),
 * domain events to dispatches (dispatch.ts), intent filtering (intents.ts) and fan-out
 * by cohort (cohorts.ts). Sessions, replay rings and deadlines live in memory; every
 * deadline is a timer on the shared clock, so a virtual clock drives them in tests.
 */
import type { Server, WebSocketHandler } from "bun";
import type { DomainEvent } from "../core/events";
import type { GatewayContext } from "./context";
import { CLOSE_HEARTBEAT_TIMEOUT, dispatchFrame, MAX_BUFFERED_BYTES, MAX_INBOUND_BYTES } from "./protocol";
import type { FrameSink, Session } from "./session";
import { Cohorts } from "./cohorts";
import { SessionRegistry, type SessionInfo } from "./registry";
import { Connections, type GatewaySocketData, type Push } from "./connection";
import { GuildBots, GuildCreateCache } from "./caches";
import { Dispatcher } from "./dispatch";
import type { Audience, Delivery } from "./deliveries";
import { hears, seesPresences } from "./intents";

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
  /**
   * Sizes of the fan-out cohorts (live sessions sharing seq and intents, one publish per
   * frame each), largest first: how well fan-out is grouped, for tests and the bench.
   */
  cohortSizes(): number[];
}

export function createGateway(ctx: GatewayContext): Gateway {
  const { core } = ctx;
  let nextConn = 1;
  // Topics are per server; the prefix only keeps them readable apart from anything else published.
  const cohorts = new Cohorts("gw:");
  const registry = new SessionRegistry(core.clock, cohorts, () => guildBots.clear());
  const guildBots = new GuildBots(ctx, (botUserId) => registry.hasSessions(botUserId));
  const guildCreates = new GuildCreateCache(ctx);
  const dispatchHooks = ctx.hooks.filter((h) => h.dispatched);
  // Called for every frame of every session: one hook (the metrics) is called directly.
  const only = dispatchHooks.length === 1 ? dispatchHooks[0] : null;
  const sink: FrameSink | null = only
    ? (s, frame) => only.dispatched!(s, frame)
    : dispatchHooks.length
      ? (s, frame) => {
          for (const h of dispatchHooks) h.dispatched!(s, frame);
        }
      : null;
  const audience: Audience = {
    hasSessions: (botUserId) => registry.hasSessions(botUserId),
    guildBots: (guildId) => guildBots.of(guildId),
    dmBots: (channelId) => core.dms.recipients(channelId).filter((id) => registry.hasSessions(id)),
  };
  const dispatcher = new Dispatcher(ctx, audience, guildCreates);

  /** Number, record and (when live) send one dispatch to one session. */
  function push(s: Session, t: string, d: string, now: number) {
    if (s.cohort) return cohorts.send(t, [s], [d], now, sink);
    const seq = s.seq + 1;
    s.record(t, d, seq, now);
    sink?.(s, dispatchFrame(t, seq, d), t, seq);
  }

  const connections = new Connections(ctx, registry, cohorts, push, (g, s) => guildCreates.payload(g, s.owner.botUserId, seesPresences(s)));

  const scratch: Scratch = { live: [], ds: [], busy: false };

  /** Fan a domain event out: live sessions by cohort, closed ones into their rings for RESUME. */
  function onEvent(e: DomainEvent) {
    guildCreates.onEvent(e);
    if (GuildBots.changes(e)) guildBots.clear();
    if (e.type === "application.token_rotated" || e.type === "application.deleted") return connections.endSessionsOfApp(e.applicationId);
    if (e.type === "world.reset") return connections.closeAll();
    if (registry.size === 0) return; // nobody listening: no serialization work at all
    const now = core.clock.now();
    for (const del of dispatcher.deliveriesFor(e)) fanOut(del, registry, cohorts, push, scratch, now, sink);
  }
  core.bus.subscribe(onEvent);

  return {
    websocket: socketHandler(connections),
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
    hasLiveSession: (botUserId) => registry.hasLive(botUserId),
    sessionsOf: (applicationId) => registry.info(applicationId),
    disconnect: (sessionId, code = CLOSE_HEARTBEAT_TIMEOUT) => connections.disconnect(sessionId, code),
    invalidate: (sessionId) => connections.invalidateSession(sessionId),
    cohortSizes: () => [...cohorts.all].map((c) => c.members.size).sort((a, b) => b - a),
  };
}

function socketHandler(connections: Connections): WebSocketHandler<GatewaySocketData> {
  return {
    // The heartbeat contract is the liveness check; Bun's own idle timeout would
    // otherwise cut a socket the spec keeps open.
    idleTimeout: 0,
    maxPayloadLength: MAX_INBOUND_BYTES * 4,
    perMessageDeflate: false,
    // A client that stops reading is closed once this much waits for it (sends and publishes alike).
    backpressureLimit: MAX_BUFFERED_BYTES,
    closeOnBackpressureLimit: true,
    open: (ws) => connections.open(ws),
    message: (ws, raw) => connections.message(ws, raw),
    close: (ws) => connections.closed(ws),
  };
}

/** Arrays a fan-out fills, reused from event to event. */
interface Scratch {
  live: Session[];
  ds: string[];
  busy: boolean;
}

/** One delivery: live sessions by cohort, closed ones into their rings for RESUME. */
function fanOut(del: Delivery, registry: SessionRegistry, cohorts: Cohorts, push: Push, scratch: Scratch, now: number, sink: FrameSink | null): void {
  // Scratch arrays, reused (cohorts.send copies what it keeps); fresh ones if an event
  // arrives while these are in use (a socket closed by a send can cause a write).
  const mine = !scratch.busy;
  scratch.busy = true;
  const live = mine ? scratch.live : [];
  const ds = mine ? scratch.ds : [];
  live.length = 0;
  ds.length = 0;
  try {
    for (const bot of del.bots) {
      const sessions = registry.ofBot(bot);
      if (sessions === undefined) continue;
      for (const s of sessions) {
        if (!hears(s, del.intent)) continue;
        if (s.cohort) {
          live.push(s);
          ds.push(del.payload(s));
        } else if (!del.liveOnly) push(s, del.t, del.payload(s), now);
      }
    }
    if (live.length) cohorts.send(del.t, live, ds, now, sink, del.perBot);
  } finally {
    live.length = 0;
    ds.length = 0;
    if (mine) scratch.busy = false;
  }
}
