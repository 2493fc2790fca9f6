/**
 * What a dispatch is before it reaches sessions: which bots may hear it, under which
 * intent, and its payload per session view. Payloads are built lazily and at most once
 * per distinct view, never once per session.
 */
import type { Session } from "./session";

export interface Delivery {
  /** Bot user ids that may hear it (already narrowed to bots with sessions). */
  bots: readonly string[];
  t: string;
  /** Intent bit the session's IDENTIFY intents must hold; 0 = always delivered (intents.ts). */
  intent: number;
  /**
   * The serialized `d` for this session's view. It may depend on the session only through
   * its bot and its intents: a cohort's ring keeps one payload per bot (session.ts, Views).
   */
  payload(s: Session): string;
  /** Only to connected sessions, never recorded for a later RESUME (interactions, spec 3.1). */
  liveOnly?: boolean;
  /** The payload differs per bot: the fan-out need not look for sessions sharing it. */
  perBot?: boolean;
  /**
   * The payload depends on nothing but the session's intents (fixed, lazy and once
   * payloads ignore the session), so a fan-out may follow a plan (plans.ts) and ask it
   * of one member per cohort.
   */
  uniform?: boolean;
}

/** Who listens where, as the fan-out sees it. */
export interface Audience {
  hasSessions(botUserId: string): boolean;
  /** Member user ids of the guild that have sessions (the callers never mutate it). */
  guildBots(guildId: string): readonly string[];
  /** Recipients of a DM that have sessions. */
  dmBots(channelId: string): readonly string[];
}

/** A value computed on first use only. */
export function once<T>(fn: () => T): () => T {
  let done = false;
  let v: T;
  return () => {
    if (!done) {
      v = fn();
      done = true;
    }
    return v;
  };
}

/** A payload that is the same for every session, serialized once. */
export function fixed(v: unknown): () => string {
  return once(() => JSON.stringify(v));
}

/** A payload built from a read on first use, serialized once. */
export function lazy(fn: () => unknown): () => string {
  return once(() => JSON.stringify(fn()));
}
