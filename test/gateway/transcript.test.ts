/**
 * Transcripts (design/harness.md "Transcripts"): every request and frame between one
 * application and Parley, in order, tokens masked, after a cursor, and as text.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { call, makeParley, refusal } from "../helpers";
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
const transcript = async (after?: string) =>
  (await harness("GET", `/applications/${W.w.applications.AllBot.id}/transcript${after ? `?after=${after}` : ""}`)).body;
const general = () => W.w.guilds.Lab.channels.general;
const token = () => W.w.applications.AllBot.token;

async function connect() {
  const g = await Gw.open(p);
  open.push(g);
  const ready = await g.identify(token(), I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
  await g.sync(g.lastSeq);
  return { g, session: ready.d.session_id as string };
}

test("gateway frames both ways in order, from HELLO on, with the bot token masked", async () => {
  const { session } = await connect();
  const t = await transcript();
  const frames = t.entries.map((e: any) => [e.kind, e.direction, e.op, e.t, e.s]);
  expect(frames).toEqual([
    ["gateway", "out", 10, null, null],
    ["gateway", "in", 2, null, null],
    ["gateway", "out", 0, "READY", 1],
    ["gateway", "out", 0, "GUILD_CREATE", 2],
    ["gateway", "in", 1, null, null],
    ["gateway", "out", 11, null, null],
  ]);
  for (const e of t.entries)
    expect(e).toEqual({
      at: expect.stringMatching(/^\d{4}-.*Z$/),
      kind: "gateway",
      session_id: session,
      direction: expect.any(String),
      op: expect.any(Number),
      t: e.t,
      s: e.s,
      d: e.d,
    });
  expect(t.entries[1].d.token).toBe("[masked]");
  expect(t.entries[1].d.intents).toBe(I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
  expect(t.entries[2].d.session_id).toBe(session);
  expect(typeof t.entries[4].d).toBe("number");
  expect(JSON.stringify(t)).not.toContain(token());
  // Another application's transcript holds none of this.
  expect((await harness("GET", `/applications/${W.w.applications.PlainBot.id}/transcript`)).body.entries).toEqual([]);
});

test("REST entries: method, route template, concrete path, status, request and response, faults included (the request they answered is read all the same, the fault named); `after` gives what is new", async () => {
  await connect();
  const { cursor } = await transcript();
  const fault = (await harness("POST", "/faults", { kind: "rest", route: "/channels/{channel_id}/messages", method: "POST", status: 500 }))
    .body.id;
  const body = { content: "hello from the bot" };
  expect((await call(p, "POST", `/channels/${general()}/messages`, { token: token(), body })).status).toBe(500);
  const sent = await call(p, "POST", `/channels/${general()}/messages`, { token: token(), body });
  const t = await transcript(cursor);
  const rest = t.entries.filter((e: any) => e.kind === "rest");
  expect(rest).toEqual([
    {
      at: expect.any(String),
      kind: "rest",
      method: "POST",
      route: "/channels/{channel_id}/messages",
      path: `/channels/${general()}/messages`,
      status: 500,
      request: body,
      response: { code: 0, message: "500: Internal Server Error" },
      fault,
    },
    {
      at: expect.any(String),
      kind: "rest",
      method: "POST",
      route: "/channels/{channel_id}/messages",
      path: `/channels/${general()}/messages`,
      status: 200,
      request: body,
      response: sent.body,
    },
  ]);
  // The bot's own message reached it on the gateway too: the dispatch goes out at the
  // commit, so it sits just before the answer of the request that made it.
  const created = t.entries.findIndex((e: any) => e.t === "MESSAGE_CREATE");
  expect(t.entries[created].d.id).toBe(sent.body.id);
  expect(t.entries[created + 1]).toBe(rest[1]);
  const later = await transcript(t.cursor);
  expect(later).toEqual({ entries: [], cursor: t.cursor });
});

test("interaction callbacks without a bot token belong to the bot; interaction tokens are masked", async () => {
  const { g } = await connect();
  const panel = await call(p, "POST", `/channels/${general()}/messages`, {
    token: token(),
    body: { content: "press", components: [{ type: 1, components: [{ type: 2, style: 1, label: "Go", custom_id: "go" }] }] },
  });
  const { cursor } = await transcript();
  await harness("POST", "/users/bob/interactions", { channel_id: general(), message_id: panel.body.id, custom_id: "go" });
  const created = await g.dispatch("INTERACTION_CREATE");
  const cb = await call(p, "POST", `/interactions/${created.d.id}/${created.d.token}/callback`, {
    body: { type: 4, data: { content: "went" } },
  });
  expect(cb.status).toBe(204);
  const t = await transcript(cursor);
  expect(t.entries.find((e: any) => e.t === "INTERACTION_CREATE").d.token).toBe("[masked]");
  expect(t.entries.at(-1)).toMatchObject({
    kind: "rest",
    method: "POST",
    route: "/interactions/{interaction_id}/{interaction_token}/callback",
    path: `/interactions/${created.d.id}/[masked]/callback`,
    status: 204,
    request: { type: 4, data: { content: "went" } },
  });
  expect(JSON.stringify(t)).not.toContain(created.d.token);
});

test("op 9 of an invalid session and frames replayed on RESUME appear once, in order", async () => {
  const { g, session } = await connect();
  const { cursor } = await transcript();
  p.gateway.disconnect(session, 4000);
  await g.closed;
  p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("bob"), content: "while away" });
  const again = await Gw.open(p);
  open.push(again);
  again.send({ op: 6, d: { token: token(), session_id: session, seq: g.lastSeq } });
  await again.dispatch("RESUMED");
  await harness("POST", "/faults", { kind: "invalid_session", application_id: W.w.applications.AllBot.id });
  await again.closed;
  const t = await transcript(cursor);
  expect(t.entries.map((e: any) => [e.direction, e.op, e.t])).toEqual([
    ["out", 10, null],
    ["in", 6, null],
    ["out", 0, "MESSAGE_CREATE"],
    ["out", 0, "RESUMED"],
    ["out", 9, null],
  ]);
  expect(t.entries[1].d).toEqual({ token: "[masked]", session_id: session, seq: g.lastSeq });
});

test("a request answered 501 is transcribed when it carried the bot's token: an unknown route, POST /guilds, command permissions", async () => {
  const { cursor } = await transcript();
  const lab = W.w.guilds.Lab.id;
  const unknown = await call(p, "PATCH", `/guilds/${lab}/stickers/1?x=1`, { token: token(), body: { name: "s" } });
  const create = await call(p, "POST", "/guilds", { token: token(), body: { name: "New" } });
  const perms = await call(p, "GET", `/applications/${W.w.applications.AllBot.id}/commands/permissions`, { token: token() });
  for (const r of [unknown, create, perms]) expect(refusal(r)).toEqual([501, 0]);
  // Without a token, or with one that names no application, they belong to nobody.
  expect((await call(p, "GET", "/stickers/1")).status).toBe(501);
  expect((await call(p, "POST", "/guilds", { token: "bad.token.here", body: {} })).status).toBe(501);
  const t = await transcript(cursor);
  expect(t.entries).toEqual([
    {
      at: expect.any(String),
      kind: "rest",
      method: "PATCH",
      route: `/guilds/${lab}/stickers/1`,
      path: `/guilds/${lab}/stickers/1`,
      status: 501,
      request: null,
      response: unknown.body,
    },
    {
      at: expect.any(String),
      kind: "rest",
      method: "POST",
      route: "/guilds",
      path: "/guilds",
      status: 501,
      request: null,
      response: create.body,
    },
    {
      at: expect.any(String),
      kind: "rest",
      method: "GET",
      route: "/applications/{application_id}/commands/permissions",
      path: `/applications/${W.w.applications.AllBot.id}/commands/permissions`,
      status: 501,
      request: null,
      response: perms.body,
    },
  ]);
  for (const other of ["PlainBot"])
    expect((await harness("GET", `/applications/${W.w.applications[other].id}/transcript`)).body.entries).toEqual([]);
  const text = (await call(p, "GET", `/api/harness/v1/applications/${W.w.applications.AllBot.id}/transcript?format=text&after=${cursor}`))
    .text;
  expect(text).toContain(`rest    PATCH /guilds/${lab}/stickers/1 -> 501`);
});

test("numbers past 2^53 in the bot's frames keep every digit (discord.py's op 8 sends ids as numbers)", async () => {
  const { g } = await connect();
  const { cursor } = await transcript();
  const big = "1234567890123456789"; // above 2^53: a double would read 1234567890123456800
  g.send(`{"op":8,"d":{"guild_id":${big},"query":"","limit":0,"user_ids":[${big},42],"nonce":"n"}}`);
  await g.sync();
  const t = await transcript(cursor);
  const op8 = t.entries.find((e: any) => e.op === 8);
  expect(op8.d).toEqual({ guild_id: big, query: "", limit: 0, user_ids: [big, 42], nonce: "n" });
  const text = (await call(p, "GET", `/api/harness/v1/applications/${W.w.applications.AllBot.id}/transcript?format=text&after=${cursor}`))
    .text;
  expect(text).toContain(`REQUEST_GUILD_MEMBERS  {"guild_id":"${big}"`);
});

test("?format=text: one readable line per entry, tokens masked, the cursor in a header", async () => {
  await connect();
  await call(p, "POST", `/channels/${general()}/messages`, { token: token(), body: { content: "text form" } });
  const r = await fetch(`${p.api.urls.base}/api/harness/v1/applications/${W.w.applications.AllBot.id}/transcript?format=text`);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  const text = await r.text();
  const lines = text.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^\S+Z gateway parley -> bot HELLO /);
  expect(lines[1]).toContain("bot -> parley IDENTIFY");
  expect(lines[1]).toContain('"token":"[masked]"');
  expect(lines.find((l) => l.includes(" rest "))).toMatch(
    new RegExp(`rest +POST /channels/${general()}/messages -> 200  request \\{"content":"text form"\\}  response \\{`),
  );
  expect(text).not.toContain(token());
  expect(Number(r.headers.get("x-transcript-cursor"))).toBeGreaterThan(0);
});

test("unknown application 404 10003; bad cursor or format 400 50035; reset empties transcripts", async () => {
  expect(refusal(await harness("GET", "/applications/123456789012345678/transcript"))).toEqual([404, 10003]);
  const path = `/applications/${W.w.applications.AllBot.id}/transcript`;
  expect(refusal(await harness("GET", `${path}?after=x`))).toEqual([400, 50035]);
  expect(refusal(await harness("GET", `${path}?format=xml`))).toEqual([400, 50035]);
  await connect();
  expect((await transcript()).entries.length).toBeGreaterThan(0);
  await harness("POST", "/reset");
  W = seedGatewayWorld(p);
  expect((await transcript()).entries).toEqual([]);
});
