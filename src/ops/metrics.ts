/**
 * Prometheus metrics through prom-client (the standard client for Node and Bun, and it
 * works in the compiled executable). Hot paths only bump plain numbers or call one
 * observe(); the registry reads the gauges when scraped.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  /** One answered HTTP request (any surface), by route template. */
  request(surface: string, method: string, route: string, status: number, ms: number): void;
  /** One dispatch numbered for a session (sent if live, kept for RESUME if not). */
  dispatched(): void;
  /** One commit of the store: `writes` transactions (a group commit has many). */
  committed(kind: "group" | "single", writes: number): void;
  /** Prometheus text exposition. */
  text(): Promise<string>;
  contentType: string;
}

/** What the gateway gauges read when scraped. */
export interface GatewayGauges {
  connections(): number;
  sessions(): number;
}

// Bot API answers are a few hundred microseconds; the tail is what matters.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

export function createMetrics(gateway: GatewayGauges): Metrics {
  const registry = new Registry();
  // process_* (CPU, memory, file descriptors) and nodejs_* (event-loop lag, heap, GC) are
  // registered at the first scrape: they cost a few milliseconds and start an event-loop
  // monitor, which neither the start-up path nor the many in-process test servers need.
  // nodejs_eventloop_lag_seconds is measured at each scrape; its percentiles cover the
  // time since the first one.
  let defaults = false;

  const requests = new Counter({
    name: "parley_http_requests_total",
    help: "HTTP requests answered, by surface, method, route template and status",
    labelNames: ["surface", "method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "parley_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by surface, method and route template",
    labelNames: ["surface", "method", "route"],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  let frames = 0;
  new Counter({
    name: "parley_gateway_dispatched_frames_total",
    help: "Dispatch frames numbered for gateway sessions",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(frames);
    },
  });
  new Gauge({
    name: "parley_gateway_connections",
    help: "Open gateway sockets",
    registers: [registry],
    collect() {
      this.set(gateway.connections());
    },
  });
  new Gauge({
    name: "parley_gateway_sessions",
    help: "Gateway sessions live on a socket (identified or resumed)",
    registers: [registry],
    collect() {
      this.set(gateway.sessions());
    },
  });
  const batches = new Histogram({
    name: "parley_db_commit_writes",
    help: "Write transactions per database commit (kind=group: the bot API's group commit; single: every other writer)",
    labelNames: ["kind"],
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });

  return {
    registry,
    request(surface, method, route, status, ms) {
      requests.inc({ surface, method, route, status });
      latency.observe({ surface, method, route }, ms / 1000);
    },
    dispatched() {
      frames++;
    },
    committed(kind, writes) {
      batches.observe({ kind }, writes);
    },
    text() {
      if (!defaults) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
      defaults = true;
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}
