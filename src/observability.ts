/**
 * Part of the composition root: connects the surfaces' hook points to the operator's
 * log and metrics (src/ops). The bot API's pipeline reports each answer with its route
 * template (botapi/hooks.ts); the gateway reports each socket's life (gateway/context.ts);
 * every other route is observed at the Elysia level, by its registered path.
 */
import type { Elysia } from "elysia";
import type { Config } from "./config";
import type { Core } from "./core";
import type { Snowflakes } from "./wire/snowflakes";
import type { RequestHooks } from "./botapi/hooks";
import type { GatewayHooks } from "./gateway/context";
import { createLogger, createMetrics, type Logger, type Metrics } from "./ops";
import type { LineSink } from "./ops/log";

export interface Observability {
  log: Logger;
  metrics: Metrics;
  requestHooks: RequestHooks;
  gatewayHooks: GatewayHooks;
  /** Keep pino and prom-client unloaded (observations queue) until warm(): a server starting up. */
  defer(): void;
  /** Load them now and record what queued. */
  warm(): void;
  /** Observe every non-bot-API route of the app (people's API, harness, ops, 404s). */
  observe(http: Elysia<any, any, any, any, any, any, any>): void;
}

interface OpenConn {
  since: number;
  session: string | null;
  app: string | null;
  how: "identify" | "resume" | null;
}

/** Elysia's ":param" path as the "{param}" template the bot API and the docs use. */
const template = (route: string) => route.replace(/:(\w+)/g, "{$1}");

function surfaceOf(route: string): string {
  if (route.startsWith("/api/v10")) return "bot";
  if (route.startsWith("/api/client/")) return "people";
  if (route.startsWith("/api/harness/")) return "harness";
  return "ops";
}

export function createObservability(config: Config, core: Core, flakes: Snowflakes, sink?: LineSink): Observability {
  const log = createLogger({ level: config.logLevel, format: config.logFormat, sink });
  const conns = new Map<number, OpenConn>();
  let live = 0;
  const metrics = createMetrics({ connections: () => conns.size, sessions: () => live });
  const logging = log.level === "trace" || log.level === "debug" || log.level === "info";

  // Made once per route template: a string joined per request would be hashed anew by every lookup.
  const botRoutes = new Map<string, string>();
  const requestHooks: RequestHooks = {
    answered(r, a, ms) {
      let route = botRoutes.get(r.template);
      if (route === undefined) botRoutes.set(r.template, (route = `/api/v10${r.template}`));
      metrics.request("bot", r.method, route, a.status, ms);
      if (logging) log.request({ surface: "bot", method: r.method, route, status: a.status, ms, app: r.appId ? flakes.of(r.appId) : null });
    },
  };

  const gatewayHooks: GatewayHooks = {
    numbered: (frames) => metrics.dispatched(frames),
    opened(connId) {
      conns.set(connId, { since: performance.now(), session: null, app: null, how: null });
    },
    attached(connId, s, how) {
      const c = conns.get(connId);
      if (!c) return;
      if (!c.session) live++;
      Object.assign(c, { session: s.id, app: s.owner.appFlake, how });
    },
    closed(connId, _s, code) {
      const c = conns.get(connId);
      if (!c) return;
      conns.delete(connId);
      if (c.session) live--;
      log.connection({ conn: connId, how: c.how, app: c.app, session: c.session, code, ms: performance.now() - c.since });
    },
  };

  function observe(http: Elysia<any, any, any, any, any, any, any>) {
    const started = new WeakMap<Request, number>();
    // Destructure only what is used: Elysia reads hook sources to decide what to parse,
    // and the bot API and harness read raw bodies themselves (lossless ids).
    http.onRequest(({ request }) => {
      started.set(request, performance.now());
    });
    http.onAfterResponse({ as: "global" }, ({ request, route, responseValue, set }) => {
      // The bot API's routes, its 501 fallback included, are reported by its pipeline, with the application.
      if (route && (route.startsWith("/api/v10/") || route === "/api/v10")) return;
      const t = started.get(request);
      const ms = t === undefined ? 0 : performance.now() - t;
      const status = statusOf(responseValue, Number(set.status), !!route);
      const path = route ? template(route) : "(no route)";
      const surface = route ? surfaceOf(path) : "none";
      metrics.request(surface, request.method, path, status, ms);
      if (!logging) return;
      log.request({ surface, method: request.method, route: path, status, ms, person: surface === "people" ? personOf(core, request) : null });
    });
  }

  return {
    log,
    metrics,
    requestHooks,
    gatewayHooks,
    observe,
    defer() {
      log.defer();
      metrics.defer();
    },
    warm() {
      log.warm();
      metrics.warm();
    },
  };
}

/**
 * The status an Elysia-level answer had: its Response's; for an unmatched path the app's
 * 404 (Elysia's error hook leaves nothing to read then); for a thrown error its 500.
 */
function statusOf(value: unknown, set: number, matched: boolean): number {
  if (value instanceof Response) return value.status;
  if (!matched) return 404;
  if (value instanceof Error) return set >= 400 ? set : 500;
  return set || 200;
}

/** The signed-in person of a people's API request, for its log line (one indexed read). */
function personOf(core: Core, request: Request): string | null {
  const m = /^Session\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return m ? core.sessions.whose(m[1]) : null;
}
