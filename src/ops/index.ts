/**
 * What an operator (or an orchestrator) asks the server about itself: /healthz (the
 * process answers), /readyz (the database is writable and migrated, and the server is
 * not shutting down), /metrics (Prometheus text). Log and metric plumbing lives beside
 * it (log.ts, metrics.ts); the composition root connects them to the surfaces' hooks.
 */
import { Elysia } from "elysia";
import type { Metrics } from "./metrics";

export type { Logger, RequestLine, ConnectionLine } from "./log";
export { createLogger } from "./log";
export type { Metrics, GatewayGauges } from "./metrics";
export { createMetrics } from "./metrics";

/** The database's state as /readyz reports it (built by the composition root from the store). */
export interface DatabaseHealth {
  writable: boolean;
  applied: number;
  known: number;
  error?: string;
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
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });

export function opsPlugin(ctx: OpsContext) {
  return new Elysia({ name: "ops" })
    .get("/healthz", () => json(200, { status: "ok", version: ctx.version, uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000) }))
    .get("/readyz", () => {
      const db = ctx.database();
      const reasons: string[] = [];
      if (ctx.draining()) reasons.push("shutting down");
      if (!db.writable) reasons.push(`database not writable${db.error ? `: ${db.error}` : ""}`);
      if (db.applied < db.known) reasons.push(`migrations pending (${db.applied} of ${db.known} applied)`);
      const body = {
        status: reasons.length ? "not ready" : "ready",
        database: { writable: db.writable, migrations: { applied: db.applied, known: db.known } },
        ...(reasons.length ? { reasons } : {}),
      };
      return json(reasons.length ? 503 : 200, body);
    })
    .get("/metrics", async () => new Response(await ctx.metrics.text(), { headers: { "Content-Type": ctx.metrics.contentType } }));
}
