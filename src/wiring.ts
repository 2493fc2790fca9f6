/**
 * Part of the composition root: what ties surfaces and the core together where no surface
 * may do it itself (surfaces never import each other).
 */
import type { Core } from "./core";
import type { SwitchableClock } from "./core/clock";
import { rateLimitHeaders, type RateLimiter } from "./botapi/ratelimit";
import type { GatewayHooks } from "./gateway";
import type { LimitHeaders } from "./harness/hooks";
import { importRows, isExport } from "./harness/world";
import type { SeedAnswer } from "./harness/seed";
import type { Snowflakes } from "./wire/snowflakes";

/** What an import did: a seed (with fresh tokens), or a restored export (with none). */
export type ImportReport =
  | { kind: "seeded"; answer: SeedAnswer }
  | { kind: "restored"; people: number; servers: number; messages: number; needToken: { name: string; id: string }[]; needPassword: string[] };

/**
 * A bot is online while it holds a live gateway session (people see it in member
 * lists; bots with GUILD_PRESENCES get PRESENCE_UPDATE). Going online waits for the
 * IDENTIFY or RESUME to finish, so READY stays the session's first dispatch.
 */
export function botPresence(core: Core): GatewayHooks {
  const botOf = new Map<number, string>();
  const live = new Map<string, number>();
  const set = (botUserId: string, status: "online" | "offline") => {
    try {
      if (core.users.get(botUserId)?.presence !== status) core.users.setPresence(botUserId, status);
    } catch {
      // The bot is gone (its application was deleted): nothing to show.
    }
  };
  return {
    attached(connId, s) {
      const bot = s.owner.botUserId;
      botOf.set(connId, bot);
      live.set(bot, (live.get(bot) ?? 0) + 1);
      queueMicrotask(() => {
        if ((live.get(bot) ?? 0) > 0) set(bot, "online");
      });
    },
    closed(connId) {
      const bot = botOf.get(connId);
      if (!bot) return;
      botOf.delete(connId);
      const n = (live.get(bot) ?? 1) - 1;
      if (n > 0) return void live.set(bot, n);
      live.delete(bot);
      set(bot, "offline");
    },
  };
}

/** The rate-limit headers a harness fault answers with, as a real limit of that route would send them. */
export function limitHeadersOf(limiter: RateLimiter, clock: SwitchableClock): LimitHeaders {
  return (method, template, w) => {
    const now = clock.now();
    const rule = limiter.rule(method, template);
    const state = { limit: rule.limit, remaining: w.remaining ?? rule.limit, resetAt: now + (w.resetAfterMs ?? rule.windowMs), bucket: limiter.bucket(method, template) };
    return rateLimitHeaders(state, now);
  };
}

/** A seed document, or an exported world restored into an empty database. */
export function importWorld(p: { core: Core; clock: SwitchableClock; api: { flakes: Snowflakes }; seed(doc: unknown): SeedAnswer }, doc: unknown): ImportReport {
  if (!isExport(doc)) return { kind: "seeded", answer: p.seed(doc) };
  const rows = importRows(doc, p.clock.now());
  p.core.world.restore(rows);
  p.api.flakes.clearCache();
  const persons = rows.users.filter((u) => u.kind === "person" && u.deleted_at === null);
  return {
    kind: "restored",
    people: persons.length,
    servers: rows.guilds.length,
    messages: rows.messages.length,
    needToken: rows.applications.map((a) => ({ name: String(a.name), id: p.api.flakes.of(String(a.id)) })),
    needPassword: persons.map((u) => String(u.username)),
  };
}
