import { describe, expect, test, beforeEach } from "bun:test";
import { call, interactionPayload, invoke, liveBot, makeParley, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { SPEC_RATE_LIMITS } from "../../src/config";

let p: Parley;
let w: SeedAnswer;
let token: string;
let app: string;
let general: string;
let events: { type: string }[];

const ECHO = {
  name: "echo",
  description: "Echo",
  options: [
    { type: 3, name: "text", description: "What", required: true, max_length: 20 },
    { type: 4, name: "times", description: "How often", min_value: 1, max_value: 3 },
    { type: 3, name: "mood", description: "Mood", choices: [{ name: "Happy", value: "happy" }] },
    { type: 6, name: "who", description: "Whom" },
    { type: 7, name: "where", description: "Where" },
    { type: 8, name: "role", description: "Role" },
    { type: 5, name: "loud", description: "Loud" },
  ],
};

beforeEach(async () => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedBasic(p);
  token = w.applications.EchoBot.token;
  app = w.applications.EchoBot.id;
  general = w.guilds.Lab.channels.general;
  await call(p, "PUT", `/applications/${app}/commands`, { token, body: [{ name: "ping", description: "Ping" }, ECHO] });
  events = liveBot(p).events;
});

const count = (type: string) => events.filter((e) => e.type === type).length;

async function run(name = "ping", options?: unknown[], user = "alice", channel = general) {
  const r = await invoke(p, user, { channel_id: channel, application_id: app, name, ...(options ? { options } : {}) });
  expect(r.status).toBe(200);
  const payload = await interactionPayload(p, r.body.id);
  return { id: r.body.id as string, token: payload.token as string, payload };
}

const callback = (id: string, tok: string, body: unknown, query = "") =>
  call(p, "POST", `/interactions/${id}/${tok}/callback${query}`, { body });
const state = async (id: string) => (await call(p, "GET", `/api/harness/v1/interactions/${id}`)).body;

describe("delivery", () => {
  test("with no live gateway session the interaction is dropped: delivered false, no event, expired", async () => {
    p.gateway.hasLiveSession = () => false;
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "ping" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[0-9]{17,20}$/), delivered: false });
    expect(count("interaction.created")).toBe(0);
    expect(await interactionPayload(p, r.body.id)).toBeNull();
    expect((await state(r.body.id)).state).toBe("expired");
  });

  test("with a live session: delivered true, one interaction.created event, state pending", async () => {
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "ping" });
    expect(r.body.delivered).toBe(true);
    expect(count("interaction.created")).toBe(1);
    expect(await state(r.body.id)).toEqual({ state: "pending", response: null, followups: [] });
  });
});

