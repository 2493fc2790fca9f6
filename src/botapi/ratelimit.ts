/**
 * Rate limits (spec 8.1), in memory, on the shared clock. A bucket is method + route
 * template; its window is kept per bot and per major parameter (the first path
 * parameter). One global window is shared by all bots. Fixed windows that start with
 * the first request, as the reference's headers describe them. Each route's rule is on
 * its declaration (`limit`); the config may override it.
 */
import type { Clock } from "../core";
import type { Config, RateLimitRule } from "../config";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

interface Window {
  resetAt: number;
  used: number;
}

export interface BucketState {
  limit: number;
  remaining: number;
  resetAt: number;
  bucket: string;
}

export type Verdict =
  | { ok: true; state: BucketState }
  /** `now` is the instant the refusal was decided: its headers must say the same wait as its body. */
  | { ok: false; global: boolean; retryAfterMs: number; state: BucketState; now: number };

/** First 16 bytes of SHA-256 over "METHOD /api/v10/template", hex (spec 8.1 rule 4). */
export function bucketHash(method: string, template: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`${method} /api/v10${template}`)).subarray(0, 16));
}

/** A route's bucket as the limiter counts it: worked out once per route (pipeline's compile). */
export interface Bucket {
  rule: RateLimitRule;
  /** The X-RateLimit-Bucket hash. */
  bucket: string;
}

export class RateLimiter {
  private windows = new Map<string, Window>();
  private global: Window = { resetAt: 0, used: 0 };
  /** Buckets by method, then template: strings the callers already hold, not a key joined per call. */
  private readonly buckets = new Map<string, Map<string, Bucket>>();

  /**
   * `declared` are the routes' own rules ("METHOD /template" -> rule, read off the
   * declarations); the config's `routes` override them (--rate-limits FILE), and routes
   * with neither take the config's default.
   */
  constructor(
    private readonly clock: Clock,
    private readonly cfg: Config["rateLimits"],
    private readonly declared: Record<string, RateLimitRule> = {},
  ) {}

  /** The bucket of a route template (or of the template an alias counts against). */
  bucketOf(method: string, template: string): Bucket {
    let byTemplate = this.buckets.get(method);
    if (!byTemplate) this.buckets.set(method, (byTemplate = new Map()));
    let r = byTemplate.get(template);
    if (!r) {
      const key = `${method} ${template}`;
      byTemplate.set(
        template,
        (r = { rule: this.cfg.routes[key] ?? this.declared[key] ?? this.cfg.default, bucket: bucketHash(method, template) }),
      );
    }
    return r;
  }

  rule(method: string, template: string): RateLimitRule {
    return this.bucketOf(method, template).rule;
  }

  bucket(method: string, template: string): string {
    return this.bucketOf(method, template).bucket;
  }

  /** Current state without consuming (for headers on unbucketed answers). */
  peek(b: Bucket, key: string): BucketState {
    const { rule, bucket } = b;
    const w = this.windows.get(`${key}|${bucket}`);
    const now = this.clock.now();
    if (!w || w.resetAt <= now) return { limit: rule.limit, remaining: rule.limit, resetAt: now + rule.windowMs, bucket };
    return { limit: rule.limit, remaining: Math.max(0, rule.limit - w.used), resetAt: w.resetAt, bucket };
  }

  /**
   * Count one request. `key` is "<bot>|<major>"; `countsGlobal` is true for requests
   * made with a bot token. A request refused by its bucket still counted globally
   * (spec 8.1 rule 5: retries count against the global window too).
   */
  take(b: Bucket, key: string, countsGlobal: boolean): Verdict {
    const now = this.clock.now();
    const { rule, bucket } = b;
    if (!this.cfg.enabled) {
      return { ok: true, state: { limit: rule.limit, remaining: rule.limit, resetAt: now + rule.windowMs, bucket } };
    }
    if (countsGlobal) {
      if (this.global.resetAt <= now) this.global = { resetAt: now + this.cfg.global.windowMs, used: 0 };
      if (this.global.used >= this.cfg.global.limit) {
        return { ok: false, global: true, retryAfterMs: this.global.resetAt - now, state: this.peek(b, key), now };
      }
      this.global.used++;
    }
    const wk = `${key}|${bucket}`;
    let w = this.windows.get(wk);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 50_000) this.prune(now);
      w = { resetAt: now + rule.windowMs, used: 0 };
      this.windows.set(wk, w);
    }
    const state = (): BucketState => ({ limit: rule.limit, remaining: Math.max(0, rule.limit - w!.used), resetAt: w!.resetAt, bucket });
    if (w.used >= rule.limit) return { ok: false, global: false, retryAfterMs: w.resetAt - now, state: state(), now };
    w.used++;
    return { ok: true, state: state() };
  }

  reset(): void {
    this.windows.clear();
    this.global = { resetAt: 0, used: 0 };
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

export function rateLimitHeaders(s: BucketState, now: number): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(s.limit),
    "X-RateLimit-Remaining": String(s.remaining),
    "X-RateLimit-Reset": String(Math.ceil(s.resetAt / 1000)),
    "X-RateLimit-Reset-After": seconds(Math.max(0, s.resetAt - now)),
    "X-RateLimit-Bucket": s.bucket,
  };
}

/**
 * The headers of a JSON answer made for one request: the bucket's, and the JSON ones
 * (wire/http.ts) in the same object literal, so it is built in one go.
 */
export function jsonAnswerHeaders(s: BucketState, now: number): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(s.limit),
    "X-RateLimit-Remaining": String(s.remaining),
    "X-RateLimit-Reset": String(Math.ceil(s.resetAt / 1000)),
    "X-RateLimit-Reset-After": seconds(Math.max(0, s.resetAt - now)),
    "X-RateLimit-Bucket": s.bucket,
    "Content-Type": "application/json",
    "X-Content-Type-Options": "nosniff",
  };
}

/**
 * Milliseconds as decimal seconds with three places, as `(ms / 1000).toFixed(3)` writes
 * them; whole milliseconds (the clock's) without toFixed, which took about 70 ns of every
 * answer's headers where this takes about 20.
 */
export function seconds(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) return (ms / 1000).toFixed(3);
  const s = Math.floor(ms / 1000);
  const r = ms - s * 1000;
  return `${s}.${r < 10 ? "00" : r < 100 ? "0" : ""}${r}`;
}
