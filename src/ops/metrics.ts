/**
 * Prometheus metrics through prom-client (the standard client for Node and Bun, and it
 * works in the compiled executable). Hot paths only bump plain numbers (plain-histogram.ts
 * for request latency); the registry reads the gauges when scraped.
 *
 * prom-client is loaded on first use, or just after the server's first answer (warm()):
 * loading it costs several milliseconds the start-up path does without. Observations made
 * before that wait in a short queue and are counted when it loads.
 */
import type * as Prom from "prom-client";
import { PlainHistogram } from "./plain-histogram";

export interface Metrics {
  /** Load prom-client now and count what waited. */
  warm(): void;
  /** Queue observations instead of loading prom-client at the first one. */
  defer(): void;
  /** One answered HTTP request (any surface), by route template. */
  request(surface: string, method: string, route: string, status: number, ms: number): void;
  /** `frames` dispatches numbered for sessions (sent if live, kept for RESUME if not). */
  dispatched(frames: number): void;
  /** One commit of the store: `writes` transactions (a group commit has many). */
  committed(kind: "group" | "single", writes: number): void;
  /** Prometheus text exposition, with the node's readiness as /readyz reads it at this scrape. */
  text(health?: HealthGauges): Promise<string>;
  readonly contentType: string;
}

/** What /readyz says, as gauges: parley_ready, parley_database_writable, parley_degraded. */
export interface HealthGauges {
  ready: boolean;
  writable: boolean;
  /** How many things answer in a degraded way (/readyz's `degraded` lists them). */
  degraded: number;
}

/** What the gateway gauges read when scraped. */
export interface GatewayGauges {
  connections(): number;
  sessions(): number;
}

// Bot API answers are a few hundred microseconds; the tail is what matters.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

interface Live {
  registry: Prom.Registry;
  /** Set by each scrape before the registry is read. */
  health: HealthGauges | null;
  request(surface: string, method: string, route: string, status: number, ms: number): void;
  committed(kind: "group" | "single", writes: number): void;
}

interface Counted {
  labels: { surface: string; method: string; route: string; status: string };
  n: number;
}

interface Series {
  /** The latency histogram's key. */
  key: string;
  byStatus: Map<number, Counted>;
}

/**
 * Requests counted in plain numbers on the request path, handed to prom-client when
 * scraped (its inc() hashes a label object each time). A request's series is found by its
 * parts, each a string the caller already holds (its hash is kept with it), instead of a
 * key joined anew for every request.
 */
class RequestCounts {
  readonly all: Counted[] = [];
  private readonly byRoute = new Map<string, Map<string, Map<string, Series>>>();

  series(surface: string, method: string, route: string): Series {
    let bySurface = this.byRoute.get(route);
    if (!bySurface) this.byRoute.set(route, (bySurface = new Map()));
    let byMethod = bySurface.get(surface);
    if (!byMethod) bySurface.set(surface, (byMethod = new Map()));
    let s = byMethod.get(method);
    if (!s) byMethod.set(method, (s = { key: `${surface} ${method} ${route}`, byStatus: new Map() }));
    return s;
  }

  count(s: Series, surface: string, method: string, route: string, status: number): void {
    const c = s.byStatus.get(status);
    if (c) return void c.n++;
    const fresh = { labels: { surface, method, route, status: String(status) }, n: 1 };
    s.byStatus.set(status, fresh);
    this.all.push(fresh);
  }
}

function load(gateway: GatewayGauges, frames: () => number): Live {
  // require(): evaluated here, on first use, not when the executable starts.
  const { Counter, Gauge, Histogram, Registry } = require("prom-client") as typeof Prom;
  const registry = new Registry();
  const counted = new RequestCounts();
  new Counter({
    name: "parley_http_requests_total",
    help: "HTTP requests answered, by surface, method, route template and status",
    labelNames: ["surface", "method", "route", "status"],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of counted.all) this.inc(c.labels, c.n);
    },
  });
  const latency = new PlainHistogram(
    "parley_http_request_duration_seconds",
    "Time from a request's arrival to its answer, by surface, method and route template",
    LATENCY_BUCKETS,
  ).register(registry);
  new Counter({
    name: "parley_gateway_dispatched_frames_total",
    help: "Dispatch frames numbered for gateway sessions",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(frames());
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
  const live: Live = { registry, health: null, request: () => {}, committed: () => {} };
  const healthGauge = (name: string, help: string, read: (h: HealthGauges) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (live.health) this.set(read(live.health));
      },
    });
  healthGauge("parley_ready", "1 while /readyz answers 200 (the database writable and migrated, no shutdown under way), else 0", (h) =>
    h.ready ? 1 : 0,
  );
  healthGauge("parley_database_writable", "1 while the database answers and takes writes, else 0", (h) => (h.writable ? 1 : 0));
  healthGauge(
    "parley_degraded",
    "What answers in a degraded way while the node stays ready (/readyz's degraded lists them)",
    (h) => h.degraded,
  );
  const batches = new Histogram({
    name: "parley_db_commit_writes",
    help: "Write transactions per database commit (kind=group: the bot API's group commit; single: every other writer)",
    labelNames: ["kind"],
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  live.request = (surface, method, route, status, ms) => {
    const s = counted.series(surface, method, route);
    latency.observe(s.key, () => ({ surface, method, route }), ms / 1000);
    counted.count(s, surface, method, route, status);
  };
  live.committed = (kind, writes) => batches.observe({ kind }, writes);
  return live;
}

export function createMetrics(gateway: GatewayGauges): Metrics {
  let live: Live | null = null;
  let deferred = false;
  let frames = 0;
  let defaults = false;
  const queue: ((l: Live) => void)[] = [];
  const warm = () => {
    if (live) return live;
    live = load(gateway, () => frames);
    for (const f of queue.splice(0)) f(live);
    return live;
  };
  const record = (f: (l: Live) => void) => {
    if (live) return f(live);
    if (deferred && queue.length < 10_000) return void queue.push(f);
    f(warm());
  };
  return {
    warm: () => void warm(),
    defer: () => (deferred = true),
    request: (surface, method, route, status, ms) =>
      live ? live.request(surface, method, route, status, ms) : record((l) => l.request(surface, method, route, status, ms)),
    dispatched(n) {
      frames += n;
    },
    committed: (kind, writes) => record((l) => l.committed(kind, writes)),
    text(health) {
      const l = warm();
      l.health = health ?? null;
      // process_* (CPU, memory, file descriptors) and nodejs_* (event-loop lag, heap, GC)
      // are registered at the first scrape: they start an event-loop monitor, which the
      // many in-process test servers do not need. nodejs_eventloop_lag_seconds is measured
      // at each scrape; its percentiles cover the time since the first one.
      if (!defaults)
        (require("prom-client") as typeof Prom).collectDefaultMetrics({ register: l.registry, eventLoopMonitoringPrecision: 20 });
      defaults = true;
      return l.registry.metrics();
    },
    get contentType() {
      return warm().registry.contentType;
    },
  };
}