describe("INTERACTION_CREATE payload of a slash command", () => {
  test("carries every field libraries read, with resolved users, members, channels and roles", async () => {
    const bob = w.users.bob.id;
    const mod = w.guilds.Lab.roles.Mod;
    const { payload: d } = await run("echo", [
      { name: "text", value: "hi" },
      { name: "times", value: 2 },
      { name: "who", value: bob },
      { name: "where", value: general },
      { name: "role", value: mod },
      { name: "loud", value: true },
    ]);
    expect(d.application_id).toBe(app);
    expect(d.type).toBe(2);
    expect(d.version).toBe(1);
    expect(d.token.length).toBeGreaterThanOrEqual(43);
    expect(d.guild_id).toBe(w.guilds.Lab.id);
    expect(d.guild).toEqual({ id: w.guilds.Lab.id, features: [], locale: "en-US" });
    expect(d.channel_id).toBe(general);
    expect(d.channel).toMatchObject({ id: general, type: 0, name: "general", guild_id: w.guilds.Lab.id });
    expect(d.member.user.id).toBe(w.users.alice.id);
    expect(Array.isArray(d.member.roles)).toBe(true);
    expect(d.member.permissions).toMatch(/^[0-9]+$/);
    expect(d.user).toBeUndefined();
    expect(d.app_permissions).toMatch(/^[0-9]+$/);
    expect(d.locale).toBe("en-US");
    expect(d.guild_locale).toBe("en-US");
    expect(d.entitlements).toEqual([]);
    expect(d.authorizing_integration_owners).toEqual({ "0": w.guilds.Lab.id });
    expect(d.context).toBe(0);
    expect(typeof d.attachment_size_limit).toBe("number");
    expect(d.data.name).toBe("echo");
    expect(d.data.type).toBe(1);
    expect(d.data.id).toMatch(/^[0-9]{17,20}$/);
    expect(d.data.options).toEqual([
      { name: "text", type: 3, value: "hi" },
      { name: "times", type: 4, value: 2 },
      { name: "who", type: 6, value: bob },
      { name: "where", type: 7, value: general },
      { name: "role", type: 8, value: mod },
      { name: "loud", type: 5, value: true },
    ]);
    expect(d.data.resolved.users[bob].username).toBe("bob");
    expect(d.data.resolved.members[bob].permissions).toMatch(/^[0-9]+$/);
    expect(d.data.resolved.members[bob].user).toBeUndefined();
    expect(d.data.resolved.channels[general]).toMatchObject({ id: general, type: 0, permissions: expect.any(String) });
    expect(d.data.resolved.roles[mod].name).toBe("Mod");
  });

  test("in the bot's DM: user instead of member, context 1, no guild", async () => {
    const f = p.api.flakes;
    const dm = f.of(p.core.dms.open(f.uuid(w.users.alice.id)!, f.uuid(w.applications.EchoBot.bot_user_id)!).id);
    const { payload: d } = await run("ping", undefined, "alice", dm);
    expect(d.user.id).toBe(w.users.alice.id);
    expect(d.member).toBeUndefined();
    expect(d.guild_id).toBeUndefined();
    expect(d.context).toBe(1);
    expect(d.channel).toMatchObject({ id: dm, type: 1 });
    expect(d.authorizing_integration_owners).toEqual({ "0": "0" });
  });
});

describe("options are checked against the stored command before delivery", () => {
  const bad: [string, unknown[] | undefined, string][] = [
    ["missing required option", [], "options"],
    [
      "unknown option",
      [
        { name: "text", value: "x" },
        { name: "nope", value: 1 },
      ],
      "options",
    ],
    [
      "string for an integer",
      [
        { name: "text", value: "x" },
        { name: "times", value: "2" },
      ],
      "options",
    ],
    [
      "integer out of range",
      [
        { name: "text", value: "x" },
        { name: "times", value: 9 },
      ],
      "options",
    ],
    ["string too long", [{ name: "text", value: "x".repeat(21) }], "options"],
    [
      "not a choice",
      [
        { name: "text", value: "x" },
        { name: "mood", value: "sad" },
      ],
      "options",
    ],
    [
      "unknown user",
      [
        { name: "text", value: "x" },
        { name: "who", value: "12345678901234567" },
      ],
      "options",
    ],
    [
      "option given twice",
      [
        { name: "text", value: "x" },
        { name: "text", value: "y" },
      ],
      "options",
    ],
  ];
  for (const [label, options, root] of bad)
    test(label, async () => {
      const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "echo", options });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.errors).toHaveProperty(root);
      expect(count("interaction.created")).toBe(0);
    });

  test("an unknown command is 400 50035 naming name", async () => {
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "nope" });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors).toHaveProperty("name");
    expect(count("interaction.created")).toBe(0);
  });

  test("a person outside the guild cannot invoke there (404)", async () => {
    const r = await invoke(p, "carol", { channel_id: general, application_id: app, name: "ping" });
    expect(refusal(r)).toEqual([404, 10003]);
  });

  test("default_member_permissions keeps the command from people without them", async () => {
    await call(p, "POST", `/applications/${app}/commands`, {
      token,
      body: { name: "kick", description: "k", default_member_permissions: "2" },
    });
    expect((await invoke(p, "alice", { channel_id: general, application_id: app, name: "kick" })).status).toBe(200);
    const sub = p.seed({ users: [{ name: "frank" }] }).users.frank;
    p.core.guilds.addMember(p.api.flakes.uuid(w.guilds.Lab.id)!, p.api.flakes.uuid(sub.id)!);
    const r = await invoke(p, "frank", { channel_id: general, application_id: app, name: "kick" });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
  });

  test("subcommands: exactly one, with its own options", async () => {
    await call(p, "POST", `/applications/${app}/commands`, {
      token,
      body: {
        name: "tag",
        description: "t",
        options: [{ type: 1, name: "get", description: "g", options: [{ type: 3, name: "key", description: "k", required: true }] }],
      },
    });
    const { payload } = await run("tag", [{ name: "get", options: [{ name: "key", value: "a" }] }]);
    expect(payload.data.options).toEqual([{ name: "get", type: 1, options: [{ name: "key", type: 3, value: "a" }] }]);
    const r = await invoke(p, "alice", { channel_id: general, application_id: app, name: "tag", options: [{ name: "get", options: [] }] });
    expect(refusal(r)).toEqual([400, 50035]);
  });
});

