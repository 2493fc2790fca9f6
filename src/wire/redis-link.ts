/**
 * One connection to Redis (`--redis`) for what nodes share beyond the bot API's windows:
 * gateway sessions and their replay rings (gateway/shared-sessions.ts), sign-in throttles
 * and people's write windows (wire/shared-throttle.ts). Commands are never queued while
 * it is away (no offline queue): a caller gets null at once and answers on its own, as
 * a single node would, and `down` names what degrades for /readyz. A reconnect is tried
 * at most once a second, from a caller or from a timer while it is away, and `onUp`
 * hears when commands reach Redis again.
 */
import { RedisClient } from "bun";

const RECONNECT_MS = 1000;

export class RedisLink {
  private readonly client: RedisClient;
  private up = false;
  private closed = false;
  private lastTry = -Infinity;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners: (() => void)[] = [];
  /** What answers per node while Redis is away, for /readyz (set by each user). */
  private readonly degrades: string[] = [];

  constructor(
    url: string,
    /** Where the first loss of Redis is told (the log), and a command's failure. */
    private readonly report: (err: unknown) => void = () => {},
  ) {
    this.client = new RedisClient(url, { enableOfflineQueue: false, connectionTimeout: 2000, maxRetries: 3, autoReconnect: true });
    this.client.onconnect = () => this.cameUp();
    this.client.onclose = () => this.wentDown(null);
    this.reconnect();
  }

  get connected(): boolean {
    return this.up;
  }

  /** A user of the link says what it answers per node while Redis is away. */
  degradesTo(what: string): void {
    this.degrades.push(what);
  }

  /** Called once Redis answers again after it was away. */
  onUp(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Run a command; null when Redis is away (try again later), else its answer or its failure. */
  send(cmd: string, args: string[]): Promise<any> | null {
    if (!this.up) {
      this.reconnect();
      return null;
    }
    let sent: Promise<any>;
    try {
      sent = this.client.send(cmd, args);
    } catch (e) {
      sent = Promise.reject(e); // a client closed under it throws at once
    }
    return sent.catch((e: unknown) => {
      this.wentDown(e);
      throw e;
    });
  }

  /** What answers in a degraded way now, for /readyz. */
  degraded(): string[] {
    return this.up ? [] : this.degrades.map((d) => `Redis: not reachable; ${d}`);
  }

  close(): void {
    this.closed = true;
    this.up = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.client.close();
  }

  private cameUp(): void {
    if (this.up || this.closed) return;
    this.up = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const fn of this.listeners) fn();
  }

  private wentDown(err: unknown): void {
    // The first loss is told (a closed connection too, so the log says when Redis went away).
    if (this.up) this.report(err ?? new Error("connection closed"));
    if (err !== null && this.client.connected) return; // one command failed, the link did not
    this.up = false;
    if (this.closed) return;
    // Away: keep trying on a timer too, so sessions recorded meanwhile are written again soon after it is back.
    this.timer ??= setInterval(() => this.reconnect(), RECONNECT_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private reconnect(): void {
    if (this.closed) return;
    const now = performance.now();
    if (now - this.lastTry < RECONNECT_MS) return;
    this.lastTry = now;
    this.client.connect().then(
      () => this.cameUp(),
      () => this.wentDown(null),
    );
  }
}
