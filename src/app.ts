/**
 * The composition root: builds the clock, store, core, the snowflake boundary and every
 * surface once from the validated config, handing each surface the narrow context it
 * declares (botapi/context.ts, gateway/context.ts, clientapi/context.ts,
 * harness/context.ts). No module-level singletons anywhere else.
 */
import { Elysia } from "elysia";
import type { Server, WebSocketHandler } from "bun";
import type { Config, Urls } from "./config";
import { SwitchableClock } from "./core/clock";
import { Store } from "./store/db";
import { serverKey } from "./store/keyfile";
import { createCore, type Core } from "./core";
import { Snowflakes } from "./wire/snowflakes";
import { jsonResponse } from "./wire/http";
import { screenBotApiRequest, screenRequest } from "./wire/screen";
import { pathnameOf, SERVER_MAX_BODY } from "./wire/body";
import { RateLimiter, rateLimitHeaders } from "./botapi/ratelimit";
import type { BotApi } from "./botapi/context";
import { botApiPlugin, botApiServerRoutes } from "./botapi";
import { createGateway, type Gateway, type GatewayHooks, type GatewaySocketData } from "./gateway";
import { harnessPlugin } from "./harness";
import type { EventLog } from "./harness/eventlog";
import { createDouble } from "./harness/double";
import type { LimitHeaders } from "./harness/hooks";
import { clientApiPlugin } from "./clientapi";
import { PeopleLimits } from "./clientapi/limits";
import { rememberAddress } from "./wire/throttle";
import { createLive, type Live, type LiveSocketData } from "./clientapi/live";
import type { ClientContext } from "./clientapi/context";
import { webRoutes } from "./web";
import { seedWorld, seedWorldAsync, type SeedAnswer } from "./harness/seed";

export interface Parley {
  config: Config;
  clock: SwitchableClock;
  /** The database, for tests and tools that inspect it; surfaces never get it. */
  store: Store;
  core: Core;
  api: BotApi;
  gateway: Gateway;
  /** The people's live connections (/api/client/v1/live). */
  live: Live;
  http: Elysia<any, any, any, any, any, any, any>;
  /** Dispatch frames sent to bots (test mode only). */
  events: EventLog | null;
  /** In-process request handling (tests use this without a socket). */
  handle(req: Request): Promise<Response>;
  listen(): Server<GatewaySocketData>;
  server: Server<GatewaySocketData> | null;
  stop(): Promise<void>;
  /** Create a world document (design/harness.md) in one transaction. */
  seed(doc: unknown): SeedAnswer;
  /** Empty the world: every table, every session, every window; real time again. */
  reset(): void;
}

export function createParley(config: Config): Parley {
  const clock = new SwitchableClock();
  const store = new Store({ path: config.dbPath, synchronous: config.synchronous });
  const core = createCore({ clock, store, key: serverKey(config.dbPath) });
  const flakes = new Snowflakes(core.idmap);
  const urls: Urls = placeholderUrls(config);
  const limiter = new RateLimiter(clock, config.rateLimits);
  const api: BotApi = { core, flakes, limiter, urls, hooks: [] };
  // Test mode: the harness's event log, faults and transcripts act and watch through the hooks.
  const double = config.harness ? createDouble({ core, flakes, limitHeaders: limitHeadersOf(limiter, clock) }) : null;
  if (double) api.hooks.push(...double.requestHooks);
  const events = double?.events ?? null;
  const peopleLimits = new PeopleLimits(clock);
  const gateway = createGateway({
    core,
    flakes,
    urls,
    hooks: [...(double?.gatewayHooks ?? []), botPresence(core)],
    heartbeatIntervalMs: config.heartbeatIntervalMs,
  });
  const people: ClientContext = { core, flakes, bots: gateway, limits: peopleLimits };
  const live = createLive(people);

  const http = httpApp(api);

  const parley: Parley = {
    config,
    clock,
    store,
    core,
    api,
    gateway,
    live,
    http,
    events,
    server: null,
    handle: (req) => http.handle(req),
    listen() {
      // Nobody is connected yet, whatever a process that stopped abruptly left behind.
      core.users.resetPresences();
      const server = serve(config, http, gateway, live, botApiServerRoutes(api, screenBotApiRequest, (req) => http.fetch(req)));
      parley.server = server;
      Object.assign(urls, publicUrls(config, server.port));
      return server;
    },
    seed: (doc) => seedWorld({ core, flakes, clock }, doc),
    reset() {
      // Live connections close with 4004 when the wipe publishes world.reset.
      gateway.closeAll();
      clock.clearTimers();
      clock.reset();
      api.limiter.reset();
      peopleLimits.reset();
      flakes.clearCache();
      double?.clear();
      core.wipe();
    },
    async stop() {
      live.closeAll();
      gateway.closeAll();
      clock.clearTimers();
      parley.server?.stop(true);
      parley.server = null;
      core.close();
    },
  };
  http.use(clientApiPlugin(people));
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  if (double)
    http.use(harnessPlugin({ core, flakes, clock, gateway, ...double, reset: () => parley.reset(), seed: (doc) => seedWorldAsync({ core, flakes, clock }, doc) }));
  return parley;
}

