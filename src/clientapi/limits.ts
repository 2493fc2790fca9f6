/**
 * The people's API's own limits (docs/security.md). Sign-in is throttled per username
 * and per client address with growing delays, so guessing a password is slow and a flood
 * from one address locks only that address; sign-ups are throttled per address; each
 * person's writes are limited per window. Refusals are the spec's 429 body and headers.
 */
import type { Clock } from "../core";
import { Backoff, WindowLimiter, type BackoffRule, type Backoffs, type Windows } from "../wire/throttle";
import type { RedisLink } from "../wire/redis-link";
import type * as SharedThrottles from "../wire/shared-throttle";
import { rateLimitedAnswer } from "../wire/errors";
import { jsonResponse } from "../wire/http";

const MINUTE = 60_000;

/** Five tries for a name, then 1 s, 2 s, 4 s, ... up to 15 minutes; forgotten after an hour without one. */
export const SIGN_IN_PER_NAME: BackoffRule = { free: 5, baseMs: 1000, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE };
/** Twenty failed tries from one address (across names), then the same growing delays. */
export const SIGN_IN_PER_ADDRESS: BackoffRule = { free: 20, baseMs: 1000, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE };
/** Ten sign-ups from one address, then 10 s, 20 s, ... up to an hour. */
export const SIGN_UP_PER_ADDRESS: BackoffRule = { free: 10, baseMs: 10_000, maxMs: 60 * MINUTE, forgetMs: 60 * MINUTE };
/** Writes (every method but GET and HEAD) per person: 30 per 10 s, a burst no person types. */
export const WRITES_PER_PERSON = { limit: 30, windowMs: 10_000 };
/**
 * What the page writes by itself (read marks, typing notices: routes declared with
 * `window: "background"`) per person: 120 per 10 s, apart from the person's own writes,
 * so a busy channel marked read as it scrolls never refuses the person's next message.
 */
export const BACKGROUND_PER_PERSON = { limit: 120, windowMs: 10_000 };

/**
 * With `link` (several nodes, `--redis`) every throttle is counted in Redis while it
 * answers, so a person's limits are the same on every node (wire/shared-throttle.ts);
 * its answers may then come later. Without, the node's own, as always.
 */
export class PeopleLimits {
  readonly signInByName: Backoffs;
  readonly signInByAddress: Backoffs;
  readonly signUpByAddress: Backoffs;
  readonly writes: Windows;
  readonly background: Windows;

  constructor(clock: Clock, link?: RedisLink | null) {
    // require(): the shared throttles load only on a node given --redis.
    const shared = link ? (require("../wire/shared-throttle") as typeof SharedThrottles) : null;
    const backoff = (name: string, rule: BackoffRule) =>
      shared ? new shared.SharedBackoff(name, new Backoff(clock, rule), link!, clock) : new Backoff(clock, rule);
    const window = (name: string, { limit, windowMs }: { limit: number; windowMs: number }) =>
      shared ? new shared.SharedWindow(name, new WindowLimiter(clock, limit, windowMs), link!) : new WindowLimiter(clock, limit, windowMs);
    this.signInByName = backoff("signin-name", SIGN_IN_PER_NAME);
    this.signInByAddress = backoff("signin-address", SIGN_IN_PER_ADDRESS);
    this.signUpByAddress = backoff("signup-address", SIGN_UP_PER_ADDRESS);
    this.writes = window("writes", WRITES_PER_PERSON);
    this.background = window("background", BACKGROUND_PER_PERSON);
    link?.degradesTo("sign-in throttles and people's write windows are counted per node");
  }

  /** Every window and delay starts over (harness reset). */
  reset(): void {
    for (const t of [this.signInByName, this.signInByAddress, this.signUpByAddress, this.writes, this.background]) t.reset();
  }
}

/**
 * Count an attempt on each throttle and key unless one of them is locked: the wait in ms
 * (0: counted on every one). A node's own throttles answer at once, so concurrent
 * attempts count as they start; shared ones (several nodes) answer later.
 */
export function attempt(...on: [Backoffs, string][]): number | Promise<number> {
  const waits = on.map(([t, key]) => t.wait(key));
  if (waits.every((w) => typeof w === "number")) {
    const wait = Math.max(0, ...(waits as number[]));
    if (wait === 0) for (const [t, key] of on) t.attempt(key);
    return wait;
  }
  return Promise.all(waits).then(async (ws) => {
    const wait = Math.max(0, ...ws);
    if (wait === 0) await Promise.all(on.map(([t, key]) => t.attempt(key)));
    return wait;
  });
}

/** The spec's 429: `retry_after` in seconds, `global: false`, with the bot API's headers. */
export function tooManyRequests(waitMs: number): Response {
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs: waitMs, global: false });
  return jsonResponse(status, body, headers);
}
