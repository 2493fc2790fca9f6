/**
 * The composition root: builds the clock, store, core, the snowflake boundary and every
 * surface once from the validated config, handing each surface the narrow context it
 * declares (botapi/context.ts, gateway/context.ts, clientapi/context.ts,
 * harness/context.ts). No module-level singletons anywhere else. The listening socket's
 * life is lifecycle.ts; logs and metrics are observability.ts; the wiring between
 * surfaces that no surface may do itself is wiring.ts.
 */
import type { Server } from "bun";
import { dirname } from "node:path";
import { mediaRoot, portalUrlOf, VERSION, type Config, type Urls } from "./config";
import { type Core, createCore, type Report, reportToStderr, type SearchEngine, SwitchableClock } from "./core";
import { Store, type StoreHealth } from "./store/db";
import { agreeOnKey, serverKey } from "./store/keyfile";
import { DataLock, runningServer, type Serving } from "./store/lock";
import { Snowflakes } from "./wire/snowflakes";
import { MediaLinks } from "./wire/media";
import { FileLinks } from "./wire/files";
import { DiskMediaStore, type MediaStore } from "./store/media";
import { BotAuthorization } from "./wire/tokens";
import { RateLimiter } from "./botapi/ratelimit";
import type { BotApi } from "./botapi/context";
import { createGateway, type Gateway, type GatewaySocketData } from "./gateway";
import { CLOSE_UNKNOWN_ERROR } from "./gateway/protocol";
import { SharedLimits } from "./botapi/shared-limits";
import type * as HarnessModule from "./harness";
import type { ClusterHolds, HarnessContext } from "./harness/context";
import type * as DoubleModule from "./harness/double";
import type { EventLog } from "./harness/eventlog";
import { exportDocument, seedWorld, seedWorldAsync, type ExportedWorld, type SeedAnswer } from "./world";
import { PeopleLimits } from "./clientapi/limits";
import { createLive, type Live } from "./clientapi/live";
import type { ClientContext } from "./clientapi/context";
import { createObservability, type Observability } from "./observability";
import type { LineSink } from "./ops/log";
import type { OpsContext } from "./ops";
import { Lifecycle, type ShutdownReport } from "./lifecycle";
import {
  botPresence,
  deferUntilServing,
  importWorld,
  limitHeadersOf,
  redisSharing,
  resetWorld,
  requestCounter,
  warnUnknownRateLimits,
  type ImportReport,
} from "./wiring";
import { botApiLimits, botApiRoutes, botImageRoutes } from "./botapi";
import { buildHttp, type HarnessParts, type Http, type HttpApp } from "./http";

/** Optional plumbing for createParley: start-up timings, where log lines go (tests), the search index's engine (benches: NoSearchEngine). */
export interface ParleyOptions {
  /** Called after each start-up step with its name (the CLI's --timings). */
  mark?: (step: string) => void;
  logSink?: LineSink;
  /** Called once, with the time since the process started, when the first request is answered. */
  firstAnswered?: (ms: number) => void;
  /**
   * Load the logger and the metrics library only after the first answer (or 200 ms after
   * listening): the server's start-up path does without their few milliseconds each.
   */
  deferObservability?: boolean;
  /**
   * `parley serve`: hold the data directory (store/lock.ts) from before the database opens
   * until stop or shutdown; a second server on it is refused (DataDirInUse).
   */
  exclusive?: boolean;
  /** An operator command beside a server: its writes' events are sent for that server to publish (store/relay.ts). */
  relayEvents?: boolean;
  searchEngine?: SearchEngine;
  /** Files' bytes kept here, not in the data directory's store (tests: a disk whose flushes they hold or count). */
  mediaStore?: MediaStore;
  /** `parley migrate`'s target: the database must stay empty until the copy, which records the key after it. */
  keyUnchecked?: boolean;
}

export type { ShutdownReport } from "./lifecycle";
export type { ImportReport } from "./wiring";

