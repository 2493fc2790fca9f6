/**
 * In-memory throttles on the shared clock for surfaces other than the bot API (whose
 * limits are the spec's, botapi/ratelimit.ts): a backoff for attempts that may be
 * guesses (sign-in, sign-up) and a fixed window for a person's writes. Both hold a
 * bounded number of keys, so rotating names or addresses cannot grow them without end.
 * Refusals are the spec's 429 (wire/errors.ts rateLimitedAnswer).
 */
import { isIP } from "node:net";
import type { Clock } from "../core";
import { plainAddress } from "../config";

/** Keys kept per throttle; past this the least recently touched are forgotten. */
const MAX_KEYS = 100_000;

export interface BackoffRule {
  /** Attempts allowed before any delay. */
  free: number;
  /** The first delay; each further attempt doubles it. */
  baseMs: number;
  maxMs: number;
  /** A key untouched this long starts over. */
  forgetMs: number;
}

/** A Backoff, or one counted where several nodes share it (wire/shared-throttle.ts): then answers come later. */
export interface Backoffs {
  wait(key: string): number | Promise<number>;
  attempt(key: string): number | Promise<number>;
  refund(key: string): void | Promise<void>;
  clear(key: string): void | Promise<void>;
  reset(): void;
}

/** A WindowLimiter, or one counted where several nodes share it (wire/shared-throttle.ts). */
export interface Windows {
  take(key: string): number | Promise<number>;
  reset(): void;
}

interface Record_ {
  attempts: number;
  lockedUntil: number;
  touched: number;
}

/**
 * Growing delays: each attempt counts when it starts (so a thousand concurrent guesses
 * count as a thousand), and past `free` attempts the key is locked for base x 2^k.
 */
export class Backoff implements Backoffs {
  private readonly keys = new Map<string, Record_>();

  constructor(
    private readonly clock: Clock,
    readonly rule: BackoffRule,
  ) {}

  /** How long the key is still locked, in ms (0: an attempt may start). */
  wait(key: string): number {
    const r = this.keys.get(key);
    if (!r || this.clock.now() - r.touched > this.rule.forgetMs) return 0;
    return Math.max(0, r.lockedUntil - this.clock.now());
  }

  /** Count an attempt; the wait in ms when the key is locked (the attempt then does not count). */
  attempt(key: string): number {
    const now = this.clock.now();
    const r = this.touch(key, now);
    if (r.lockedUntil > now) return r.lockedUntil - now;
    r.attempts++;
    const over = r.attempts - this.rule.free;
    if (over > 0) r.lockedUntil = now + Math.min(this.rule.maxMs, this.rule.baseMs * 2 ** Math.min(over - 1, 30));
    return 0;
  }

  /** Take back one counted attempt (it succeeded) without lifting a lock already set. */
  refund(key: string): void {
    const r = this.keys.get(key);
    if (r && r.attempts > 0) r.attempts--;
  }

  /** Start the key over (a successful sign-in clears its name's record). */
  clear(key: string): void {
    this.keys.delete(key);
  }

  reset(): void {
    this.keys.clear();
  }

  private touch(key: string, now: number): Record_ {
    let r = this.keys.get(key);
    if (r) this.keys.delete(key); // re-insert: Map order is least recently touched first
    if (!r || now - r.touched > this.rule.forgetMs) r = { attempts: 0, lockedUntil: 0, touched: now };
    r.touched = now;
    this.keys.set(key, r);
    evict(this.keys);
    return r;
  }
}

/** At most `limit` events per key in fixed windows of `windowMs` that start with the first event. */
export class WindowLimiter implements Windows {
  private readonly keys = new Map<string, { resetAt: number; used: number }>();

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Count one event; the wait in ms when the window is full (the event then does not count). */
  take(key: string): number {
    const now = this.clock.now();
    let w = this.keys.get(key);
    if (!w || now >= w.resetAt) {
      this.keys.delete(key);
      this.keys.set(key, (w = { resetAt: now + this.windowMs, used: 0 }));
      evict(this.keys);
    }
    if (w.used >= this.limit) return w.resetAt - now;
    w.used++;
    return 0;
  }

  reset(): void {
    this.keys.clear();
  }
}

function evict(keys: Map<string, unknown>): void {
  while (keys.size > MAX_KEYS) keys.delete(keys.keys().next().value as string);
}

/**
 * The client's network address, as the HTTP server saw it. The composition root records
 * it for each request (Bun knows it, Elysia's context does not); in-process requests have
 * none and share one key. Behind a reverse proxy every client has the proxy's address,
 * unless the proxy is trusted (clientBehind).
 */
const addresses = new WeakMap<Request, string>();

export function rememberAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

export function clientAddress(request: Request): string {
  return addresses.get(request) ?? "local";
}

/**
 * Who a request came from when `peer` may be a reverse proxy: a trusted proxy's request is
 * the client its X-Forwarded-For names, read from the right (each proxy appends the address
 * it heard from), past the trusted proxies in the chain. Anything else is the peer itself,
 * so a client cannot name itself another address: only what a trusted proxy wrote counts.
 */
export function clientBehind(peer: string | undefined, forwardedFor: string | null, trusted: readonly string[]): string | undefined {
  if (peer === undefined || !trusted.length || !trusted.includes(plainAddress(peer)) || !forwardedFor) return peer;
  const hops = forwardedFor.split(",").map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    // A hop that is no address was not written by a proxy: nothing left of it can be believed.
    if (isIP(hops[i]) === 0) return peer;
    const hop = plainAddress(hops[i]);
    if (!trusted.includes(hop)) return hop;
  }
  return plainAddress(hops[0]);
}