describe("the interaction state machine (spec 3.1)", () => {
  test("pending + type 1: 204, no effect, still pending", async () => {
    const i = await run();
    const r = await callback(i.id, i.token, { type: 1 });
    expect(r.status).toBe(204);
    expect((await state(i.id)).state).toBe("pending");
    expect(count("message.created")).toBe(0);
  });

  test("pending + type 4: 204, response posted as type 20 with interaction metadata; responded", async () => {
    const i = await run();
    const r = await callback(i.id, i.token, { type: 4, data: { content: "pong" } });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    const s = await state(i.id);
    expect(s.state).toBe("responded");
    expect(s.response).toMatchObject({
      content: "pong",
      type: 20,
      application_id: app,
      author: { id: w.applications.EchoBot.bot_user_id },
    });
    expect(s.response.interaction_metadata).toMatchObject({
      id: i.id,
      type: 2,
      user: { id: w.users.alice.id },
      authorizing_integration_owners: { "0": w.guilds.Lab.id },
    });
    expect(s.response.flags & 64).toBe(0);
    expect(count("message.created")).toBe(1);
  });

  test("responded + second callback: 400 40060, unchanged", async () => {
    const i = await run();
    await callback(i.id, i.token, { type: 4, data: { content: "pong" } });
    for (const type of [1, 4, 5]) {
      const r = await callback(i.id, i.token, { type, data: { content: "again" } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(40060);
    }
    expect(count("message.created")).toBe(1);
    expect((await state(i.id)).response.content).toBe("pong");
  });

  test("pending + type 5: a LOADING message is @original; deferred; PATCH @original answers it", async () => {
    const i = await run();
    expect((await callback(i.id, i.token, { type: 5 })).status).toBe(204);
    let s = await state(i.id);
    expect(s.state).toBe("deferred");
    expect(s.response.flags & 128).toBe(128);
    const orig = await call(p, "GET", `/webhooks/${app}/${i.token}/messages/@original`);
    expect(orig.status).toBe(200);
    expect(orig.body.id).toBe(s.response.id);
    expect((await callback(i.id, i.token, { type: 4, data: { content: "x" } })).body.code).toBe(40060);
    const edited = await call(p, "PATCH", `/webhooks/${app}/${i.token}/messages/@original`, { body: { content: "done" } });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe("done");
    expect(edited.body.flags & 128).toBe(0);
    s = await state(i.id);
    expect(s.state).toBe("responded");
    expect(count("message.created")).toBe(1);
    expect(count("message.updated")).toBe(1);
  });

  test("type 5 with EPHEMERAL: the loading message and its answer stay ephemeral", async () => {
    const i = await run();
    await callback(i.id, i.token, { type: 5, data: { flags: 64 } });
    const edited = await call(p, "PATCH", `/webhooks/${app}/${i.token}/messages/%40original`, { body: { content: "secret" } });
    expect(edited.status).toBe(200);
    expect(edited.body.flags).toBe(64);
  });

  test("deferred + follow-up POST: fills the loading message (legacy); later follow-ups are public messages", async () => {
    const i = await run();
    await callback(i.id, i.token, { type: 5, data: { flags: 64 } });
    const loadingId = (await state(i.id)).response.id;
    const first = await call(p, "POST", `/webhooks/${app}/${i.token}?wait=true`, { body: { content: "first" } });
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(loadingId);
    expect(first.body.flags).toBe(64);
    expect((await state(i.id)).state).toBe("responded");
    const second = await call(p, "POST", `/webhooks/${app}/${i.token}`, { body: { content: "second", flags: 64 } });
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(loadingId);
    expect(second.body.flags & 64).toBe(0);
    expect(second.body.interaction_metadata.original_response_message_id).toBe(loadingId);
    const s = await state(i.id);
    expect(s.followups.map((m: any) => m.content)).toEqual(["second"]);
    expect(count("message.created")).toBe(2);
    expect(count("message.updated")).toBe(1);
  });

  test("pending + follow-up POST: this post is the response (EPHEMERAL honoured), then @original is it", async () => {
    const i = await run();
    const r = await call(p, "POST", `/webhooks/${app}/${i.token}`, { body: { content: "hello", flags: 64 } });
    expect(r.status).toBe(200);
    expect(r.body.flags).toBe(64);
    const s = await state(i.id);
    expect(s.state).toBe("responded");
    expect(s.response.id).toBe(r.body.id);
    expect((await call(p, "GET", `/webhooks/${app}/${i.token}/messages/@original`)).body.id).toBe(r.body.id);
    expect((await callback(i.id, i.token, { type: 4, data: { content: "late" } })).body.code).toBe(40060);
  });

  test("the bot user's id names the application in the path, as on the reference; another's does not", async () => {
    const i = await run();
    const bot = w.applications.EchoBot.bot_user_id;
    const r = await call(p, "POST", `/webhooks/${bot}/${i.token}`, { body: { content: "hello" } });
    expect(r.status).toBe(200);
    expect((await call(p, "GET", `/webhooks/${bot}/${i.token}/messages/@original`)).body.id).toBe(r.body.id);
    const other = p.seed({ users: [{ name: "erin" }], applications: [{ name: "ThirdBot", owner: "erin" }] }).applications.ThirdBot;
    expect((await call(p, "GET", `/webhooks/${other.bot_user_id}/${i.token}/messages/@original`)).body.code).toBe(10062);
  });

  test("type 6 and 7 are for components only: 400 50035 on a command", async () => {
    const i = await run();
    for (const type of [6, 7]) {
      const r = await callback(i.id, i.token, { type, data: { content: "x" } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect((await state(i.id)).state).toBe("pending");
  });

  test("types 8 and 9: 501 code 50035, still pending; unknown types: 400 50035", async () => {
    const i = await run();
    for (const [type, status, code] of [
      [8, 501, 50035],
      [9, 501, 50035],
      [3, 400, 50035],
      [12, 400, 50035],
      [0, 400, 50035],
    ]) {
      const r = await callback(i.id, i.token, { type, data: { choices: [] } });
      expect([type, r.status, r.body.code]).toEqual([type, status, code]);
    }
    expect((await state(i.id)).state).toBe("pending");
    expect(refusal(await callback(i.id, i.token, { type: "four" }))).toEqual([400, 50035]);
  });

  test("expiry: usable at 15 minutes minus 1 ms, 404 10062 everywhere after 15 minutes", async () => {
    p.clock.advance(0); // virtual time from here on
    const i = await run();
    const j = await run();
    await callback(j.id, j.token, { type: 4, data: { content: "ok" } });
    p.clock.advance(15 * 60 * 1000 - 1);
    expect((await callback(i.id, i.token, { type: 1 })).status).toBe(204);
    p.clock.advance(2);
    const r = await callback(i.id, i.token, { type: 4, data: { content: "late" } });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(10062);
    for (const [method, path, body] of [
      ["POST", `/webhooks/${app}/${j.token}`, { content: "x" }],
      ["GET", `/webhooks/${app}/${j.token}/messages/@original`, undefined],
      ["PATCH", `/webhooks/${app}/${j.token}/messages/@original`, { content: "y" }],
      ["DELETE", `/webhooks/${app}/${j.token}/messages/@original`, undefined],
    ] as const) {
      const x = await call(p, method, path, { body });
      expect([method, x.status, x.body.code]).toEqual([method, 404, 10062]);
    }
    expect((await state(i.id)).state).toBe("expired");
    expect((await state(j.id)).state).toBe("expired");
    expect(await interactionPayload(p, i.id)).toBeNull();
  });

  test("never-issued tokens, another interaction's id and another application id: 404 10062", async () => {
    const i = await run();
    const j = await run();
    const fake = "x".repeat(64);
    expect((await callback(i.id, fake, { type: 1 })).body.code).toBe(10062);
    const crossed = await callback(j.id, i.token, { type: 4, data: { content: "x" } });
    expect(crossed.status).toBe(404);
    expect(crossed.body.code).toBe(10062);
    expect((await call(p, "POST", `/webhooks/${app}/${fake}`, { body: { content: "x" } })).body.code).toBe(10062);
    const wrongApp = await call(p, "POST", `/webhooks/${w.guilds.Lab.id}/${i.token}`, { body: { content: "x" } });
    expect(wrongApp.status).toBe(404);
    expect(wrongApp.body.code).toBe(10062);
    expect((await state(i.id)).state).toBe("pending");
    expect((await state(j.id)).state).toBe("pending");
  });

  test("callbacks and follow-ups take no Authorization header, and ignore a bot token", async () => {
    const i = await run();
    const r = await call(p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 4, data: { content: "x" } }, token });
    expect(r.status).toBe(204);
  });
});

describe("with_response", () => {
  for (const q of ["true", "True", "1"])
    test(`with_response=${q} on type 4 answers 200 {interaction, resource.message}`, async () => {
      const i = await run();
      const r = await callback(i.id, i.token, { type: 4, data: { content: "pong", flags: 64 } }, `?with_response=${q}`);
      expect(r.status).toBe(200);
      expect(r.body.interaction).toEqual({
        id: i.id,
        type: 2,
        response_message_id: r.body.resource.message.id,
        response_message_loading: false,
        response_message_ephemeral: true,
      });
      expect(r.body.resource.type).toBe(4);
      expect(r.body.resource.message).toMatchObject({ content: "pong", flags: 64, type: 20 });
    });

  test("type 5 with_response: loading, no message in the resource; with_response=false is 204", async () => {
    const i = await run();
    const r = await callback(i.id, i.token, { type: 5 }, "?with_response=true");
    expect(r.status).toBe(200);
    expect(r.body.interaction.response_message_loading).toBe(true);
    expect(r.body.resource).toEqual({ type: 5 });
    const j = await run();
    expect((await callback(j.id, j.token, { type: 1 }, "?with_response=false")).status).toBe(204);
  });
});

describe("response and follow-up messages", () => {
  test("follow-up ids: GET, PATCH, DELETE; a message not of this interaction is 404 10003", async () => {
    const i = await run();
    await callback(i.id, i.token, { type: 4, data: { content: "one" } });
    const f = (await call(p, "POST", `/webhooks/${app}/${i.token}`, { body: { content: "two" } })).body;
    expect((await call(p, "GET", `/webhooks/${app}/${i.token}/messages/${f.id}`)).body.content).toBe("two");
    expect((await call(p, "PATCH", `/webhooks/${app}/${i.token}/messages/${f.id}`, { body: { content: "2" } })).body.content).toBe("2");
    const other = await run();
    await callback(other.id, other.token, { type: 4, data: { content: "other" } });
    const otherMsg = (await state(other.id)).response.id;
    const x = await call(p, "GET", `/webhooks/${app}/${i.token}/messages/${otherMsg}`);
    expect(x.status).toBe(404);
    expect(x.body.code).toBe(10003);
    expect((await call(p, "DELETE", `/webhooks/${app}/${i.token}/messages/${f.id}`)).status).toBe(204);
    expect(refusal(await call(p, "GET", `/webhooks/${app}/${i.token}/messages/${f.id}`))).toEqual([404, 10003]);
    expect(count("message.deleted")).toBe(1);
    expect((await call(p, "DELETE", `/webhooks/${app}/${i.token}/messages/@original`)).status).toBe(204);
    expect(refusal(await call(p, "GET", `/webhooks/${app}/${i.token}/messages/@original`))).toEqual([404, 10003]);
  });

  test("PATCH replaces embeds/components when present, keeps them when absent, [] clears (rule 4)", async () => {
    const i = await run();
    const row = [{ type: 1, components: [{ type: 2, style: 1, custom_id: "a", label: "A" }] }];
    await callback(i.id, i.token, { type: 4, data: { content: "c", embeds: [{ title: "one" }, { title: "two" }], components: row } });
    const url = `/webhooks/${app}/${i.token}/messages/@original`;
    let m = (await call(p, "PATCH", url, { body: { content: "c2" } })).body;
    expect(m.embeds.map((e: any) => e.title)).toEqual(["one", "two"]);
    expect(m.components).toHaveLength(1);
    m = (await call(p, "PATCH", url, { body: { embeds: [{ title: "three" }] } })).body;
    expect(m.embeds.map((e: any) => e.title)).toEqual(["three"]);
    expect(m.content).toBe("c2");
    m = (await call(p, "PATCH", url, { body: { embeds: [], components: [] } })).body;
    expect(m.embeds).toEqual([]);
    expect(m.components).toEqual([]);
  });

  test("ephemeral responses are visible only to the invoking person", async () => {
    const i = await run();
    await callback(i.id, i.token, { type: 4, data: { content: "for alice", flags: 64 } });
    const f = p.api.flakes;
    const ch = f.uuid(general)!;
    const msgId = f.uuid((await state(i.id)).response.id)!;
    const seen = (who: string) => p.core.messages.list(ch, { limit: 50 }, f.uuid(w.users[who].id)!).map((m) => m.id);
    expect(seen("alice")).toContain(msgId);
    expect(seen("bob")).not.toContain(msgId);
    expect(() => p.core.messages.require(ch, msgId, f.uuid(w.users.bob.id)!)).toThrow();
    expect((await state(i.id)).response.flags & 64).toBe(64);
  });

  test("bad message bodies are 400 50035 naming the path, and change nothing", async () => {
    const i = await run();
    const cases: [unknown, string][] = [
      [{ content: "x".repeat(2001) }, "content"],
      [{ embeds: Array.from({ length: 11 }, () => ({ title: "t" })) }, "embeds"],
      [{ embeds: [{ title: "x".repeat(257) }] }, "embeds"],
      [{ components: [{ type: 1, components: [{ type: 2, style: 9, custom_id: "a", label: "A" }] }] }, "components"],
      [{ components: [{ type: 1, components: [{ type: 2, style: 1, label: "A" }] }] }, "components"],
      [{ components: [{ type: 1, components: [{ type: 3, custom_id: "s", options: [] }] }] }, "components"],
      [{}, "content"],
    ];
    for (const [data, path] of cases) {
      const r = await callback(i.id, i.token, { type: 4, data });
      expect([path, r.status, r.body.code]).toEqual([path, 400, 50035]);
      expect(JSON.stringify(r.body.errors)).toContain(path);
    }
    expect((await state(i.id)).state).toBe("pending");
    expect(count("message.created")).toBe(0);
  });
});

describe("people's API", () => {
  test("POST /api/client/v1/channels/{id}/interactions runs a command as the signed-in person", async () => {
    const f = p.api.flakes;
    const r = await call(p, "POST", `/api/client/v1/channels/${f.uuid(general)}/interactions`, {
      headers: { Authorization: `Session ${w.users.alice.token}` },
      body: {
        application_id: f.uuid(app),
        name: "echo",
        options: [
          { name: "text", value: "hey" },
          { name: "who", value: f.uuid(w.users.bob.id) },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.delivered).toBe(true);
    const d = await interactionPayload(p, f.of(r.body.id));
    expect(d.data.options[1]).toEqual({ name: "who", type: 6, value: w.users.bob.id });
    const anon = await call(p, "POST", `/api/client/v1/channels/${f.uuid(general)}/interactions`, {
      body: { application_id: f.uuid(app), name: "ping" },
    });
    expect(refusal(anon)).toEqual([401, 0]);
  });
});