export interface Parley {
  config: Config;
  clock: SwitchableClock;
  /** The database, for tests and tools that inspect it; surfaces never get it. */
  store: Store;
  core: Core;
  api: BotApi;
  gateway: Gateway;
  /** The people's live connection (the web client's push). */
  live: Live;
  /** Every HTTP surface, through the one Elysia app (wire/router.ts): in-process requests, the server's fallback. */
  http: HttpApp;
  /** Every declared route by door (`bun scripts/routes.ts` prints them). */
  routes: Http["declared"];
  /** Dispatch frames sent to bots (test mode only). */
  events: EventLog | null;
  /** In-process request handling (tests use this without a socket). */
  handle(req: Request): Promise<Response>;
  listen(): Server<GatewaySocketData>;
  readonly server: Server<GatewaySocketData> | null;
  stop(): Promise<void>;
  /**
   * Graceful shutdown: stop accepting, answer what is in flight, commit the open write
   * batch, close every gateway socket with 4000 (libraries reconnect and RESUME; after a
   * restart the RESUME meets op 9 and they IDENTIFY), checkpoint the WAL, close the
   * database. Gives up waiting after `timeoutMs`.
   */
  shutdown(timeoutMs: number): Promise<ShutdownReport>;
  /** The operator's log and metrics. */
  obs: Observability;
  /** A consistent copy of the live database at `path` (which must not exist). */
  backup(path: string): void;
  /** The world as the exported document (docs/operations.md): no tokens, no passwords. */
  exportWorld(): ExportedWorld;
  /** A seed document, or an exported world restored into this empty database, in one transaction. */
  importWorld(doc: unknown): ImportReport;
  /** Create a world document (docs/harness.md) in one transaction. */
  seed(doc: unknown): SeedAnswer;
  /** Empty the world: every table, every session, every window; real time again. */
  reset(): void;
  /** The server running on this data directory now (its pid and addresses), or null: for commands beside it. */
  runningServer(): Serving | null;
}

export function createParley(config: Config, opts: ParleyOptions = {}): Parley {
  const lock = opts.exclusive && config.dbPath !== ":memory:" ? DataLock.acquire(dirname(config.dbPath)) : null;
  try {
    return build(config, opts, lock);
  } catch (e) {
    lock?.release();
    throw e;
  }
}

// Longer than 80 lines because it is the composition root: every part is made here, in
// the order each needs the others, so the whole wiring reads top to bottom in one place.
function build(config: Config, opts: ParleyOptions, lock: DataLock | null): Parley {
  const mark = opts.mark ?? (() => {});
  // The metrics and the log exist after the store and the core, which report to them through `obs` once it is set.
  let obs: Observability | null = null;
  const report = reportTo(() => obs);
  const clock = new SwitchableClock(report);
  const { fastPaths } = config;
  const store = openStore(config, opts, lock, () => obs);
  mark("open the database and migrate");
  const key = serverKey(config.dbPath);
  if (config.database && !opts.keyUnchecked) agreeOnKey(store, key, config.dbPath);
  // Files' bytes: in --media-dir, else beside the database (a temporary directory for :memory:).
  const mediaStore = opts.mediaStore ?? new DiskMediaStore(mediaRoot(config), config.mediaDir !== null, fastPaths.hashWorker);
  // The boundary reads its table through the core, so it is made after it; no message is written before then.
  let flakes: Snowflakes | null = null;
  const core = createCore({
    clock,
    store,
    key,
    sessions: config.sessions,
    passwordCost: config.passwordCost,
    report,
    fastPaths,
    devices: config.devices,
    media: { store: mediaStore, limits: config.media },
    searchEngine: opts.searchEngine,
    numberNew: (id, position) => void flakes?.ofNew(id, position),
  });
  const urls: Urls = placeholderUrls(config);
  const files = new FileLinks(key, urls, clock, config.media.urlTtlMs);
  flakes = new Snowflakes(core.idmap, config.imageProxy.enabled ? new MediaLinks(key, urls) : null, fastPaths.snowflakeCache, files);
  obs = createObservability(config, flakes, opts.logSink);
  // The process's start, as the operator's health and the administrators' overview both say it.
  const startedAt = Date.now();
  const parts = { core, flakes, clock, urls, obs, report, startedAt };
  const { limiter, api, double, gateway, peopleLimits, people, live, link, sessions } = surfaces(config, parts);
  mark("build the core and the gateway");
  // The operator's readiness reads the lifecycle, which serves the app built with it.
  let life!: Lifecycle;
  const ops: OpsContext = {
    version: VERSION,
    startedAt,
    database: () =>
      withNotices(store.health(), [...(api.shared?.degraded() ?? []), ...(link?.degraded() ?? []), ...(mediaStore.degraded?.() ?? [])]),
    draining: () => life.draining,
    metrics: obs.metrics,
  };
  // A node sharing gateway sessions: what the harness's `hold` fault holds back (test mode).
  const cluster = sessions && store.relay.hold ? { sessionWrites: () => sessions.hold(), events: () => store.relay.hold!() } : null;
  const commits = () => store.changes.commits?.() ?? null;
  const harness = double ? harnessOf({ core, flakes, clock, gateway, double, cluster, commits, reset: () => parley.reset() }) : null;
  // Every answer of every door counts toward the requests per day (core/stats.ts), once the core serves.
  const web = buildHttp({ config, urls, api, people, ops, obs, harness, hooks: [requestCounter(core)] });
  const http = web.app;
  life = new Lifecycle(
    config,
    http,
    gateway,
    live,
    urls,
    (err, where) => obs!.failure("internal error", err, { where }),
    opts.firstAnswered,
  );
  // What operator commands beside this server wrote reaches its live connections (store/relay.ts);
  // an upgraded database's older messages get searchable (core/search-index.ts).
  life.poll = () => (store.publishRelayed(), core.search.backfillStep());
  life.release = () => store.releaseMemory();
  // A cluster node that could not hear the others for a while: its live connections may
  // have missed events, so they start over (a bot's RESUME then meets op 9 and IDENTIFYs).
  if ("gap" in store.relay) store.relay.gap = () => (gateway.closeAll(CLOSE_UNKNOWN_ERROR), live.closeAll());
  if (opts.deferObservability) deferUntilServing(obs, life);
  warnUnknownRateLimits(config, obs);

  const parley: Parley = {
    config,
    clock,
    store,
    core,
    api,
    gateway,
    live,
    http,
    routes: web.declared,
    events: double?.events ?? null,
    obs,
    get server() {
      return life.server;
    },
    handle: (req) => http.handle(req),
    listen: () => listenNow({ config, core, store, life, web, lock, urls, report }),
    seed: (doc) => seedWorld({ core, flakes, clock, testMode: config.harness }, doc),
    exportWorld: () => exportDocument(core.world.snapshot(), VERSION, new Date(clock.now())),
    importWorld: (doc) => importWorld(parley, doc),
    backup: (path) => store.backup(path),
    reset: () => resetWorld({ gateway, clock, limiter, shared: api.shared, peopleLimits, flakes, double, core }),
    stop: async () => (api.shared?.close(), link?.close(), stopNow({ live, gateway, clock, life, core, lock })),
    shutdown: (timeoutMs) =>
      life.shutdown(
        timeoutMs,
        () => store.flush(),
        () => (clock.clearTimers(), core.close(), lock?.release()),
      ),
    runningServer: () => (config.dbPath === ":memory:" ? null : runningServer(dirname(config.dbPath))),
  };
  mark("mount the routes");
  return parley;
}

