/**
 * What an operator (or an orchestrator) asks the server about itself: /healthz (the
 * process answers), /readyz (the database is writable and migrated, and the server is
 * not shutting down; what works in a degraded way, a full disk among them, is listed
 * without making the node unready), /metrics (Prometheus text). Log and metric plumbing lives beside
 * it (log.ts, metrics.ts); the composition root connects them to the surfaces' hooks.
 */
import type { Metrics } from "./metrics";
import { routes, type Route } from "../wire/route";
import type { Door } from "../wire/pipeline";
import type { RequestHooks } from "../wire/hooks";
import { jsonDoor } from "../wire/json-door";

export type { Logger, RequestLine, ConnectionLine } from "./log";
export { createLogger } from "./log";
export type { Metrics, GatewayGauges, HealthGauges } from "./metrics";
export { createMetrics } from "./metrics";

/** The database's state as /readyz reports it (built by the composition root from the store). */
export interface DatabaseHealth {
  /** sqlite (the default) or postgres (--database). */
  engine: string;
  /** Reachable and writable (on Postgres: answered, and not a read-only server). */
  writable: boolean;
  applied: number;
  known: number;
  error?: string;
  /** What works in a degraded way while the node stays ready (a cluster node that cannot hear the others). */
  notices?: string[];
}

export interface OpsContext {
  version: string;
  /** When the process started (ms since the epoch, real time). */
  startedAt: number;
  database(): DatabaseHealth;
  /** True once a shutdown has begun: readiness turns off so a balancer stops sending work. */
  draining(): boolean;
  metrics: Metrics;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });

/** Declares one operator route (wire/route.ts): nobody needs to say who they are. */
export const route = routes<OpsContext, { none: null }, unknown>();

export function opsRoutes(): Route<OpsContext>[] {
  return [
    route({
      method: "GET",
      path: "/healthz",
      caller: "none",
      summary: "The process answers: status, version, uptime",
      answers: "json",
      handler: ({ ctx }) => json(200, { status: "ok", version: ctx.version, uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000) }),
    }),
    route({
      method: "GET",
      path: "/readyz",
      caller: "none",
      summary: "Ready: the database is writable, migrations are applied, no shutdown under way (else 503)",
      answers: "json",
      handler: ({ ctx }) => {
        const { db, reasons } = readiness(ctx);
        const body = {
          status: reasons.length ? "not ready" : "ready",
          database: { engine: db.engine, writable: db.writable, migrations: { applied: db.applied, known: db.known } },
          ...(reasons.length ? { reasons } : {}),
          ...(db.notices?.length ? { degraded: db.notices } : {}),
        };
        return json(reasons.length ? 503 : 200, body);
      },
    }),
    route({
      method: "GET",
      path: "/metrics",
      caller: "none",
      summary: "Prometheus metrics (text format)",
      answers: "text",
      handler: async ({ ctx }) => {
        // The scrape says what /readyz says, so an alert needs no second probe.
        const { db, reasons } = readiness(ctx);
        const health = { ready: reasons.length === 0, writable: db.writable, degraded: db.notices?.length ?? 0 };
        return new Response(await ctx.metrics.text(health), { headers: { "Content-Type": ctx.metrics.contentType } });
      },
    }),
  ];
}

/** Why the node is not ready (none: ready), with the database's state they were read from. */
function readiness(ctx: OpsContext): { db: DatabaseHealth; reasons: string[] } {
  const db = ctx.database();
  const reasons: string[] = [];
  if (ctx.draining()) reasons.push("shutting down");
  if (!db.writable) reasons.push(`database (${db.engine}) not writable${db.error ? `: ${db.error}` : ""}`);
  if (db.applied < db.known) reasons.push(`migrations pending (${db.applied} of ${db.known} applied)`);
  return { db, reasons };
}

/** The operator's door: no credential, no limits, answers as they are (wire/json-door.ts). */
export function opsDoor(
  ctx: OpsContext,
  o: { screen(r: Request): Response | undefined; hooks: RequestHooks[]; sync: boolean; report(err: unknown, route: string): void },
): Door<OpsContext> {
  return jsonDoor({ name: "ops", prefix: "", ctx, bodyLimit: OPS_BODY_LIMIT, ...o });
}

/** The operator's routes read no body; a stray one is bounded like any other. */
export const OPS_BODY_LIMIT = 64 * 1024;
