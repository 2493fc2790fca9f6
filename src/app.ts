/**
 * The composition root: builds the clock, store, core, the snowflake boundary and every
 * surface once from the validated config, handing each surface the narrow context it
 * declares (botapi/context.ts, gateway/context.ts, clientapi/context.ts,
 * harness/context.ts). No module-level singletons anywhere else.
 */
import { Elysia } from "elysia";
import type { Server } from "bun";
import { VERSION, type Config, type Urls } from "./config";
import { SwitchableClock } from "./core/clock";
import { Store } from "./store/db";
import { createCore, type Core } from "./core";
import { Snowflakes } from "./wire/snowflakes";
import { jsonResponse } from "./wire/http";
import { RateLimiter } from "./botapi/ratelimit";
import type { BotApi } from "./botapi/context";
import { botApiPlugin } from "./botapi";
import { createGateway, type Gateway, type GatewaySocketData, type SessionRef } from "./gateway";
import type * as HarnessModule from "./harness";
import type * as HarnessApi from "./harness/openapi";
import { EventLog } from "./harness/eventlog";
import { clientApiPlugin } from "./clientapi";
import { seedWorld, type SeedAnswer } from "./harness/seed";
import { opsPlugin } from "./ops";
import { openApiPlugin, opsFragment } from "./ops/openapi";
import { botApiFragment } from "./botapi/openapi";
import { clientApiFragment } from "./clientapi/openapi";
import { exportDocument, importRows, isExport, type ExportedWorld } from "./harness/world";
import { createObservability, type Observability } from "./observability";
import type { LineSink } from "./ops/log";
import { Lifecycle, type ShutdownReport } from "./lifecycle";

/** Optional plumbing for createParley: start-up timings, and where log lines go (tests). */
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
}

/** What an import did: a seed (with fresh tokens), or a restored export (with none). */
export type ImportReport =
  | { kind: "seeded"; answer: SeedAnswer }
  | { kind: "restored"; people: number; servers: number; messages: number; needToken: { name: string; id: string }[]; needPassword: string[] };

export type { ShutdownReport } from "./lifecycle";

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
}

export function createParley(config: Config, opts: ParleyOptions = {}): Parley {
  const mark = opts.mark ?? (() => {});
  const clock = new SwitchableClock();
  // The metrics exist before the store, which reports its commits to them.
  let obs: Observability | null = null;
  const store = new Store({ path: config.dbPath, synchronous: config.synchronous, committed: (kind, n) => obs?.metrics.committed(kind, n) });
  mark("open the database and migrate");
  const core = createCore({ clock, store });
  const flakes = new Snowflakes(core.idmap);
  obs = createObservability(config, core, flakes, opts.logSink);
  const urls: Urls = placeholderUrls(config);
  const api: BotApi = { core, flakes, limiter: new RateLimiter(clock, config.rateLimits), urls, hooks: [obs.requestHooks] };
  const events = config.harness ? new EventLog() : null;
  const gateway = createGateway({
    core,
    flakes,
    urls,
    hooks: [obs.gatewayHooks, ...(events ? [{ dispatched: (s: SessionRef, frame: string) => events.append(s.owner.appFlake, s.id, frame) }] : [])],
  });
  mark("build the core and the gateway");
  const http = new Elysia().onError(({ code, error }) => {
    if (code === "NOT_FOUND") return jsonResponse(404, { code: 0, message: "404: Not Found" });
    if (code === "PARSE" || code === "VALIDATION") return jsonResponse(400, { code: 50035, message: "Invalid Form Body" });
    obs.log.error("unhandled error", { err: error });
    return jsonResponse(500, { code: 0, message: "500: Internal Server Error" });
  });
  const life = new Lifecycle(config, http, gateway, urls, opts.firstAnswered);
  if (opts.deferObservability) deferUntilServing(obs, life);
  obs.observe(http);
  http.use(opsPlugin({ version: VERSION, startedAt: Date.now(), database: () => store.health(), draining: () => life.draining, metrics: obs.metrics }));
  // Built on first request: the harness's part only in test mode.
  const fragments = () => [clientApiFragment(), botApiFragment(), ...(events ? [(require("./harness/openapi") as typeof HarnessApi).harnessFragment()] : []), opsFragment()];
  http.use(openApiPlugin(fragments, VERSION));
  http.use(botApiPlugin(api));

  const parley: Parley = {
    config,
    clock,
    store,
    core,
    api,
    gateway,
    http,
    events,
    obs,
    get server() {
      return life.server;
    },
    handle: (req) => http.handle(req),
    listen: () => life.listen(),
    seed: (doc) => seedWorld({ core, flakes }, doc),
    exportWorld: () => exportDocument(core.world.snapshot(), VERSION, new Date(clock.now())),
    importWorld: (doc) => importWorld(parley, doc),
    backup: (path) => store.backup(path),
    reset() {
      gateway.closeAll();
      clock.clearTimers();
      clock.reset();
      api.limiter.reset();
      flakes.clearCache();
      events?.clear();
      core.wipe();
    },
    async stop() {
      gateway.closeAll();
      clock.clearTimers();
      life.server?.stop(true);
      life.server = null;
      core.close();
    },
    shutdown: (timeoutMs) => life.shutdown(timeoutMs, () => store.flush(), () => (clock.clearTimers(), core.close())),
  };
  http.use(clientApiPlugin({ core, flakes, bots: gateway }));
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  if (events)
    // require(): the harness's modules load only in test mode, off a real server's start-up.
    http.use((require("./harness") as typeof HarnessModule).harnessPlugin({ core, flakes, clock, gateway, events, reset: () => parley.reset(), seed: (doc) => parley.seed(doc) }));
  mark("mount the routes");
  return parley;
}

/** pino and prom-client load after the first answer, or 200 ms after listening, whichever is first. */
function deferUntilServing(obs: Observability, life: Lifecycle): void {
  obs.defer();
  life.afterFirst = () => setTimeout(() => obs.warm(), 0);
  life.afterListen = () => setTimeout(() => obs.warm(), 200).unref();
}

function importWorld(p: Parley, doc: unknown): ImportReport {
  if (!isExport(doc)) return { kind: "seeded", answer: p.seed(doc) };
  const rows = importRows(doc, p.clock.now());
  p.core.world.restore(rows);
  p.api.flakes.clearCache();
  const persons = rows.users.filter((u) => u.kind === "person" && u.deleted_at === null);
  return {
    kind: "restored",
    people: persons.length,
    servers: rows.guilds.length,
    messages: rows.messages.length,
    needToken: rows.applications.map((a) => ({ name: String(a.name), id: p.api.flakes.of(String(a.id)) })),
    needPassword: persons.map((u) => String(u.username)),
  };
}

function placeholderUrls(config: Config): Urls {
  const base = config.baseUrl ?? `http://${config.host}:${config.port}`;
  return {
    base,
    gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`,
    portal: config.portalUrl ?? base,
  };
}