/**
 * Where failures nobody awaits go (core/report.ts): event subscribers, timers, socket
 * handlers. The log is made after the clock and the core that report to it, so this
 * forwards to it once it exists, and until then writes the core's one JSON line to stderr.
 */
function reportTo(obs: () => Observability | null): Report {
  return (err, where) => {
    const o = obs();
    if (o) o.failure("unexpected failure", err, { ...where });
    else reportToStderr(err, where);
  };
}

/** The database, with its commits counted in the metrics once they exist. */
function openStore(config: Config, opts: ParleyOptions, lock: DataLock | null, obs: () => Observability | null): Store {
  return new Store({
    path: config.dbPath,
    synchronous: config.synchronous,
    relay: opts.relayEvents,
    writable: lock !== null,
    committed: (kind, n) => obs()?.metrics.committed(kind, n),
    walHeader: config.fastPaths.walHeader,
    postgres: config.database ? { url: config.database, serving: opts.exclusive === true } : undefined,
  });
}

/** Start listening: presences and the relay start over, then the socket opens. */
function listenNow(x: {
  config: Config;
  core: Core;
  store: Store;
  life: Lifecycle;
  web: Http;
  lock: DataLock | null;
  urls: Urls;
  report: Report;
}): Server<GatewaySocketData> {
  // Nobody is connected yet; devices expire and requests and messages count from now (core.serve).
  x.core.serve();
  // Events written by commands while no server ran are for nobody: only later ones are published.
  x.store.relay.listen();
  // The server alone sweeps files nothing names, and clears what a stopped process left (core/media-gc.ts).
  x.core.mediaCollector.start().catch((e) => x.report(e, { loop: "media" }));
  // Bot API routes are matched by Bun's router first; what none matches reaches Elysia.
  const server = x.life.listen(x.config.fastPaths.nativeRouter ? x.web.native((req) => x.web.app.fetch(req)) : {});
  x.lock?.listening(x.urls);
  return server;
}

/** Stop at once (tests, the CLI's one-shot commands): every socket and timer, then the database and the lock. */
function stopNow(x: { live: Live; gateway: Gateway; clock: SwitchableClock; life: Lifecycle; core: Core; lock: DataLock | null }): void {
  x.live.closeAll();
  x.gateway.closeAll();
  x.clock.clearTimers();
  x.life.stopTimers();
  x.life.server?.stop(true);
  x.life.server = null;
  x.core.close();
  x.lock?.release();
}

