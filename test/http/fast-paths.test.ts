/**
 * The request path's fast paths each have a switch (config/fast-paths.ts), and
 * `testConfig({ fastPaths })` reaches them: with one off, the plain path runs and the
 * answers are what they are with it on. (The session-wide comparison of every answer and
 * frame is test/diff.)
 */
import { describe, expect, test } from "bun:test";
import { createParley, type Parley } from "../../src/app";
import { SPEC_RATE_LIMITS, testConfig, type FastPaths } from "../../src/config";
import { BASIC_WORLD, call, ORIGIN, seedBasic } from "../helpers";

function parley(fastPaths: Partial<FastPaths>): Parley {
  return createParley(testConfig({ fastPaths, rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
}

/** A few answers of the bot API on a world seeded at a fixed instant (its ids repeat): status and body. */
async function session(p: Parley) {
  const w = p.seed({ ...structuredClone(BASIC_WORLD), start_time: "2026-05-01T00:00:00Z" });
  const token = w.applications.EchoBot.token;
  const general = w.guilds.Lab.channels.general;
  const seen: unknown[] = [];
  const keep = (r: { status: number; body: unknown }) => seen.push([r.status, r.body]);
  keep(await call(p, "GET", "/users/@me", { token }));
  keep(await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "hi" } }));
  keep(await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: 5 } }));
  keep(await call(p, "GET", "/users/@me", { token: `${token}x` }));
  return seen;
}

describe("each switch reaches its fast path, and off answers as on", () => {
  test("syncAnswers: off, even a read with nothing to wait for answers through a promise", async () => {
    for (const on of [true, false]) {
      const p = parley({ syncAnswers: on });
      const w = seedBasic(p);
      const me = p.http.fetch(
        new Request(`${ORIGIN}/api/v10/users/@me`, { headers: { Authorization: `Bot ${w.applications.EchoBot.token}` } }),
      );
      expect(me instanceof Promise).toBe(!on);
      expect((await me).status).toBe(200);
      await p.stop();
    }
  });

  test("nativeRouter: off, the server sends the bot API's requests through the Elysia app too", async () => {
    for (const on of [true, false]) {
      const p = parley({ nativeRouter: on });
      const w = seedBasic(p);
      p.listen();
      // Elysia's fetch is an accessor: counted by putting a plain function in its place.
      const appFetch = p.http.fetch;
      let viaApp = 0;
      Object.defineProperty(p.http, "fetch", { configurable: true, value: (req: Request) => (viaApp++, appFetch(req)) });
      const r = await fetch(`${p.api.urls.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${w.applications.EchoBot.token}` } });
      expect(r.status).toBe(200);
      expect(viaApp).toBe(on ? 0 : 1);
      await p.stop();
    }
  });

  test("tokenMemo: off, no header is kept", async () => {
    for (const on of [true, false]) {
      const p = parley({ tokenMemo: on });
      const w = seedBasic(p);
      const token = w.applications.EchoBot.token;
      for (let i = 0; i < 2; i++) expect((await call(p, "GET", "/users/@me", { token })).status).toBe(200);
      expect((p.api.tokens as unknown as { seen: Map<string, unknown> }).seen.size).toBe(on ? 1 : 0);
      await p.stop();
    }
  });

  test("groupCommit: off, a post commits alone instead of in its turn's group", async () => {
    for (const on of [true, false]) {
      const p = parley({ groupCommit: on });
      const w = seedBasic(p);
      const r = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/messages`, {
        token: w.applications.EchoBot.token,
        body: { content: "hi" },
      });
      expect(r.status).toBe(200);
      const metrics = await (await p.handle(new Request(`${ORIGIN}/metrics`))).text();
      expect(/parley_db_commit_writes_count\{kind="group"\} 1/.test(metrics)).toBe(on);
      await p.stop();
    }
  });

  test("the answers are the same with every one of them off", async () => {
    const on = await session(parley({}));
    const off = await session(parley({ syncAnswers: false, nativeRouter: false, tokenMemo: false, groupCommit: false }));
    expect(off).toEqual(on);
    expect(on.length).toBe(4);
  });
});
