/**
 * Part of the composition root: what ties surfaces and the core together where no surface
 * may do it itself (surfaces never import each other).
 */
import type { Core, SwitchableClock } from "./core";
import type { RequestHooks } from "./wire/hooks";
import { rateLimitHeaders, type RateLimiter } from "./botapi/ratelimit";
import type { GatewayHooks } from "./gateway";
import type { LimitHeaders } from "./harness/hooks";
import { importWorld as importDocument, type ImportReport, type SeedAnswer } from "./world";
import type { Snowflakes } from "./wire/snowflakes";
import { botApiRoutes } from "./botapi";
import { routeKey } from "./wire/route";
import type { Config } from "./config";
import type { Observability } from "./observability";
import type { Lifecycle } from "./lifecycle";
import type { Gateway } from "./gateway";
import type { SharedLimits } from "./botapi/shared-limits";
import type { PeopleLimits } from "./clientapi/limits";
import type * as RedisLinkModule from "./wire/redis-link";
import type { RedisLink } from "./wire/redis-link";
import type * as SharedSessionsModule from "./gateway/shared-sessions";
import type { SharedSessions } from "./gateway/shared-sessions";

export type { ImportReport } from "./world";

/**
 * A bot is online while it holds a live gateway session (people see it in member
 * lists; bots with GUILD_PRESENCES get PRESENCE_UPDATE): the gateway tells the core
 * (core/presence.ts), which decides, across nodes too. Going online waits for the
 * IDENTIFY or RESUME to finish, so READY stays the session's first dispatch.
 */
export function botPresence(core: Core): GatewayHooks {
  // Each socket's bot, and whether the core has been told of it yet (that waits for a microtask).
  const conns = new Map<number, { bot: string; told: boolean }>();
  return {
    attached(connId, s) {
      const c = { bot: s.owner.botUserId, told: false };
      conns.set(connId, c);
      queueMicrotask(() => {
        if (conns.get(connId) !== c) return;
        c.told = true;
        core.presence.connected(c.bot);
      });
    },
    closed(connId) {
      const c = conns.get(connId);
      if (!c) return;
      conns.delete(connId);
      if (c.told) core.presence.disconnected(c.bot);
    },
  };
}

/** The rate-limit headers a harness fault answers with, as a real limit of that route would send them. */
export function limitHeadersOf(limiter: RateLimiter, clock: SwitchableClock): LimitHeaders {
  return (method, template, w) => {
    const now = clock.now();
    const rule = limiter.rule(method, template);
    const state = {
      limit: rule.limit,
      remaining: w.remaining ?? rule.limit,
      resetAt: now + (w.resetAfterMs ?? rule.windowMs),
      bucket: limiter.bucket(method, template),
    };
    return rateLimitHeaders(state, now);
  };
}

/** A seed document, or an exported world restored into an empty database (src/world). */
export function importWorld(
  p: { core: Core; clock: SwitchableClock; api: { flakes: Snowflakes }; seed(doc: unknown): SeedAnswer },
  doc: unknown,
): ImportReport {
  return importDocument({ core: p.core, flakes: p.api.flakes, now: () => p.clock.now(), seed: (d) => p.seed(d) }, doc);
}

/**
 * Every answered request counts toward the administrators' requests per day
 * (core/stats.ts, once the core serves); one hook per door's pipeline.
 */
export function requestCounter(core: Core): RequestHooks {
  return { answered: () => core.stats.requestServed() };
}

/** A --rate-limits file may name only declared routes: a key that names none is a typo worth a warning. */
export function warnUnknownRateLimits(config: Config, obs: Observability): void {
  const declared = new Set(botApiRoutes.map(routeKey));
  for (const key of Object.keys(config.rateLimits.routes))
    if (!declared.has(key)) obs.log.warn("--rate-limits names a route the bot API does not have", { route: key });
}

/** pino and prom-client load after the first answer, or 200 ms after listening, whichever is first. */
export function deferUntilServing(obs: Observability, life: Lifecycle): void {
  obs.defer();
  life.afterFirst = () => setTimeout(() => obs.warm(), 0);
  life.afterListen = () => setTimeout(() => obs.warm(), 200).unref();
}

/**
 * Several nodes (`--redis`): one connection to Redis for the gateway's sessions and
 * replay rings (gateway/shared-sessions.ts) and the people's throttles (the bot API's
 * windows keep their own). null on a single node, which never loads these modules:
 * require() runs only here.
 */
export function redisSharing(config: Config, report: (err: unknown) => void): { link: RedisLink; sessions: SharedSessions } | null {
  if (!config.redis) return null;
  const link = new (require("./wire/redis-link") as typeof RedisLinkModule).RedisLink(config.redis, report);
  return { link, sessions: new (require("./gateway/shared-sessions") as typeof SharedSessionsModule).SharedSessions(link) };
}

/** The harness's reset: every table, every session, every window; real time again. */
export function resetWorld(x: {
  gateway: Gateway;
  clock: SwitchableClock;
  limiter: RateLimiter;
  shared: SharedLimits | null;
  peopleLimits: PeopleLimits;
  flakes: Snowflakes;
  double: { clear(): void } | null;
  core: Core;
}) {
  // Live connections close with 4004 when the wipe publishes world.reset.
  x.gateway.closeAll();
  x.clock.clearTimers();
  x.clock.reset();
  x.limiter.reset();
  void x.shared?.reset();
  x.peopleLimits.reset();
  x.flakes.clearCache();
  x.double?.clear();
  x.core.wipe();
}