/** The HTTP surfaces' one Elysia app: the request screen, the fallback error answers, the bot API (the others are added by createParley). */
function httpApp(api: BotApi) {
  return (
    new Elysia()
      // Oversized bodies, and cross-site requests to the people's API and harness, end here (docs/security.md).
      // Written so that Elysia does not take it for async: it would await every request (src/botapi/index.ts).
      .onRequest(({ request }) => {
        const refused = screenRequest(request, api.urls);
        if (refused) return refused;
      })
      .onError(({ code, error }) => {
        if (code === "NOT_FOUND") return jsonResponse(404, { code: 0, message: "404: Not Found" });
        if (code === "PARSE" || code === "VALIDATION") return jsonResponse(400, { code: 50035, message: "Invalid Form Body" });
        console.error("unhandled:", error);
        return jsonResponse(500, { code: 0, message: "500: Internal Server Error" });
      })
      .use(botApiPlugin(api))
  );
}

/** The public addresses once the server listens: configured, or derived from where it listens. */
function publicUrls(config: Config, port: number | undefined): Urls {
  const base = config.baseUrl ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  return { base, gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`, portal: config.portalUrl ?? base };
}

function serve(
  config: Config,
  http: Elysia<any, any, any, any, any, any, any>,
  gateway: Gateway,
  live: Live,
  botRoutes: ReturnType<typeof botApiServerRoutes>,
): Server<GatewaySocketData> {
  return Bun.serve({
    port: config.port,
    hostname: config.host,
    development: false,
    // Bot API routes are matched natively first (src/botapi/index.ts); what no route matches reaches fetch.
    routes: { ...webRoutes(), ...botRoutes },
    fetch(req, srv) {
      const url = req.url;
      const path = pathStart(url);
      if (isGatewayPath(url)) return gateway.upgrade(req, srv as never);
      if (url.startsWith("/api/", path)) {
        if (pathnameOf(url) === "/api/client/v1/live") return live.upgrade(req, srv);
        // Only the people's API reads the address (its sign-in limits); a bot request skips the lookup.
        if (!url.startsWith("/api/v10", path)) rememberAddress(req, srv.requestIP(req)?.address);
      } else rememberAddress(req, srv.requestIP(req)?.address);
      return http.fetch(req);
    },
    websocket: bySurface(gateway.websocket, live.websocket),
    // Every surface refuses bodies over its own, far smaller limit with a JSON body (wire/body.ts).
    maxRequestBodySize: SERVER_MAX_BODY,
    // A throw that escaped every handler: still the spec's body, never a stack.
    error: () => jsonResponse(500, { code: 0, message: "500: Internal Server Error" }),
  }) as Server<never> as Server<GatewaySocketData>;
}

/** The start of a URL's path (after "scheme://host[:port]"), found without parsing the whole URL: every request asks. */
function pathStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/** Whether a request's path is /gateway or /gateway/. */
export function isGatewayPath(url: string): boolean {
  const path = pathStart(url);
  if (path < 0 || !url.startsWith("/gateway", path)) return false;
  const rest = url.slice(path + 8).replace(/[?#].*$/, "");
  return rest === "" || rest === "/";
}

/** Two kinds of sockets on one server: a live connection's data says which it is. */
function bySurface(gw: WebSocketHandler<GatewaySocketData>, lv: WebSocketHandler<LiveSocketData>): WebSocketHandler<GatewaySocketData | LiveSocketData> {
  const isLive = (ws: { data: GatewaySocketData | LiveSocketData }) => "live" in ws.data;
  return {
    ...(gw as WebSocketHandler<GatewaySocketData | LiveSocketData>),
    open: (ws) => (isLive(ws) ? lv.open?.(ws as never) : gw.open?.(ws as never)),
    message: (ws, m) => (isLive(ws) ? lv.message?.(ws as never, m) : gw.message?.(ws as never, m)),
    close: (ws, code, reason) => (isLive(ws) ? lv.close?.(ws as never, code, reason) : gw.close?.(ws as never, code, reason)),
  };
}

/**
 * A bot is online while it holds a live gateway session (people see it in member
 * lists; bots with GUILD_PRESENCES get PRESENCE_UPDATE). Going online waits for the
 * IDENTIFY or RESUME to finish, so READY stays the session's first dispatch.
 */
function botPresence(core: Core): GatewayHooks {
  const botOf = new Map<number, string>();
  const live = new Map<string, number>();
  const set = (botUserId: string, status: "online" | "offline") => {
    try {
      if (core.users.get(botUserId)?.presence !== status) core.users.setPresence(botUserId, status);
    } catch {
      // The bot is gone (its application was deleted): nothing to show.
    }
  };
  return {
    attached(connId, s) {
      const bot = s.owner.botUserId;
      botOf.set(connId, bot);
      live.set(bot, (live.get(bot) ?? 0) + 1);
      queueMicrotask(() => {
        if ((live.get(bot) ?? 0) > 0) set(bot, "online");
      });
    },
    closed(connId) {
      const bot = botOf.get(connId);
      if (!bot) return;
      botOf.delete(connId);
      const n = (live.get(bot) ?? 1) - 1;
      if (n > 0) return void live.set(bot, n);
      live.delete(bot);
      set(bot, "offline");
    },
  };
}

function placeholderUrls(config: Config): Urls {
  const base = config.baseUrl ?? `http://${config.host}:${config.port}`;
  return {
    base,
    gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`,
    portal: config.portalUrl ?? base,
  };
}

/** Rate-limit headers for answers a harness fault gives instead of a route (spec 8.1 rule 4). */
function limitHeadersOf(limiter: RateLimiter, clock: SwitchableClock): LimitHeaders {
  return (method, template, w) => {
    const now = clock.now();
    const rule = limiter.rule(method, template);
    const state = { limit: rule.limit, remaining: w.remaining ?? rule.limit, resetAt: now + (w.resetAfterMs ?? rule.windowMs), bucket: limiter.bucket(method, template) };
    return rateLimitHeaders(state, now);
  };
}
