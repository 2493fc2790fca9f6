/**
 * The composition root: builds the clock, store, core, the snowflake boundary and every
 * surface once from the validated config, handing each surface the narrow context it
 * declares (botapi/context.ts, gateway/context.ts, clientapi/context.ts,
 * harness/context.ts). No module-level singletons anywhere else.
 */
import { Elysia } from "elysia";
import type { Server } from "bun";
import type { Config, Urls } from "./config";
import { SwitchableClock } from "./core/clock";
import { Store } from "./store/db";
import { serverKey } from "./store/keyfile";
import { createCore, type Core } from "./core";
import { Snowflakes } from "./wire/snowflakes";
import { jsonResponse } from "./wire/http";
import { screenBotApiRequest, screenRequest } from "./wire/screen";
import { SERVER_MAX_BODY } from "./wire/body";
import { RateLimiter } from "./botapi/ratelimit";
import type { BotApi } from "./botapi/context";
import { botApiPlugin, botApiServerRoutes } from "./botapi";
import { createGateway, type Gateway, type GatewaySocketData } from "./gateway";
import { harnessPlugin } from "./harness";
import { EventLog } from "./harness/eventlog";
import { clientApiPlugin } from "./clientapi";
import { PeopleLimits } from "./clientapi/limits";
import { rememberAddress } from "./wire/throttle";
import { seedWorld, seedWorldAsync, type SeedAnswer } from "./harness/seed";

export interface Parley {
  config: Config;
  clock: SwitchableClock;
  /** The database, for tests and tools that inspect it; surfaces never get it. */
  store: Store;
  core: Core;
  api: BotApi;
  gateway: Gateway;
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
  const api: BotApi = { core, flakes, limiter: new RateLimiter(clock, config.rateLimits), urls, hooks: [] };
  const events = config.harness ? new EventLog() : null;
  const peopleLimits = new PeopleLimits(clock);
  const gateway = createGateway({
    core,
    flakes,
    urls,
    hooks: events ? [{ dispatched: (s, frame) => events.append(s.owner.appFlake, s.id, frame) }] : [],
  });

  const http = new Elysia()
    // Oversized bodies, and cross-site requests to the people's API and harness, end here (docs/security.md).
    // Written so that Elysia does not take it for async: it would await every request (src/botapi/index.ts).
    .onRequest(({ request }) => {
      const refused = screenRequest(request, urls);
      if (refused) return refused;
    })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return jsonResponse(404, { code: 0, message: "404: Not Found" });
      if (code === "PARSE" || code === "VALIDATION") return jsonResponse(400, { code: 50035, message: "Invalid Form Body" });
      console.error("unhandled:", error);
      return jsonResponse(500, { code: 0, message: "500: Internal Server Error" });
    })
    .use(botApiPlugin(api));

  const parley: Parley = {
    config,
    clock,
    store,
    core,
    api,
    gateway,
    http,
    events,
    server: null,
    handle: (req) => http.handle(req),
    listen() {
      const server = serve(config, gateway, http, botApiServerRoutes(api, screenBotApiRequest, (req) => http.fetch(req)));
      parley.server = server;
      const origin = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
      urls.base = config.baseUrl ?? origin;
      urls.gateway = config.gatewayUrl ?? `${urls.base.replace(/^http/, "ws")}/gateway`;
      urls.portal = config.portalUrl ?? urls.base;
      return server;
    },
    seed: (doc) => seedWorld({ core, flakes }, doc),
    reset() {
      gateway.closeAll();
      clock.clearTimers();
      clock.reset();
      api.limiter.reset();
      peopleLimits.reset();
      flakes.clearCache();
      events?.clear();
      core.wipe();
    },
    async stop() {
      gateway.closeAll();
      clock.clearTimers();
      parley.server?.stop(true);
      parley.server = null;
      core.close();
    },
  };
  http.use(clientApiPlugin({ core, flakes, bots: gateway, limits: peopleLimits }));
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  if (events)
    http.use(harnessPlugin({ core, flakes, clock, gateway, events, reset: () => parley.reset(), seed: (doc) => seedWorldAsync({ core, flakes }, doc) }));
  return parley;
}

function serve(config: Config, gateway: Gateway, http: Parley["http"], botRoutes: ReturnType<typeof botApiServerRoutes>): Server<GatewaySocketData> {
  return Bun.serve({
    port: config.port,
    hostname: config.host,
    // Bot API routes are matched natively first; everything else reaches fetch (src/botapi/index.ts).
    routes: botRoutes,
    fetch(req, srv) {
      if (isGatewayPath(req.url)) return gateway.upgrade(req, srv);
      // Only the people's API reads the address (its sign-in limits); a bot request skips the lookup.
      if (!isBotApiPath(req.url)) rememberAddress(req, srv.requestIP(req)?.address);
      return http.fetch(req);
    },
    websocket: gateway.websocket,
    // Every surface refuses bodies over its own, far smaller limit with a JSON body (wire/body.ts).
    maxRequestBodySize: SERVER_MAX_BODY,
    // A throw that escaped every handler: still the spec's body, never a stack.
    error: () => jsonResponse(500, { code: 0, message: "500: Internal Server Error" }),
  });
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

/** Whether a request is for the bot API (/api/v10, /api/v10/...). */
function isBotApiPath(url: string): boolean {
  const path = pathStart(url);
  return path >= 0 && url.startsWith("/api/v10", path) && (url.length === path + 8 || "/?#".includes(url[path + 8]));
}

function placeholderUrls(config: Config): Urls {
  const base = config.baseUrl ?? `http://${config.host}:${config.port}`;
  return {
    base,
    gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`,
    portal: config.portalUrl ?? base,
  };
}
