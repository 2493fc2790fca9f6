/**
 * Part of the composition root: connects the surfaces' hook points to the operator's
 * log and metrics (src/ops). The one pipeline reports each answer of every door with its
 * route template and who asked (wire/hooks.ts); the gateway reports each socket's life
 * (gateway/context.ts).
 */
import type { Config } from "./config";
import type { Snowflakes } from "./wire/snowflakes";
import type { RequestHooks } from "./wire/hooks";
import type { GatewayHooks } from "./gateway/context";
import { createLogger, createMetrics, type Logger, type Metrics } from "./ops";
import type { LineSink } from "./ops/log";
import { diskFull, storeUnavailable } from "./wire/errors";

/** While the database or Redis stays away, one warning per this long, not one per request or beat. */
const UNAVAILABLE_EVERY_MS = 10_000;

export interface Observability {
  log: Logger;
  metrics: Metrics;
  requestHooks: RequestHooks;
  gatewayHooks: GatewayHooks;
  /**
   * A failure nobody refused on purpose: a bug (an error line with its stack, under `msg`),
   * or the database being away, which the node answers with 503 as documented: a warning.
   */
  failure(msg: string, err: unknown, fields: Record<string, unknown>): void;
  /** The database or Redis cannot be reached: a warning naming why, without a stack, throttled. */
  unavailable(what: "database" | "Redis" | "disk space", err: unknown, fields?: Record<string, unknown>): void;
  /** Keep pino and prom-client unloaded (observations queue) until warm(): a server starting up. */
  defer(): void;
  /** Load them now and record what queued. */
  warm(): void;
}

interface OpenConn {
  since: number;
  session: string | null;
  app: string | null;
  how: "identify" | "resume" | null;
}

export function createObservability(config: Config, flakes: Snowflakes, sink?: LineSink): Observability {
  const log = createLogger({ level: config.logLevel, format: config.logFormat, sink });
  const conns = new Map<number, OpenConn>();
  let live = 0;
  const metrics = createMetrics({ connections: () => conns.size, sessions: () => live });
  const logging = log.level === "trace" || log.level === "debug" || log.level === "info";

  const requestHooks: RequestHooks = {
    answered(r, a, ms) {
      metrics.request(r.surface, r.method, r.route, a.status, ms);
      if (!logging) return;
      if (r.surface === "bot")
        log.request({ surface: "bot", method: r.method, route: r.route, status: a.status, ms, app: r.appId ? flakes.of(r.appId) : null });
      else log.request({ surface: r.surface, method: r.method, route: r.route, status: a.status, ms, person: r.personId });
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

  // Per engine: when it was last warned of, and how many warnings were held back since.
  const warned = new Map<string, { at: number; held: number }>();
  const unavailable = (what: "database" | "Redis" | "disk space", err: unknown, fields: Record<string, unknown> = {}) => {
    const now = performance.now();
    const w = warned.get(what);
    if (w && now - w.at < UNAVAILABLE_EVERY_MS) {
      w.held++;
      return;
    }
    const e = err as { message?: unknown; code?: unknown } | null;
    const more = w?.held ? { "more since last": w.held } : {};
    warned.set(what, { at: now, held: 0 });
    log.warn(`${what} unavailable`, { reason: String(e?.message ?? err), code: e?.code, ...fields, ...more });
  };

  return {
    log,
    metrics,
    requestHooks,
    gatewayHooks,
    failure(msg, err, fields) {
      if (storeUnavailable(err)) unavailable("database", err, fields);
      // The operator's to fix, said at most every few seconds rather than a stack per request.
      else if (diskFull(err)) unavailable("disk space", err, fields);
      else log.error(msg, { ...fields, err });
    },
    unavailable,
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
