/**
 * The composition root: builds config-driven context (clock, store, core, bot API,
 * gateway, people's API, harness) once and passes it explicitly. No module-level
 * singletons anywhere else.
 */
import { Elysia } from "elysia";
import type { Server } from "bun";
import type { Config } from "./config";
import { SwitchableClock } from "./core/clock";
import { Store } from "./store/db";
import { IdMap } from "./core/idmap";
import { createCore, type Core } from "./core";
import { Snowflakes } from "./wire/snowflakes";
import { RateLimiter } from "./botapi/ratelimit";
import type { BotApi, Urls } from "./botapi/context";
import { botApiPlugin } from "./botapi";
import { jsonResponse } from "./wire/http";
import { createGateway, type Gateway, type GatewaySocketData } from "./gateway";
import { harnessPlugin } from "./harness";
import { clientApiPlugin } from "./clientapi";
import { seedWorld, type SeedAnswer } from "./harness/seed";

export interface Parley {
  config: Config;
  clock: SwitchableClock;
  store: Store;
  core: Core;
  api: BotApi;
  gateway: Gateway;
  http: Elysia<any, any, any, any, any, any, any>;
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
  const urls: Urls = placeholderUrls(config);
  const api: BotApi = {
    core,
    config,
    flakes: new Snowflakes(new IdMap(store)),
    limiter: new RateLimiter(clock, config.rateLimits),
    urls,
  };
  const gateway = createGateway(api);

  const http = new Elysia()
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return jsonResponse(404, { code: 0, message: "404: Not Found" });
      if (code === "PARSE" || code === "VALIDATION")
        return jsonResponse(400, { code: 50035, message: "Invalid Form Body" });
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
    seed: (doc) => seedWorld(api, doc),
    reset() {
      gateway.closeAll();
      clock.clearTimers();
      clock.reset();
      api.limiter.reset();
      store.wipe();
      api.flakes.clearCache();
      core.bus.publish([{ type: "world.reset" }]);
    },
    async stop() {
      gateway.closeAll();
      clock.clearTimers();
      parley.server?.stop(true);
      parley.server = null;
      store.close();
    },
  };
  http.use(clientApiPlugin(parley));
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  if (config.harness) http.use(harnessPlugin(parley));
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
