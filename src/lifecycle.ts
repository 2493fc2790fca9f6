/**
 * Part of the composition root: the listening socket's life. Counts requests in flight so
 * a graceful shutdown can answer them all before the database closes, and turns new work
 * away (503) once a shutdown has begun.
 */
import type { Server, WebSocketHandler } from "bun";
import type { HttpApp } from "./wire/router";
import { portalPaths, portalUrlOf, type Config, type Urls } from "./config";
import type { Gateway, GatewaySocketData } from "./gateway";
import { CLOSE_HEARTBEAT_TIMEOUT } from "./gateway/protocol";
import type { Live, LiveSocketData } from "./clientapi/live";
import { webSite } from "./web";
import { jsonResponse } from "./wire/http";
import { errorToStatusBody, storeUnavailable } from "./wire/errors";
import { pathnameOf, SERVER_MAX_BODY } from "./wire/body";
import { clientBehind, rememberAddress } from "./wire/throttle";
import type { NativeRoute, NativeTable } from "./wire/mount";

/** Longer than the harness's longest wait (30 s), so a long poll ends by its own answer. */
const HARNESS_IDLE_S = 45;

/** How a graceful shutdown went. */
export interface ShutdownReport {
  /** Everything in flight was answered within the time allowed. */
  clean: boolean;
  requestsCut: number;
  socketsClosed: number;
  ms: number;
}

export class Lifecycle {
  server: Server<GatewaySocketData> | null = null;
  draining = false;
  private inflight = 0;
  private idle: (() => void) | null = null;
  private answered = false;
  /** Requests answered since the last idle collection, and that count a second ago. */
  private sinceCollect = 0;
  private countSeen = 0;
  private collector: ReturnType<typeof setInterval> | null = null;
  private poller: ReturnType<typeof setInterval> | null = null;
  /** Called every POLL_MS while listening: the composition root publishes what commands beside the server wrote. */
  poll: (() => void) | null = null;
  /** Called once listening, and once the first answer is out (the composition root schedules deferred work here). */
  afterListen: (() => void) | null = null;
  afterFirst: (() => void) | null = null;
  /** Called when the server collects after a busy spell: what else can give memory back. */
  release: (() => void) | null = null;

  constructor(
    private readonly config: Config,
    private readonly http: HttpApp,
    private readonly gateway: Gateway,
    private readonly live: Live,
    private readonly urls: Urls,
    /** A bug that escaped every handler (an HTTP answer's, a socket's), to the operator's log. */
    private readonly report: (err: unknown, where: string) => void,
    private readonly first?: (ms: number) => void,
  ) {}

  /** The client's address: the TCP peer, or whom a trusted proxy's X-Forwarded-For names (--trusted-proxy). */
  private clientOf(req: Request, srv: Server<GatewaySocketData>): string | undefined {
    const peer = srv.requestIP(req)?.address;
    return this.config.trustedProxies.length ? clientBehind(peer, req.headers.get("x-forwarded-for"), this.config.trustedProxies) : peer;
  }

