/**
 * Harness faults (design/harness.md "Faults") over real sockets and in-process requests:
 * every kind, what GET /faults lists, faults that match nothing, DELETE, reset, and
 * the refusals of bad fault bodies.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, refusal } from "../helpers";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
const open: Gw[] = [];

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  p.listen();
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

const harness = (method: string, path: string, body?: unknown) => call(p, method, `/api/harness/v1${path}`, { body });
const fault = (body: Record<string, unknown>) => harness("POST", "/faults", body);
const app = () => W.w.applications.AllBot.id;
const token = () => W.w.applications.AllBot.token;
const post = (content: string, tok = token()) =>
  call(p, "POST", `/channels/${W.w.guilds.Lab.channels.general}/messages`, { token: tok, body: { content } });

async function live(intents = I.GUILDS | I.GUILD_MESSAGES) {
  const g = await Gw.open(p);
  open.push(g);
  const ready = await g.identify(token(), intents);
  await g.sync();
  return { g, session: ready.d.session_id as string };
}

async function until<T>(fn: () => Promise<T | null | false | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v) return v;
    await Bun.sleep(10);
  }
  throw new Error("condition never held");
}

describe("gateway faults", () => {
  test("gateway_close: every live session closes with 4000 and stays resumable; the fault acts at once and is not listed", async () => {
    const { g, session } = await live();
    const r = await fault({ kind: "gateway_close", application_id: app() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(String) });
    expect((await g.closed).code).toBe(4000);
    expect((await harness("GET", "/faults")).body).toEqual([]);
    expect((await harness("GET", `/applications/${app()}/sessions`)).body).toEqual([
      expect.objectContaining({ session_id: session, connected: false }),
    ]);
    const again = await Gw.open(p);
    open.push(again);
    again.send({ op: 6, d: { token: token(), session_id: session, seq: g.lastSeq } });
    await again.dispatch("RESUMED");
  });

  test("gateway_close with code 1000 is a plain close; another application's sessions stay", async () => {
    const { g } = await live();
    const other = await Gw.open(p);
    open.push(other);
    await other.identify(W.w.applications.PlainBot.token, I.GUILDS);
    await fault({ kind: "gateway_close", application_id: app(), code: 1000 });
    expect((await g.closed).code).toBe(1000);
    await other.sync();
    expect(other.isClosed).toBe(false);
  });

  test("invalid_session: op 9 d false, then a plain close; the session is gone and cannot be resumed", async () => {
    const { g, session } = await live();
    await fault({ kind: "invalid_session", application_id: app() });
    expect((await g.next((f) => f.op === 9)).d).toBe(false);
    expect((await g.closed).code).toBe(1000);
    expect((await harness("GET", `/applications/${app()}/sessions`)).body).toEqual([]);
    const again = await Gw.open(p);
    open.push(again);
    again.send({ op: 6, d: { token: token(), session_id: session, seq: 1 } });
    expect((await again.next((f) => f.op === 9)).d).toBe(false);
  });

  test("heartbeat_ack: the next n heartbeats of each session get no op 11; remaining counts down; then ACKs again", async () => {
    const { g } = await live();
    const { id } = (await fault({ kind: "heartbeat_ack", application_id: app(), drop: 2 })).body;
    const listed = async () => (await harness("GET", "/faults")).body as any[];
    expect(await listed()).toEqual([{ id, kind: "heartbeat_ack", application_id: app(), drop: 2, remaining: 2 }]);
    const acksBefore = g.frames.filter((f) => f.op === 11).length;
    g.send({ op: 1, d: g.lastSeq });
    await until(async () => (await listed())[0]?.remaining === 1);
    g.send({ op: 1, d: g.lastSeq });
    await until(async () => (await listed()).length === 0);
    // The next heartbeat is answered, and it is the first ACK since the fault was armed.
    await g.sync(g.lastSeq);
    expect(g.frames.filter((f) => f.op === 11).length).toBe(acksBefore + 1);
  });

  test("heartbeat_ack armed before the bot connects binds the session that heartbeats", async () => {
    await fault({ kind: "heartbeat_ack", application_id: app(), drop: 1 });
    const g = await Gw.open(p);
    open.push(g);
    await g.identify(token(), I.GUILDS);
    g.send({ op: 1, d: null });
    await until(async () => ((await harness("GET", "/faults")).body as any[]).length === 0);
    await g.sync();
    expect(g.frames.filter((f) => f.op === 11)).toHaveLength(1);
  });
});

describe("REST faults", () => {
  test("rest 500 for a route template, twice: the spec's body and rate-limit headers, then the route runs again", async () => {
    const { id } = (await fault({ kind: "rest", route: "/channels/{channel_id}/messages", method: "POST", status: 500, times: 2 })).body;
    for (let i = 0; i < 2; i++) {
      const r = await post("broken?");
      expect(refusal(r)).toEqual([500, 0]);
      expect(r.body).toEqual({ code: 0, message: "500: Internal Server Error" });
      expect(r.headers.get("x-ratelimit-bucket")).toMatch(/^[0-9a-f]{32}$/);
      expect(r.headers.get("content-type")).toBe("application/json");
      if (i === 0) expect(((await harness("GET", "/faults")).body as any[])[0]).toMatchObject({ id, remaining: 1 });
    }
    expect((await post("works")).status).toBe(200);
    expect((await harness("GET", "/faults")).body).toEqual([]);
    expect((await p.core.messages.list(W.channel("Lab", "general"), { limit: 10 }, null)).map((m) => m.content)).toEqual(["works"]);
  });

  test("a 429 fault answers exactly as a bucket limit would: body, Retry-After, scope, spent window", async () => {
    await fault({ kind: "rest", route: "/channels/{channel_id}/messages", status: 429, retry_after: 2.5 });
    const r = await post("limited");
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: "You are being rate limited.", retry_after: 2.5, global: false, code: 0 });
    expect(r.headers.get("retry-after")).toBe("3");
    expect(r.headers.get("x-ratelimit-scope")).toBe("user");
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(r.headers.get("x-ratelimit-reset-after")).toBe("2.500");
    expect(r.headers.get("x-ratelimit-global")).toBeNull();
    expect(r.headers.get("via")).toBeTruthy();
  });

  test("a global 429 fault carries X-RateLimit-Global and global: true", async () => {
    await fault({ kind: "rest", route: "/users/@me", status: 429, retry_after: 1, global: true });
    const r = await call(p, "GET", "/users/@me", { token: token() });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: "You are being rate limited.", retry_after: 1, global: true, code: 0 });
    expect(r.headers.get("x-ratelimit-global")).toBe("true");
    expect(r.headers.get("x-ratelimit-scope")).toBe("global");
    expect(r.headers.get("retry-after")).toBe("1");
    // The route's count is untouched, and Reset-After points at retry_after, not the route's window.
    expect(r.headers.get("x-ratelimit-remaining")).toBe(r.headers.get("x-ratelimit-limit"));
    expect(r.headers.get("x-ratelimit-reset-after")).toBe("1.000");
  });

  test("502 and other statuses answer the spec's body for them", async () => {
    await fault({ kind: "rest", route: "/users/@me", status: 502 });
    await fault({ kind: "rest", route: "/users/@me", status: 403 });
    expect((await call(p, "GET", "/users/@me", { token: token() })).body).toEqual({ code: 0, message: "502: Bad Gateway" });
    expect((await call(p, "GET", "/users/@me", { token: token() })).body).toEqual({ code: 50001, message: "Missing Permissions" });
    expect((await call(p, "GET", "/users/@me", { token: token() })).status).toBe(200);
  });

  test("faults that match nothing stay armed: other method, route, application or id", async () => {
    const general = W.w.guilds.Lab.channels.general;
    await fault({ kind: "rest", route: "/channels/{id}/messages", method: "get", application_id: app(), status: 500 });
    await fault({ kind: "rest", route: `/api/v10/channels/${W.w.guilds.Lab.channels.staff}/messages`, status: 503 });
    expect((await post("a post, not a get")).status).toBe(200);
    expect((await call(p, "GET", `/channels/${general}/messages`, { token: W.w.applications.PlainBot.token })).status).toBe(200);
    expect((await call(p, "GET", `/channels/${general}`, { token: token() })).status).toBe(200);
    const listed = (await harness("GET", "/faults")).body as any[];
    expect(listed.map((f) => [f.method ?? null, f.status, f.remaining])).toEqual([
      ["GET", 500, 1],
      [null, 503, 1],
    ]);
    // Parameter names need not match the spec's; a concrete id limits the fault to that channel.
    expect(refusal(await call(p, "GET", `/channels/${general}/messages`, { token: token() }))).toEqual([500, 0]);
    expect(refusal(await call(p, "GET", `/channels/${W.w.guilds.Lab.channels.staff}/messages`, { token: token() }))).toEqual([503, 0]);
  });

  test("latency delays the matching requests (all routes when none is given), the others run at once", async () => {
    await fault({ kind: "latency", route: "/users/@me", ms: 300, times: 1 });
    const order: string[] = [];
    const slow = call(p, "GET", "/users/@me", { token: token() }).then((r) => order.push(`slow ${r.status}`));
    const fast = call(p, "GET", "/gateway/bot", { token: token() }).then((r) => order.push(`fast ${r.status}`));
    await Promise.all([slow, fast]);
    expect(order).toEqual(["fast 200", "slow 200"]);
    expect((await harness("GET", "/faults")).body).toEqual([]);
    const { id } = (await fault({ kind: "latency", ms: 1 })).body;
    await call(p, "GET", "/gateway/bot", { token: token() });
    expect((await harness("GET", "/faults")).body).toEqual([{ id, kind: "latency", ms: 1, remaining: null }]);
  });

  test("the transcript says which latency faults delayed a request (delayed_by), in JSON and in text", async () => {
    const a = (await fault({ kind: "latency", route: "/users/@me", ms: 5, times: 1 })).body.id;
    const b = (await fault({ kind: "latency", ms: 5, times: 1 })).body.id;
    await call(p, "GET", "/users/@me", { token: token() });
    await call(p, "GET", "/gateway/bot", { token: token() });
    const { entries } = (await harness("GET", `/applications/${app()}/transcript`)).body;
    const rest = entries.filter((e: { kind: string }) => e.kind === "rest");
    expect(rest.map((e: { route: string; delayed_by?: string[] }) => [e.route, e.delayed_by])).toEqual([
      ["/users/@me", [a, b]],
      ["/gateway/bot", undefined],
    ]);
    const { text } = await harness("GET", `/applications/${app()}/transcript?format=text`);
    expect(text).toContain(`GET /users/@me -> 200 (delayed by faults ${a}, ${b})`);
    expect(text).toMatch(/GET \/gateway\/bot -> 200 {2}response/);
  });

  test("DELETE /faults/{id} disarms one (204); unknown ids are 404 10003; reset clears them all", async () => {
    const a = (await fault({ kind: "rest", route: "/users/@me", status: 500 })).body.id;
    const b = (await fault({ kind: "latency", ms: 5, route: "/gateway/bot" })).body.id;
    expect((await harness("DELETE", `/faults/${a}`)).status).toBe(204);
    expect(((await harness("GET", "/faults")).body as any[]).map((f) => f.id)).toEqual([b]);
    expect(refusal(await harness("DELETE", `/faults/${a}`))).toEqual([404, 10003]);
    expect((await call(p, "GET", "/users/@me", { token: token() })).status).toBe(200);
    await fault({ kind: "heartbeat_ack", application_id: app(), drop: 3 });
    expect((await harness("POST", "/reset")).status).toBe(204);
    expect((await harness("GET", "/faults")).body).toEqual([]);
  });

  test("bad fault bodies are 400 50035 naming the field; an unknown application is 404 10003", async () => {
    const bad = [
      [{ kind: "meteor" }, "kind"],
      [{ kind: "rest", status: 500 }, "route"],
      [{ kind: "rest", route: "/users/@me", status: 200 }, "status"],
      [{ kind: "gateway_close", application_id: app(), code: 2000 }, "code"],
      [{ kind: "heartbeat_ack", application_id: app() }, "drop"],
      [{ kind: "latency", ms: 5, extra: true }, "extra"],
      [{ kind: "hold", what: "everything" }, "what"],
      // A hold is for a node sharing gateway sessions (--redis): this one holds none.
      [{ kind: "hold", what: "session_writes" }, "kind"],
    ] as const;
    for (const [body, field] of bad) {
      const r = await fault(body);
      expect(refusal(r)).toEqual([400, 50035]);
      expect(r.body.message).toContain(field);
    }
    expect(refusal(await fault({ kind: "gateway_close", application_id: "123456789012345678" }))).toEqual([404, 10003]);
    expect((await harness("GET", "/faults")).body).toEqual([]);
  });
});
