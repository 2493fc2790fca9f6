/**
 * The people's throttles (wire/throttle.ts) counted in Redis (`--redis`), so a person's
 * write window and the sign-in and sign-up delays are the same whichever node a
 * balancer sends them to: a password guessed through five nodes is as slow as through
 * one. Each call is one script, keyed `pl:<throttle>:<key>`, expiring in Redis. Times
 * are the node's clock (nodes keep theirs in step, as for tokens' expiry).
 *
 * Redis away (the link answers null, or the command fails): the node's own throttle
 * answers, as a single node's would, and /readyz says so (wire/redis-link.ts).
 */
import type { Backoff, BackoffRule, Backoffs, WindowLimiter, Windows } from "./throttle";
import type { RedisLink } from "./redis-link";
import type { Clock } from "../core";

/** KEYS: the record. ARGV: now, free, base ms, max ms, forget ms. Answers the wait (0: counted). */
const ATTEMPT = `
local now = tonumber(ARGV[1])
local locked = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
if locked > now then return locked - now end
local n = redis.call('HINCRBY', KEYS[1], 'a', 1)
local over = n - tonumber(ARGV[2])
if over > 0 then
  redis.call('HSET', KEYS[1], 'l', now + math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) * 2 ^ math.min(over - 1, 30)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0
`;

/** KEYS: the record. ARGV: now. */
const WAIT = `
local locked = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
return math.max(0, locked - tonumber(ARGV[1]))
`;

const REFUND = `
local n = tonumber(redis.call('HGET', KEYS[1], 'a') or '0')
if n > 0 then redis.call('HINCRBY', KEYS[1], 'a', -1) end
return 0
`;

/** KEYS: the window. ARGV: limit, window ms. Answers the wait (0: counted). */
const TAKE = `
local u = redis.call('INCR', KEYS[1])
if u == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if u > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return math.max(1, redis.call('PTTL', KEYS[1]))
end
return 0
`;

/** Run a script; the local answer when Redis is away or fails. */
function run<T>(link: RedisLink, args: string[], shared: (r: any) => T, local: () => T): T | Promise<T> {
  const sent = link.send("EVAL", args);
  if (sent === null) return local();
  return sent.then(shared, local);
}

export class SharedBackoff implements Backoffs {
  private readonly rule: BackoffRule;

  constructor(
    private readonly name: string,
    private readonly local: Backoff,
    private readonly link: RedisLink,
    private readonly clock: Clock,
  ) {
    this.rule = local.rule;
  }

  wait(key: string): number | Promise<number> {
    return run(this.link, [WAIT, "1", this.key(key), String(this.clock.now())], Number, () => this.local.wait(key));
  }

  attempt(key: string): number | Promise<number> {
    const { free, baseMs, maxMs, forgetMs } = this.rule;
    const args = [ATTEMPT, "1", this.key(key), String(this.clock.now()), String(free), String(baseMs), String(maxMs), String(forgetMs)];
    return run(this.link, args, Number, () => this.local.attempt(key));
  }

  refund(key: string): void | Promise<void> {
    return run(
      this.link,
      [REFUND, "1", this.key(key)],
      () => {},
      () => this.local.refund(key),
    );
  }

  clear(key: string): void | Promise<void> {
    return run(
      this.link,
      ["redis.call('DEL', KEYS[1]) return 0", "1", this.key(key)],
      () => {},
      () => this.local.clear(key),
    );
  }

  reset(): void {
    this.local.reset();
    resetShared(this.link, `pl:${this.name}:*`);
  }

  private key(key: string): string {
    return `pl:${this.name}:${key}`;
  }
}

export class SharedWindow implements Windows {
  constructor(
    private readonly name: string,
    private readonly local: WindowLimiter,
    private readonly link: RedisLink,
  ) {}

  take(key: string): number | Promise<number> {
    const { limit, windowMs } = this.local;
    return run(this.link, [TAKE, "1", `pl:${this.name}:${key}`, String(limit), String(windowMs)], Number, () => this.local.take(key));
  }

  reset(): void {
    this.local.reset();
    resetShared(this.link, `pl:${this.name}:*`);
  }
}

/** Forget a throttle's shared records (the harness's world reset). */
function resetShared(link: RedisLink, pattern: string): void {
  link
    .send("EVAL", ["for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0", "0", pattern])
    ?.catch(() => {});
}