  /**
   * One port for everything: the web client's pages (Bun's HTML bundle routes), the bot
   * API's and the people's routes (matched by Bun's router), the gateway's and the live
   * connection's WebSockets, and every other HTTP API (the harness, what the router does
   * not match exactly) through Elysia.
   */
  listen(nativeRoutes: NativeTable): Server<GatewaySocketData> {
    const { config, http, gateway, live, urls } = this;
    const tracked: Record<string, Record<string, NativeRoute>> = {};
    for (const [path, byMethod] of Object.entries(nativeRoutes)) {
      tracked[path] = Object.fromEntries(
        Object.entries(byMethod).map(([m, route]) => [
          m,
          (req: Parameters<NativeRoute>[0], server: Parameters<NativeRoute>[1]) => {
            // As fetch() below: every door but the bot API's reads the address (the people's sign-in limits).
            if (!req.url.startsWith("/api/v10", pathStart(req.url))) rememberAddress(req, this.clientOf(req, server as never));
            return this.track(() => route!(req, server));
          },
        ]),
      );
    }
    const web = webSite(portalPaths(config));
    const server = Bun.serve({
      port: config.port,
      hostname: config.host,
      // Bun would share a port with another process listening on it (and split the requests
      // between two servers, two databases): a port in use must be refused instead.
      reusePort: false,
      development: false,
      routes: { ...web.routes, ...tracked },
      fetch: (req, srv) => {
        const url = req.url;
        const path = pathStart(url);
        if (isGatewayPath(url, path)) return this.draining ? drainingAnswer() : gateway.upgrade(req, srv as never);
        if (url.startsWith("/api/", path)) {
          // The harness long-polls (GET /events, POST /settle: up to 30 s) with nothing
          // sent meanwhile, which Bun's 10 s idle timeout would cut with no answer.
          if (url.startsWith("/api/harness/", path)) srv.timeout(req, HARNESS_IDLE_S);
          if (pathnameOf(url) === "/api/client/v1/live") return this.draining ? drainingAnswer() : live.upgrade(req, srv);
          // Only the people's API reads the address (its sign-in limits); a bot request skips the lookup.
          if (!url.startsWith("/api/v10", path)) rememberAddress(req, this.clientOf(req, srv));
        } else {
          rememberAddress(req, this.clientOf(req, srv));
          // Under `bun run` the client's assets are built on demand, so the router cannot name them.
          const asset = req.method === "GET" || req.method === "HEAD" ? web.asset(pathnameOf(url)) : null;
          if (asset) return this.track(() => asset.then((found) => found ?? http.fetch(req)));
        }
        return this.track(() => http.fetch(req));
      },
      websocket: bySurface(gateway.websocket, live.websocket, this.report),
      // Every surface refuses bodies over its own, far smaller limit with a JSON body (wire/body.ts).
      maxRequestBodySize: SERVER_MAX_BODY,
      // A throw that escaped every handler: still the spec's body (500, or 503 when the
      // store could not answer), never a stack, and a line in the log.
      error: (err) => {
        this.report(err, "http");
        const { status, body, headers } = errorToStatusBody(err);
        return jsonResponse(status, body, headers);
      },
    }) as Server<never> as Server<GatewaySocketData>;
    this.server = server;
    Object.assign(urls, publicUrls(config, server.port));
    this.collector = setInterval(() => this.collectIfIdle(), IDLE_CHECK_MS).unref();
    const poll = this.poll;
    // A throw out of a timer would end the process: Postgres away, say, while the search backfill is read.
    if (poll) this.poller = setInterval(() => this.guarded(poll), POLL_MS).unref();
    this.afterListen?.();
    return server;
  }

  /**
   * Count a request in flight while `answer` works (a shutdown waits for it), or turn it
   * away once a shutdown has begun. An answer given synchronously stays synchronous: a
   * promise would cost every request a turn of the event loop.
   */
  private track(answer: () => Response | Promise<Response>): Response | Promise<Response> {
    if (this.draining) return drainingAnswer();
    this.inflight++;
    let out: Response | Promise<Response>;
    try {
      out = answer();
    } catch (e) {
      this.finished();
      throw e;
    }
    if (out instanceof Promise) return out.then(this.answeredLater, this.failedLater);
    this.finished();
    return out;
  }

  /** An answer given later: counted out (made once, not a closure per request). */
  private readonly answeredLater = (r: Response) => {
    this.finished();
    return r;
  };

  private readonly failedLater = (e: unknown): never => {
    this.finished();
    throw e;
  };

  stopTimers(): void {
    if (this.collector) clearInterval(this.collector);
    if (this.poller) clearInterval(this.poller);
    this.collector = this.poller = null;
  }

  private guarded(fn: () => void, where = "poll"): void {
    try {
      fn();
    } catch (e) {
      this.report(e, where);
    }
  }

  /**
   * After a busy spell, once a whole second passed without a request, collect garbage
   * fully and shrink: the runtime otherwise keeps the heap a load grew to, tens of
   * megabytes, long after the load. Bun.shrink() also drops the code compiled for the
   * load and hands the allocator's free pages back (about 10 MiB more after the bench's
   * loads); the next burst compiles what it runs again, in milliseconds. Costs a few
   * milliseconds, and only when nothing is waiting. The database's connection hands back
   * its spare cache then too (`release`).
   */
  private collectIfIdle(): void {
    const quiet = this.sinceCollect === this.countSeen;
    this.countSeen = this.sinceCollect;
    if (!quiet || this.sinceCollect < COLLECT_AFTER_REQUESTS) return;
    this.sinceCollect = this.countSeen = 0;
    if (this.release) this.guarded(this.release, "release");
    Bun.gc(true);
    Bun.shrink();
  }

  private finished(): void {
    this.sinceCollect++;
    if (--this.inflight === 0) this.idle?.();
    if (!this.answered) {
      this.answered = true;
      this.first?.(performance.now());
      this.afterFirst?.();
    }
  }

