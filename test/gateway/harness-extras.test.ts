/**
 * What the harness gives test SDKs beyond the contract's first endpoints
 * (docs/harness.md): the event log's cursor on every answer and at GET /cursor, so a wait
 * sees only what an action caused; POST /settle, to wait until the bots are quiet; faults
 * matched by a concrete path; and coverage, kept by application name across resets.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, harness as harnessCall, makeParley, refusal } from "../helpers";
import { Gw, I, seedGatewayWorld, GATEWAY_WORLD, type World } from "./client";

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

const harness = (method: string, path: string, body?: unknown) => harnessCall(p, method, path, body);
const token = () => W.w.applications.AllBot.token;

async function live() {
  const g = await Gw.open(p);
  open.push(g);
  await g.identify(token(), I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
  await g.sync();
  return g;
}

describe("cursors", () => {
  test("every harness answer carries X-Event-Cursor: where the event log stood when the request came", async () => {
    await live();
    const before = (await harness("GET", "/cursor")).body;
    expect(before).toEqual({ events: expect.stringMatching(/^\d+$/), transcript: expect.stringMatching(/^\d+$/) });
    const said = await harness("POST", "/users/bob/messages", { channel_id: W.w.guilds.Lab.channels.general, content: "one" });
    const at = said.headers.get("x-event-cursor")!;
    expect(at).toBe(before.events);
    const page = (await harness("GET", `/events?after=${at}`)).body;
    expect(page.events.map((e: any) => [e.t, e.d.content])).toEqual([["MESSAGE_CREATE", "one"]]);
    const after = (await harness("GET", "/cursor")).body;
    expect(Number(after.events)).toBe(Number(at) + 1);
    expect(Number(after.transcript)).toBeGreaterThan(Number(before.transcript));
  });
});

describe("the world's generation", () => {
  test("every harness answer carries X-Harness-World, the resets and seeds so far: their own answers give the new one", async () => {
    const world = async (method: string, path: string, body?: unknown) =>
      Number((await harness(method, path, body)).headers.get("x-harness-world"));
    const first = await world("GET", "/cursor");
    expect(Number.isInteger(first)).toBe(true);
    expect(await world("POST", "/reset")).toBe(first + 1);
    expect(await world("POST", "/users/nobody/messages", { channel_id: "1", content: "x" })).toBe(first + 1);
    expect(await world("POST", "/seed", { users: [{ name: "zed" }] })).toBe(first + 2);
    // A refused seed changes nothing.
    expect(await world("POST", "/seed", { users: [{ name: "zed" }] })).toBe(first + 2);
  });
});

describe("POST /settle", () => {
  test("answers settled once nothing is in flight and nothing came for quiet_ms; not while a request is held", async () => {
    expect((await harness("POST", "/settle", { quiet_ms: 5 })).body).toEqual({ settled: true });
    await harness("POST", "/faults", { kind: "latency", ms: 300, times: 1 });
    const held = call(p, "GET", "/users/@me", { token: token() });
    await Bun.sleep(20);
    expect((await harness("POST", "/settle", { quiet_ms: 5, timeout_ms: 50 })).body).toEqual({ settled: false });
    expect((await held).status).toBe(200);
    expect((await harness("POST", "/settle", { quiet_ms: 5 })).body).toEqual({ settled: true });
    expect(refusal(await harness("POST", "/settle", { quiet_ms: -1 }))).toEqual([400, 50035]);
  });
});

describe("faults by concrete path", () => {
  test("a path fault answers only the request for that path; the route template's other requests run", async () => {
    const { general, staff } = W.w.guilds.Lab.channels;
    const armed = await harness("POST", "/faults", {
      kind: "rest",
      path: `/api/v10/channels/${staff}/messages`,
      method: "POST",
      status: 503,
    });
    expect(armed.status).toBe(200);
    expect((await harness("GET", "/faults")).body).toEqual([
      expect.objectContaining({ kind: "rest", path: `/api/v10/channels/${staff}/messages`, remaining: 1 }),
    ]);
    const post = (ch: string) => call(p, "POST", `/channels/${ch}/messages`, { token: token(), body: { content: "x" } });
    expect((await post(general)).status).toBe(200);
    expect((await post(staff)).status).toBe(503);
    expect((await post(staff)).status).toBe(200);
  });

  test("a route and a path together, a path with a template, or neither, are 400 50035", async () => {
    for (const body of [
      { kind: "rest", status: 500, route: "/channels/{channel_id}/messages", path: "/channels/1/messages" },
      { kind: "rest", status: 500, path: "/channels/{channel_id}/messages" },
      { kind: "rest", status: 500 },
    ])
      expect(refusal(await harness("POST", "/faults", body))).toEqual([400, 50035]);
  });
});

describe("coverage", () => {
  test("events, routes, commands and components per application name, kept across a reset; DELETE starts over", async () => {
    const g = await live();
    const app = W.w.applications.AllBot.id;
    const general = W.w.guilds.Lab.channels.general;
    await call(p, "PUT", `/applications/${app}/commands`, {
      token: token(),
      body: [
        { name: "ping", description: "Ping" },
        { name: "stats", description: "Stats" },
      ],
    });
    const button = {
      type: 1,
      components: [
        { type: 2, style: 1, label: "Go", custom_id: "go" },
        { type: 2, style: 1, label: "Stop", custom_id: "stop" },
      ],
    };
    const posted = await call(p, "POST", `/channels/${general}/messages`, {
      token: token(),
      body: { content: "press", components: [button] },
    });
    await harness("POST", "/users/alice/interactions", { channel_id: general, application_id: app, name: "ping" });
    await harness("POST", "/users/alice/interactions", { channel_id: general, message_id: posted.body.id, custom_id: "go" });
    await g.sync();
    const report = (await harness("GET", "/coverage")).body.applications.AllBot;
    expect(report.events).toMatchObject({ READY: 1, GUILD_CREATE: 1, MESSAGE_CREATE: 1, INTERACTION_CREATE: 2 });
    expect(report.routes).toMatchObject({
      "PUT /applications/{application_id}/commands": { calls: 1, statuses: { "200": 1 } },
      "POST /channels/{channel_id}/messages": { calls: 1, statuses: { "200": 1 } },
    });
    expect(report.commands).toEqual({
      registered: [
        { name: "ping", type: 1 },
        { name: "stats", type: 1 },
      ],
      used: { ping: 1 },
      unused: ["stats"],
    });
    expect(report.components).toEqual({ sent: ["go", "stop"], used: { go: 1 }, unused: ["stop"] });
    // A reset and a new world (new ids): the same application name adds to what was covered.
    await g.close();
    await harness("POST", "/reset");
    const w2 = (await harness("POST", "/seed", structuredClone(GATEWAY_WORLD))).body;
    await call(p, "GET", "/users/@me", { token: w2.applications.AllBot.token });
    const again = (await harness("GET", "/coverage")).body.applications.AllBot;
    expect(again.routes["GET /users/@me"]).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(again.commands.used).toEqual({ ping: 1 });
    expect((await harness("DELETE", "/coverage")).status).toBe(204);
    expect((await harness("GET", "/coverage")).body).toEqual({ applications: {} });
  });
});
