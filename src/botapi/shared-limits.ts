/**
 * The bot API's rate limits shared by every node (`--redis`): the same fixed windows as
 * ratelimit.ts, counted in Redis so that a bot's budget is the same whichever node a
 * balancer sends it to. One script per bucketed request counts the global window (when
 * the request counts globally) and the bucket's window, atomically, and answers what
 * the headers need; windows expire in Redis (PEXPIRE on their first count), and their
 * reset instants are the node's clock plus Redis's PTTL.
 *
 * Redis away (the command fails: no offline queue, so at once): the node counts in its
 * own windows (ratelimit.ts), a bot gets up to its budget on each node, and `degraded`
 * says so for /readyz; a reconnect is tried at most once a second, and the shared
 * windows count again once it succeeds.
 */
import { RedisClient } from "bun";
import type { Clock } from "../core";
import type { Config } from "../config";
import type { Bucket, RateLimiter, Verdict } from "./ratelimit";

/**
 * KEYS: global window, bucket window. ARGV: counts globally (1/0), global limit, global
 * window ms, bucket limit, bucket window ms. Answers {ok, global refusal, ms left, used}.
 * A refusal by the bucket still counted globally (spec 8.1 rule 5), and does not count
 * in the bucket (which stays at its limit).
 */
const TAKE = `
if ARGV[1] == '1' then
  local g = redis.call('INCR', KEYS[1])
  if g == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  if g > tonumber(ARGV[2]) then
    return {0, 1, redis.call('PTTL', KEYS[1]), tonumber(redis.call('GET', KEYS[2]) or '0'), redis.call('PTTL', KEYS[2])}
  end
end
local u = redis.call('INCR', KEYS[2])
if u == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
local left = redis.call('PTTL', KEYS[2])
if u > tonumber(ARGV[4]) then
  redis.call('DECR', KEYS[2])
  return {0, 0, left, u - 1, left}
end
return {1, 0, left, u, left}
`;

const RECONNECT_MS = 1000;

export class SharedLimits {
  private readonly client: RedisClient;
  private up = false;
  private lastTry = 0;

  constructor(
    url: string,
    private readonly local: RateLimiter,
    private readonly clock: Clock,
    private readonly cfg: Config["rateLimits"],
    /** Where a failure nobody awaits goes (the first loss of Redis, say). */
    private readonly report: (err: unknown) => void = () => {},
  ) {
    this.client = new RedisClient(url, { enableOfflineQueue: false, connectionTimeout: 2000, maxRetries: 3 });
    this.client.onconnect = () => {
      this.up = true;
    };
    this.client.onclose = () => {
      this.up = false;
    };
    this.reconnect();
  }

  /** Count one request (RateLimiter.take's contract), in Redis while it answers. */
  take(b: Bucket, key: string, countsGlobal: boolean): Verdict | Promise<Verdict> {
    if (!this.cfg.enabled || !this.up) {
      if (!this.up) this.reconnect();
      return this.local.take(b, key, countsGlobal);
    }
    const { rule, bucket } = b;
    const args = [
      "2",
      "rl:g",
      `rl:b:${key}|${bucket}`,
      countsGlobal ? "1" : "0",
      String(this.cfg.global.limit),
      String(this.cfg.global.windowMs),
      String(rule.limit),
      String(rule.windowMs),
    ];
    return this.client.send("EVAL", [TAKE, ...args]).then(
      (r: number[]) => {
        const now = this.clock.now();
        const [ok, global, left, used, bucketLeft] = r.map(Number);
        const resetAt = now + (bucketLeft > 0 ? bucketLeft : rule.windowMs);
        const state = { limit: rule.limit, remaining: Math.max(0, rule.limit - used), resetAt, bucket };
        if (ok === 1) return { ok: true, state } as Verdict;
        return { ok: false, global: global === 1, retryAfterMs: Math.max(0, left), state, now } as Verdict;
      },
      (e: unknown) => {
        if (this.up) this.report(e);
        this.up = this.client.connected;
        return this.local.take(b, key, countsGlobal);
      },
    );
  }

  /** What answers in a degraded way now, for /readyz. */
  degraded(): string[] {
    return this.up ? [] : ["Redis: not reachable; rate limits are counted per node"];
  }

  /** Forget every shared window (the harness's world reset). */
  reset(): Promise<void> {
    if (!this.up) return Promise.resolve();
    return this.client.send("EVAL", ["for _, k in ipairs(redis.call('KEYS', 'rl:*')) do redis.call('DEL', k) end", "0"]).then(
      () => {},
      () => {},
    );
  }

  close(): void {
    this.client.close();
  }

  private reconnect(): void {
    const now = this.clock.now();
    if (now - this.lastTry < RECONNECT_MS && now >= this.lastTry) return;
    this.lastTry = now;
    this.client.connect().then(
      () => {
        this.up = true;
      },
      () => {
        this.up = false;
      },
    );
  }
}
