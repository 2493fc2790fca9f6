/**
 * What the server says about itself: /healthz, /readyz, /metrics, and the log lines of
 * requests and gateway connections (never a token, a password or a message body).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createParley, type Parley } from "../../src/app";
import { testConfig, VERSION } from "../../src/config";
import { INTENTS } from "../../src/core/permissions";
import { BASIC_WORLD, call, client, ORIGIN } from "../helpers";
import { Gw } from "../gateway/client";
import type { SeedAnswer } from "../../src/world";

async function get(p: Parley, path: string) {
  const r = await p.handle(new Request(`${ORIGIN}${path}`));
  return { status: r.status, body: (await r.json()) as any };
}

function build(logFormat: "json" | "pretty") {
  const lines: string[] = [];
  const p = createParley(testConfig({ logLevel: "info", logFormat, port: 0 }), { logSink: (l) => lines.push(l) });
  return { p, lines };
}

describe("health, readiness and metrics", () => {
  let p: Parley;
  let w: SeedAnswer;
  let lines: string[];
  beforeAll(() => {
    ({ p, lines } = build("json"));
    w = p.seed(structuredClone(BASIC_WORLD));
    p.listen();
  });
  afterAll(() => p.stop());

  test("/healthz answers with the version", async () => {
    const r = await get(p, "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "ok", version: VERSION });
    expect(VERSION).toBe((await import("../../package.json")).version);
  });

  test("/readyz: the database is writable and every migration is applied", async () => {
    const r = await get(p, "/readyz");
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("ready");
    expect(r.body.database.writable).toBe(true);
    expect(r.body.database.migrations.applied).toBe(r.body.database.migrations.known);
  });

  test("/metrics: requests by route template and status, latency, gateway sessions and frames, commit sizes, event-loop lag", async () => {
    const token = w.applications.EchoBot.token;
    const general = w.guilds.Lab.channels.general;
    expect((await call(p, "GET", "/users/@me", { token })).status).toBe(200);
    expect((await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "hi" } })).status).toBe(200);
    expect((await call(p, "GET", "/users/@me", { token: "nope" })).status).toBe(401);
    // The 501 fallback: one route label for every path, each request counted once (by the pipeline, with or without a token).
    expect((await call(p, "GET", "/stickers/1", { token })).status).toBe(501);
    expect((await call(p, "GET", "/stickers/2")).status).toBe(501);
    // Two sessions that come together in one cohort: a publish counts every session it numbers for.
    const [gw, gw2] = [await Gw.open(p), await Gw.open(p)];
    for (const g of [gw, gw2]) await g.identify(token, INTENTS.GUILDS | INTENTS.GUILD_MESSAGES);
    for (const text of ["one", "two"])
      p.core.messages.create({ channelId: p.api.flakes.uuid(general)!, authorId: p.api.flakes.uuid(w.users.alice.id)!, content: text });
    for (const g of [gw, gw2]) await g.sync();
    expect(p.gateway.cohortSizes()).toEqual([2]);
    const frames = gw.dispatches().length + gw2.dispatches().length;
    const r = await fetch(`${p.api.urls.base}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/plain");
    const text = await r.text();
    expect(text).toContain('parley_http_requests_total{surface="bot",method="GET",route="/api/v10/users/@me",status="200"} 1');
    expect(text).toContain(
      'parley_http_requests_total{surface="bot",method="POST",route="/api/v10/channels/{channel_id}/messages",status="200"} 1',
    );
    expect(text).toContain('route="/api/v10/users/@me",status="401"} 1');
    expect(text).toContain('parley_http_requests_total{surface="bot",method="GET",route="/api/v10/*",status="501"} 2');
    expect(text).toMatch(
      /parley_http_request_duration_seconds_bucket\{le="0.005",surface="bot",method="GET",route="\/api\/v10\/users\/@me"\} \d/,
    );
    expect(text).toContain("parley_gateway_sessions 2");
    expect(text).toContain("parley_gateway_connections 2");
    expect(text).toContain(`parley_gateway_dispatched_frames_total ${frames}\n`);
    expect(text).toMatch(/parley_db_commit_writes_bucket\{le="1",kind="group"\} [1-9]/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    expect(text).not.toContain(general); // ids stay out of labels: templates only
    for (const g of [gw, gw2]) {
      g.ws.close();
      await g.closed;
    }
  });

  test("log lines: one per request with the route template and the application; one per gateway connection; no secrets", async () => {
    const token = w.applications.EchoBot.token;
    const general = w.guilds.Lab.channels.general;
    lines.length = 0;
    await call(p, "POST", `/channels/${general}/messages`, { token, body: { content: "a secret body" } });
    await call(p, "POST", "/api/client/v1/auth/signin", { body: { username: "alice", password: "wrong password" } });
    await client(p, "GET", "/users/@me", w.users.alice.token);
    await p.handle(new Request(`${ORIGIN}/no/such/path`));
    const gw = await Gw.open(p);
    await gw.identify(token, INTENTS.GUILDS);
    gw.ws.close();
    await gw.closed;
    await Bun.sleep(20);
    const json = lines.map((l) => JSON.parse(l));
    const bot = json.find((l) => l.surface === "bot");
    expect(bot).toMatchObject({
      level: "info",
      msg: "request",
      method: "POST",
      route: "/api/v10/channels/{channel_id}/messages",
      status: 200,
      app: w.applications.EchoBot.id,
    });
    expect(typeof bot.ms).toBe("number");
    expect(json.find((l) => l.route === "/api/client/v1/auth/signin")).toMatchObject({ surface: "people", status: 401 });
    const me = json.find((l) => l.route === "/api/client/v1/users/@me");
    expect(me.person).toBe(p.api.flakes.uuid(w.users.alice.id));
    expect(json.find((l) => l.route === "(no route)")).toMatchObject({ surface: "none", status: 404 });
    const conn = json.find((l) => l.msg === "gateway");
    expect(conn).toMatchObject({ how: "identify", app: w.applications.EchoBot.id, code: null });
    const all = lines.join("\n");
    for (const secret of [token, token.split(".")[2], w.users.alice.token, "a secret body", "wrong password", general])
      expect(all).not.toContain(secret);
  });

  test("--log-format pretty: one readable line a request", async () => {
    const { p: q, lines: pretty } = build("pretty");
    try {
      const s = q.seed(structuredClone(BASIC_WORLD));
      await call(q, "GET", "/users/@me", { token: s.applications.EchoBot.token });
      expect(pretty.at(-1)).toMatch(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  GET /api/v10/users/@me 200 [\\d.]+ms app=${s.applications.EchoBot.id}\\n$`),
      );
    } finally {
      await q.stop();
    }
  });

  test("--log-level warn: no request lines", async () => {
    const lines2: string[] = [];
    const q = createParley(testConfig({ logLevel: "warn", logFormat: "json" }), { logSink: (l) => lines2.push(l) });
    try {
      await get(q, "/healthz");
      expect(lines2).toEqual([]);
    } finally {
      await q.stop();
    }
  });
});
