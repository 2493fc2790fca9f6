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
import { createCore, type Core } from "./core";
import { Snowflakes } from "./wire/snowflakes";
import { jsonResponse } from "./wire/http";
import { RateLimiter, rateLimitHeaders } from "./botapi/ratelimit";
import type { BotApi } from "./botapi/context";
import { botApiPlugin } from "./botapi";
import { createGateway, type Gateway, type GatewaySocketData } from "./gateway";
import { harnessPlugin } from "./harness";
import type { EventLog } from "./harness/eventlog";
import { createDouble } from "./harness/double";
import type { LimitHeaders } from "./harness/hooks";
import { clientApiPlugin } from "./clientapi";
import { seedWorld, type SeedAnswer } from "./harness/seed";

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
  const core = createCore({ clock, store });
  const flakes = new Snowflakes(core.idmap);
  const urls: Urls = placeholderUrls(config);
  const limiter = new RateLimiter(clock, config.rateLimits);
  const api: BotApi = { core, flakes, limiter, urls, hooks: [] };
  // Test mode: the harness's event log, faults and transcripts act and watch through the hooks.
  const double = config.harness ? createDouble({ core, flakes, limitHeaders: limitHeadersOf(limiter, clock) }) : null;
  if (double) api.hooks.push(...double.requestHooks);
  const events = double?.events ?? null;
  const gateway = createGateway({ core, flakes, urls, hooks: double?.gatewayHooks ?? [], heartbeatIntervalMs: config.heartbeatIntervalMs });

  const http = new Elysia()
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
      const server = Bun.serve({
        port: config.port,
        hostname: config.host,
        fetch(req, srv) {
          const path = new URL(req.url).pathname;
          if (path === "/gateway" || path === "/gateway/") return gateway.upgrade(req, srv);
          return http.fetch(req);
        },
        websocket: gateway.websocket,
      });
      parley.server = server;
      const origin = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
      urls.base = config.baseUrl ?? origin;
      urls.gateway = config.gatewayUrl ?? `${urls.base.replace(/^http/, "ws")}/gateway`;
      urls.portal = config.portalUrl ?? urls.base;
      return server;
    },
    seed: (doc) => seedWorld({ core, flakes, clock }, doc),
    reset() {
      gateway.closeAll();
      clock.clearTimers();
      clock.reset();
      api.limiter.reset();
      flakes.clearCache();
      double?.clear();
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
  http.use(clientApiPlugin({ core, flakes, bots: gateway }));
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  if (double)
    http.use(harnessPlugin({ core, flakes, clock, gateway, ...double, reset: () => parley.reset(), seed: (doc) => parley.seed(doc) }));
  return parley;
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