/** The store's health with what else answers in a degraded way (shared limits without Redis). */
function withNotices(h: StoreHealth, more: string[]): StoreHealth {
  return more.length ? { ...h, notices: [...(h.notices ?? []), ...more] } : h;
}

/** The surfaces' contexts: the bot API, the harness's double (test mode), the gateway, the people's API and live connection. */
function surfaces(
  config: Config,
  x: { core: Core; flakes: Snowflakes; clock: SwitchableClock; urls: Urls; obs: Observability; report: Report; startedAt: number },
) {
  const { core, flakes, clock, urls, obs } = x;
  // Each route's own rule is on its declaration; the config's overrides win.
  const limiter = new RateLimiter(clock, config.rateLimits, botApiLimits());
  const api: BotApi = {
    core,
    flakes,
    tokens: new BotAuthorization(flakes, config.fastPaths.tokenMemo),
    limiter,
    // Several nodes: one budget per bot whichever node answers (botapi/shared-limits.ts).
    shared: config.redis
      ? new SharedLimits(config.redis, limiter, clock, config.rateLimits, (err) => obs.unavailable("Redis", err, { loop: "rate limits" }))
      : null,
    urls,
    hooks: [obs.requestHooks, requestCounter(core)],
  };
  // Test mode: the harness's event log, faults and transcripts act and watch through the hooks.
  // require(): the harness's modules load only in test mode, off a real server's start-up.
  const double = config.harness
    ? (require("./harness/double") as typeof DoubleModule).createDouble({ core, flakes, limitHeaders: limitHeadersOf(limiter, clock) })
    : null;
  if (double) api.hooks.push(...double.requestHooks);
  const redis = redisSharing(config, (err) => obs.unavailable("Redis", err, { loop: "sessions" }));
  const gateway = createGateway({
    core,
    flakes,
    urls,
    hooks: [obs.gatewayHooks, ...(double?.gatewayHooks ?? []), botPresence(core)],
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    report: x.report,
    fastPaths: config.fastPaths,
    sessions: redis?.sessions,
  });
  const peopleLimits = new PeopleLimits(clock, redis?.link);
  const imageProxy = config.imageProxy.enabled ? config.imageProxy : null;
  const about = { version: VERSION, uptimeSeconds: () => Math.round((Date.now() - x.startedAt) / 1000) };
  const people: ClientContext = { core, flakes, bots: gateway, limits: peopleLimits, urls, imageProxy, report: x.report, about };
  return { limiter, api, double, gateway, peopleLimits, people, live: createLive(people), link: redis?.link, sessions: redis?.sessions };
}

/**
 * The harness (test mode only): its declared routes and its door, with its world seeding
 * and reset. require(): its modules load only in test mode, off a real server's start-up.
 */
function harnessOf(x: {
  core: Core;
  flakes: Snowflakes;
  clock: SwitchableClock;
  gateway: Gateway;
  double: ReturnType<typeof DoubleModule.createDouble>;
  cluster: ClusterHolds | null;
  commits: HarnessContext["commits"];
  reset(): void;
}): HarnessParts {
  const { core, flakes, clock, gateway, double, cluster, commits } = x;
  const h = require("./harness") as typeof HarnessModule;
  const ctx: HarnessContext = {
    ...{ core, flakes, clock, gateway, cluster, commits, ...double },
    reset: x.reset,
    seed: (doc) => seedWorldAsync({ core, flakes, clock, testMode: true }, doc),
    botRoutes: [...botApiRoutes, ...botImageRoutes].map((r) => ({ method: r.method, path: r.path })),
  };
  return { prefix: h.HARNESS_PREFIX, description: h.HARNESS_DESCRIPTION, routes: h.harnessRoutes(ctx), door: (o) => h.harnessDoor(ctx, o) };
}

function placeholderUrls(config: Config): Urls {
  const base = config.baseUrl ?? `http://${config.host}:${config.port}`;
  return {
    base,
    gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`,
    portal: portalUrlOf(config, base),
  };
}

/** `parley migrate`'s copy from a SQLite app's store into a Postgres one's (src/migrate.ts); its module loads only then. */
export const storeCopy = (source: Parley, target: Parley): import("./store/pg/copy").StoreCopy =>
  new (require("./store/pg/copy") as typeof import("./store/pg/copy")).StoreCopy(source.store, target.store);

/** `parley migrate`, after its copy: the source data directory's key, recorded for the nodes to agree on (store/keyfile.ts). */
export function recordKey(target: Parley, dbPath: string): void {
  agreeOnKey(target.store, serverKey(dbPath), dbPath);
}
