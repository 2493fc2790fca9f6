/**
 * The bot API's rate-limit table is read off the route declarations (each route's
 * `limit`), not kept beside them: it is the spec's eight rules (8.1), the config's
 * overrides (a --rate-limits file) win over a route's own, and an override naming no
 * route is a warning, not silence.
 */
import { describe, expect, test } from "bun:test";
import { botApiLimits } from "../../src/botapi";
import { createParley } from "../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";
import { call, seedBasic } from "../helpers";

describe("the rate-limit table", () => {
  test("is the spec's eight rules, read off the declarations", () => {
    expect(botApiLimits()).toEqual({
      "POST /channels/{channel_id}/messages": { limit: 5, windowMs: 5000 },
      "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": { limit: 1, windowMs: 250 },
      "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": { limit: 1, windowMs: 250 },
      "POST /channels/{channel_id}/typing": { limit: 5, windowMs: 5000 },
      "DELETE /channels/{channel_id}/messages/{message_id}": { limit: 5, windowMs: 1000 },
      "PATCH /guilds/{guild_id}/members/{user_id}": { limit: 10, windowMs: 10_000 },
      "PATCH /channels/{channel_id}": { limit: 2, windowMs: 600_000 },
      "POST /webhooks/{webhook_id}/{webhook_token}": { limit: 5, windowMs: 2000 },
    });
  });

  test("a route's own rule counts, and a configured override wins over it", async () => {
    for (const [routes, limit] of [
      [{}, 5],
      [{ "POST /channels/{channel_id}/messages": { limit: 2, windowMs: 1000 } }, 2],
    ] as const) {
      const p = createParley(testConfig({ rateLimits: { ...SPEC_RATE_LIMITS, routes } }));
      const w = seedBasic(p);
      p.clock.set(Date.parse("2026-05-01T00:00:00Z"));
      const r = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/messages`, {
        token: w.applications.EchoBot.token,
        body: { content: "hi" },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe(String(limit));
      await p.stop();
    }
  });

  test("an override naming no route is logged as a warning", async () => {
    const lines: string[] = [];
    const routes = { "POST /channels/{channel_id}/mesages": { limit: 1, windowMs: 1000 } };
    const p = createParley(testConfig({ logLevel: "warn", logFormat: "json", rateLimits: { ...SPEC_RATE_LIMITS, routes } }), {
      logSink: (l) => lines.push(l),
    });
    await p.stop();
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.level === "warn");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ route: "POST /channels/{channel_id}/mesages" });
  });
});
