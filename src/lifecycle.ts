/**
 * Part of the composition root: the listening socket's life. Counts requests in flight so
 * a graceful shutdown can answer them all before the database closes, and turns new work
 * away (503) once a shutdown has begun.
 */
import type { Server } from "bun";
import type { Elysia } from "elysia";
import type { Config, Urls } from "./config";
import type { Gateway, GatewaySocketData } from "./gateway";
import { CLOSE_HEARTBEAT_TIMEOUT } from "./gateway/protocol";
import { jsonResponse } from "./wire/http";

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
  /** Called once listening, and once the first answer is out (the composition root schedules deferred work here). */
  afterListen: (() => void) | null = null;
  afterFirst: (() => void) | null = null;

  constructor(
    private readonly config: Config,
    private readonly http: Elysia<any, any, any, any, any, any, any>,
    private readonly gateway: Gateway,
    private readonly urls: Urls,
    private readonly first?: (ms: number) => void,
  ) {}

  listen(): Server<GatewaySocketData> {
    const { config, http, gateway, urls } = this;
    const server = Bun.serve({
      port: config.port,
      hostname: config.host,
      fetch: async (req, srv) => {
        if (this.draining) return jsonResponse(503, { code: 0, message: "Parley is shutting down" }, { Connection: "close" });
        const path = new URL(req.url).pathname;
        if (path === "/gateway" || path === "/gateway/") return gateway.upgrade(req, srv);
        this.inflight++;
        try {
          return await http.fetch(req);
        } finally {
          if (--this.inflight === 0) this.idle?.();
          if (!this.answered) {
            this.answered = true;
            this.first?.(performance.now());
            this.afterFirst?.();
          }
        }
      },
      websocket: gateway.websocket,
    });
    this.server = server;
    const origin = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
    urls.base = config.baseUrl ?? origin;
    urls.gateway = config.gatewayUrl ?? `${urls.base.replace(/^http/, "ws")}/gateway`;
    urls.portal = config.portalUrl ?? urls.base;
    this.afterListen?.();
    return server;
  }

  /**
   * Stop accepting, wait (up to timeoutMs) for the requests in flight, then `commit()` the
   * open write batch, close every gateway socket with 4000, and `close()` the rest.
   */
  async shutdown(timeoutMs: number, commit: () => void, close: () => void): Promise<ShutdownReport> {
    const t0 = performance.now();
    this.draining = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    // No new connections; requests already read are answered.
    void this.server?.stop(false);
    const drained = this.inflight === 0 || (await Promise.race([new Promise<true>((r) => (this.idle = () => r(true))), deadline]));
    clearTimeout(timer);
    const requestsCut = drained ? 0 : this.inflight;
    commit();
    // 4000: every library reconnects and RESUMEs on it (docs/operations.md says why not 1012).
    const socketsClosed = this.gateway.closeAll(CLOSE_HEARTBEAT_TIMEOUT);
    // Let the close frames go out before the sockets are torn down.
    if (socketsClosed) await new Promise((r) => setTimeout(r, 50));
    this.server?.stop(true);
    this.server = null;
    close();
    return { clean: drained, requestsCut, socketsClosed, ms: performance.now() - t0 };
  }
}