  /**
   * Stop accepting, wait (up to timeoutMs) for the requests in flight, then `commit()` the
   * open write batch, close every gateway socket with 4000, and `close()` the rest.
   */
  async shutdown(timeoutMs: number, commit: () => void, close: () => void): Promise<ShutdownReport> {
    const t0 = performance.now();
    this.draining = true;
    this.stopTimers();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    // No new connections; requests already read are answered.
    void this.server?.stop(false);
    const drained = this.inflight === 0 || (await Promise.race([new Promise<true>((r) => (this.idle = () => r(true))), deadline]));
    clearTimeout(timer);
    const requestsCut = drained ? 0 : this.inflight;
    commit();
    // Sessions shared through Redis go to whichever node the bots resume on, with every
    // frame (a rolling restart loses none); bounded, so a stalled Redis cannot hold the stop.
    await Promise.race([this.gateway.handOver(), new Promise((r) => setTimeout(r, HAND_OVER_MS))]);
    // 4000: every library reconnects and RESUMEs on it (docs/operations.md says why not 1012).
    const socketsClosed = this.gateway.closeAll(CLOSE_HEARTBEAT_TIMEOUT);
    this.live.closeAll();
    // Let the close frames go out before the sockets are torn down.
    if (socketsClosed) await new Promise((r) => setTimeout(r, 50));
    this.server?.stop(true);
    this.server = null;
    close();
    return { clean: drained, requestsCut, socketsClosed, ms: performance.now() - t0 };
  }
}

const IDLE_CHECK_MS = 1000;
/** How long a stop waits for Redis to take its gateway sessions. */
const HAND_OVER_MS = 2000;
/**
 * How soon a command's write beside the server reaches its live connections (one read of
 * 48 bytes when nothing changed; store/relay.ts). Host time, not the shared clock: this
 * is transport timing, and a virtual clock that only moves when told would never look.
 */
const POLL_MS = 250;
const COLLECT_AFTER_REQUESTS = 1000;

const drainingAnswer = () => jsonResponse(503, { code: 0, message: "Parley is shutting down" }, { Connection: "close" });

/** The start of a URL's path (after "scheme://host[:port]"), found without parsing the whole URL: every request asks. */
function pathStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/** Whether a request's path is /gateway or /gateway/. */
function isGatewayPath(url: string, path: number): boolean {
  if (path < 0 || !url.startsWith("/gateway", path)) return false;
  const rest = url.slice(path + 8).replace(/[?#].*$/, "");
  return rest === "" || rest === "/";
}

/** The public addresses once the server listens: configured, or derived from where it listens. */
export function publicUrls(config: Config, port: number | undefined): Urls {
  const base = config.baseUrl ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  return { base, gateway: config.gatewayUrl ?? `${base.replace(/^http/, "ws")}/gateway`, portal: portalUrlOf(config, base) };
}

/**
 * Two kinds of sockets on one server: a live connection's data says which it is. A throw
 * from either's handler is a bug: reported (Bun would print it to stderr), and the socket
 * carries on as the handler left it.
 */
function bySurface(
  gw: WebSocketHandler<GatewaySocketData>,
  lv: WebSocketHandler<LiveSocketData>,
  report: (err: unknown, where: string) => void,
): WebSocketHandler<GatewaySocketData | LiveSocketData> {
  const isLive = (ws: { data: GatewaySocketData | LiveSocketData }) => "live" in ws.data;
  return {
    ...(gw as WebSocketHandler<GatewaySocketData | LiveSocketData>),
    open(ws) {
      try {
        if (isLive(ws)) lv.open?.(ws as never);
        else gw.open?.(ws as never);
      } catch (e) {
        report(e, "socket open");
      }
    },
    message(ws, m) {
      try {
        if (isLive(ws)) lv.message?.(ws as never, m);
        else gw.message?.(ws as never, m);
      } catch (e) {
        report(e, "socket message");
        // The store could not answer (Postgres away): the web client connects again on any
        // close but 4001, and reads everything afresh.
        if (storeUnavailable(e)) ws.close(isLive(ws) ? 1011 : CLOSE_HEARTBEAT_TIMEOUT, "Try again");
      }
    },
    close(ws, code, reason) {
      try {
        if (isLive(ws)) lv.close?.(ws as never, code, reason);
        else gw.close?.(ws as never, code, reason);
      } catch (e) {
        report(e, "socket close");
      }
    },
  };
}
