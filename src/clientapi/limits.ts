/**
 * The people's API's own limits (docs/security.md). Sign-in is throttled per username
 * and per client address with growing delays, so guessing a password is slow and a flood
 * from one address locks only that address; sign-ups are throttled per address; each
 * person's writes are limited per window. Refusals are the spec's 429 body and headers.
 */
import type { Clock } from "../core";
import { Backoff, WindowLimiter, type BackoffRule } from "../wire/throttle";
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

export class PeopleLimits {
  readonly signInByName: Backoff;
  readonly signInByAddress: Backoff;
  readonly signUpByAddress: Backoff;
  readonly writes: WindowLimiter;
  readonly background: WindowLimiter;

  constructor(clock: Clock) {
    this.signInByName = new Backoff(clock, SIGN_IN_PER_NAME);
    this.signInByAddress = new Backoff(clock, SIGN_IN_PER_ADDRESS);
    this.signUpByAddress = new Backoff(clock, SIGN_UP_PER_ADDRESS);
    this.writes = new WindowLimiter(clock, WRITES_PER_PERSON.limit, WRITES_PER_PERSON.windowMs);
    this.background = new WindowLimiter(clock, BACKGROUND_PER_PERSON.limit, BACKGROUND_PER_PERSON.windowMs);
  }

  /** Every window and delay starts over (harness reset). */
  reset(): void {
    for (const t of [this.signInByName, this.signInByAddress, this.signUpByAddress, this.writes, this.background]) t.reset();
  }
}

/** The spec's 429: `retry_after` in seconds, `global: false`, with the bot API's headers. */
export function tooManyRequests(waitMs: number): Response {
  const { status, body, headers } = rateLimitedAnswer({ retryAfterMs: waitMs, global: false });
  return jsonResponse(status, body, headers);
}
