import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, makeParley, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { PERMISSIONS as P } from "../../src/core/permissions";

function world() {
  const w = structuredClone(BASIC_WORLD) as any;
  w.users.push({ name: "dave" });
  w.guilds[0].roles.push({ name: "Builder", permissions: ["MANAGE_CHANNELS", "MANAGE_ROLES", "MANAGE_GUILD"], members: [] });
  w.guilds[0].channels = [
    { name: "general" },
    { name: "staff", overwrites: [{ role: "@everyone", deny: ["SEND_MESSAGES"] }] },
    { name: "Cat", type: 4 },
    { name: "child", parent: "Cat" },
  ];
  w.guilds.push({ name: "Elsewhere", owner: "dave", channels: [{ name: "hidden" }] });
  return w;
}

let p: Parley;
let w: SeedAnswer;
let token: string;
const uuid = (f: string) => p.api.flakes.uuid(f)!;
const build = () =>
  p.core.guilds.addMemberRole(uuid(w.guilds.Lab.id), uuid(w.applications.EchoBot.bot_user_id), uuid(w.guilds.Lab.roles.Builder));

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(world());
  token = w.applications.EchoBot.token;
});

describe("GET channels", () => {
  test("GET /channels/{id} answers the spec 2.5 shape; invisible ids are 404 10003", async () => {
    const r = await call(p, "GET", `/channels/${w.guilds.Lab.channels.staff}`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: w.guilds.Lab.channels.staff,
      type: 0,
      guild_id: w.guilds.Lab.id,
      name: "staff",
      nsfw: false,
      parent_id: null,
      rate_limit_per_user: 0,
    });
    expect(r.body.permission_overwrites).toEqual([{ id: w.guilds.Lab.id, type: 0, allow: "0", deny: String(P.SEND_MESSAGES) }]);
    expect(typeof r.body.position).toBe("number");
    expect(r.body.bitrate).toBeUndefined();
    for (const id of [w.guilds.Elsewhere.channels.hidden, "123456789012345678"]) {
      const x = await call(p, "GET", `/channels/${id}`, { token });
      expect([x.status, x.body.code]).toEqual([404, 10003]);
    }
  });

  test("GET /guilds/{id}/channels lists every channel; another guild is 404", async () => {
    const r = await call(p, "GET", `/guilds/${w.guilds.Lab.id}/channels`, { token });
    expect(r.body.map((c: any) => c.name)).toEqual(["general", "staff", "Cat", "child"]);
    expect(r.body.find((c: any) => c.name === "child").parent_id).toBe(w.guilds.Lab.channels.Cat);
    expect(refusal(await call(p, "GET", `/guilds/${w.guilds.Elsewhere.id}/channels`, { token }))).toEqual([404, 10003]);
  });
});

describe("POST /guilds/{id}/channels", () => {
  const create = (body: unknown) => call(p, "POST", `/guilds/${w.guilds.Lab.id}/channels`, { token, body });

  test("needs MANAGE_CHANNELS; creates types 0, 2, 4, 5 with one channel.created each", async () => {
    const denied = await create({ name: "nope" });
    expect([denied.status, denied.body.code]).toEqual([403, 50001]);
    build();
    const ev = recordEvents(p);
    const text = await create({ name: "news", topic: "t", nsfw: true, rate_limit_per_user: 5, parent_id: w.guilds.Lab.channels.Cat });
    expect(text.status).toBe(200);
    expect(text.body).toMatchObject({
      name: "news",
      type: 0,
      topic: "t",
      nsfw: true,
      rate_limit_per_user: 5,
      parent_id: w.guilds.Lab.channels.Cat,
    });
    const voice = await create({ name: "talk", type: 2, user_limit: 5 });
    expect(voice.body).toMatchObject({ type: 2, user_limit: 5, bitrate: 64000 });
    expect((await create({ name: "cat2", type: 4 })).body.type).toBe(4);
    expect((await create({ name: "ann", type: 5 })).body.type).toBe(5);
    expect(ev.of("channel.created")).toHaveLength(4);
    expect(ev.events).toHaveLength(4);
  });

  test("threads, forums, stages and directories answer 501; DMs and unknown types 400; bad bodies 50035 with paths", async () => {
    build();
    const ev = recordEvents(p);
    for (const type of [10, 11, 12, 13, 14, 15, 16]) {
      const r = await create({ name: "x", type });
      expect([r.status, r.body.code]).toEqual([501, 0]);
    }
    for (const type of [1, 3, 6, 99]) expect((await create({ name: "x", type })).body.errors.type).toBeDefined();
    expect((await create({ name: "" })).body.errors.name).toBeDefined();
    expect((await create({ name: "x".repeat(101) })).body.errors.name).toBeDefined();
    expect((await create({ name: "x".repeat(100) })).status).toBe(200);
    expect((await create({ name: "x", topic: "t".repeat(1025) })).body.errors.topic).toBeDefined();
    expect((await create({ name: "x", rate_limit_per_user: 21601 })).body.errors.rate_limit_per_user).toBeDefined();
    expect((await create({ name: "x", parent_id: w.guilds.Lab.channels.general })).body.errors.parent_id).toBeDefined();
    expect((await create({ name: "x", type: 4, parent_id: w.guilds.Lab.channels.Cat })).body.errors.parent_id).toBeDefined();
    expect(ev.events).toHaveLength(1);
  });

  test("initial overwrites are masked to the 13 bits and need MANAGE_ROLES", async () => {
    build();
    const MENTION_EVERYONE = 1n << 17n;
    const r = await create({
      name: "locked",
      permission_overwrites: [{ id: w.guilds.Lab.id, type: 0, deny: String(MENTION_EVERYONE | BigInt(P.SEND_MESSAGES)), allow: null }],
    });
    expect(r.status).toBe(200);
    expect(r.body.permission_overwrites).toEqual([{ id: w.guilds.Lab.id, type: 0, allow: "0", deny: String(P.SEND_MESSAGES) }]);
  });
});

describe("PATCH /channels/{id}", () => {
  test("MANAGE_CHANNELS; fields change; one channel.updated; 2 per 10 minutes per channel", async () => {
    const lp = makeParley();
    const lw = lp.seed(world());
    const lt = lw.applications.EchoBot.token;
    const path = `/channels/${lw.guilds.Lab.channels.general}`;
    const denied = await call(lp, "PATCH", path, { token: lt, body: { name: "x" } });
    expect([denied.status, denied.body.code]).toEqual([403, 50001]);
    lp.core.guilds.addMemberRole(
      lp.api.flakes.uuid(lw.guilds.Lab.id)!,
      lp.api.flakes.uuid(lw.applications.EchoBot.bot_user_id)!,
      lp.api.flakes.uuid(lw.guilds.Lab.roles.Builder)!,
    );
    const ev = recordEvents(lp);
    const ok = await call(lp, "PATCH", path, {
      token: lt,
      body: { name: "lobby", topic: "hello", rate_limit_per_user: 30, nsfw: null, parent_id: lw.guilds.Lab.channels.Cat },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      name: "lobby",
      topic: "hello",
      rate_limit_per_user: 30,
      nsfw: false,
      parent_id: lw.guilds.Lab.channels.Cat,
    });
    expect(ev.of("channel.updated")).toHaveLength(1);
    // The 403 above was the first of the 2 allowed in this window: the third is limited.
    const third = await call(lp, "PATCH", path, { token: lt, body: { topic: "again" } });
    expect(refusal(third)).toEqual([429, 0]);
    expect(third.body.retry_after).toBeGreaterThan(0);
    lp.clock.advance(0);
    lp.clock.advance(600_000);
    expect((await call(lp, "PATCH", path, { token: lt, body: { topic: null } })).body.topic).toBeNull();
    await lp.stop();
  });

  test("type converts only between 0 and 5; limits are 50035 with the path", async () => {
    build();
    const path = `/channels/${w.guilds.Lab.channels.general}`;
    expect((await call(p, "PATCH", path, { token, body: { type: 5 } })).body.type).toBe(5);
    expect((await call(p, "PATCH", path, { token, body: { type: 0 } })).body.type).toBe(0);
    expect((await call(p, "PATCH", path, { token, body: { type: 2 } })).body.errors.type).toBeDefined();
    expect((await call(p, "PATCH", path, { token, body: { name: "n".repeat(101) } })).body.errors.name).toBeDefined();
    expect((await call(p, "PATCH", path, { token, body: { rate_limit_per_user: -1 } })).body.errors.rate_limit_per_user).toBeDefined();
  });
});

describe("DELETE /channels/{id}", () => {
  test("answers the deleted channel; channel.deleted carries a snapshot the serializer can use", async () => {
    const staff = w.guilds.Lab.channels.staff;
    expect(refusal(await call(p, "DELETE", `/channels/${staff}`, { token }))).toEqual([403, 50001]);
    build();
    const ev = recordEvents(p);
    const r = await call(p, "DELETE", `/channels/${staff}`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: staff,
      name: "staff",
      permission_overwrites: [{ id: w.guilds.Lab.id, deny: String(P.SEND_MESSAGES) }],
    });
    expect(ev.events.map((e) => e.type)).toEqual(["channel.deleted"]);
    const snap = (ev.events[0] as any).snapshot;
    expect(snap.channel.id).toBe(uuid(staff));
    expect(snap.overwrites).toHaveLength(1);
    expect(refusal(await call(p, "GET", `/channels/${staff}`, { token }))).toEqual([404, 10003]);
  });

  test("deleting a category re-parents its children with one channel.updated each", async () => {
    build();
    const ev = recordEvents(p);
    const r = await call(p, "DELETE", `/channels/${w.guilds.Lab.channels.Cat}`, { token });
    expect(r.status).toBe(200);
    expect(ev.events.map((e) => [e.type, (e as any).channelId])).toEqual([
      ["channel.updated", uuid(w.guilds.Lab.channels.child)],
      ["channel.deleted", uuid(w.guilds.Lab.channels.Cat)],
    ]);
    expect((await call(p, "GET", `/channels/${w.guilds.Lab.channels.child}`, { token })).body.parent_id).toBeNull();
  });

  test("deleting the system channel clears it on the guild (one guild.updated)", async () => {
    build();
    const ev = recordEvents(p);
    await call(p, "DELETE", `/channels/${w.guilds.Lab.channels.general}`, { token });
    expect(ev.of("guild.updated")).toHaveLength(1);
    expect(p.core.guilds.get(uuid(w.guilds.Lab.id))!.system_channel_id).toBeNull();
  });
});

describe("permission overwrites", () => {
  const put = (ch: string, target: string, body: unknown, t = token) =>
    call(p, "PUT", `/channels/${ch}/permissions/${target}`, { token: t, body });

  test("PUT needs MANAGE_ROLES, drops bits outside the 13 silently, fires channel.updated; DELETE removes it", async () => {
    const general = w.guilds.Lab.channels.general;
    const denied = await put(general, w.users.bob.id, { type: 1, deny: String(P.SEND_MESSAGES) });
    expect([denied.status, denied.body.code]).toEqual([403, 50001]);
    build();
    const ev = recordEvents(p);
    // MODERATE_MEMBERS and MANAGE_WEBHOOKS are dropped; MANAGE_GUILD is one the bot holds (Builder), as it must be.
    const allow = (1n << 40n) | (1n << 29n) | BigInt(P.MANAGE_GUILD);
    expect((await put(general, w.users.bob.id, { type: 1, allow: allow.toString(), deny: String(P.SEND_MESSAGES) })).status).toBe(204);
    const ch = (await call(p, "GET", `/channels/${general}`, { token })).body;
    expect(ch.permission_overwrites).toEqual([
      { id: w.users.bob.id, type: 1, allow: String(P.MANAGE_GUILD), deny: String(P.SEND_MESSAGES) },
    ]);
    // The overwrite is honoured: bob can no longer post there.
    expect(() => p.core.messages.send(uuid(w.users.bob.id), uuid(general), { content: "x" })).toThrow("Missing Permissions");
    expect((await call(p, "DELETE", `/channels/${general}/permissions/${w.users.bob.id}`, { token })).status).toBe(204);
    expect(refusal(await call(p, "DELETE", `/channels/${general}/permissions/${w.users.bob.id}`, { token }))).toEqual([404, 10003]);
    expect(ev.of("channel.updated")).toHaveLength(2);
    expect(ev.events).toHaveLength(2);
  });

  test("bad bodies and unknown targets", async () => {
    build();
    const general = w.guilds.Lab.channels.general;
    expect((await put(general, w.users.bob.id, { type: 2 })).body.errors.type).toBeDefined();
    expect((await put(general, w.users.bob.id, { type: 1, allow: "abc" })).body.errors.allow).toBeDefined();
    expect(refusal(await put(general, w.users.bob.id, { type: 1, allow: "99999999999999999999" }))).toEqual([400, 50035]);
    expect(refusal(await put(general, "123456789012345678", { type: 0 }))).toEqual([404, 10003]);
    expect(refusal(await put(general, w.users.dave.id, { type: 1 }))).toEqual([404, 10003]); // not a member
    expect((await put(general, w.guilds.Lab.roles.Mod, { type: 0, allow: P.SEND_MESSAGES })).status).toBe(204);
  });
});

describe("typing and invites", () => {
  test("POST /channels/{id}/typing: 204 and one typing.started; SEND_MESSAGES needed", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/typing`, { token });
    expect(r.status).toBe(204);
    expect(ev.events).toEqual([
      {
        type: "typing.started",
        channelId: uuid(w.guilds.Lab.channels.general),
        guildId: uuid(w.guilds.Lab.id),
        userId: uuid(w.applications.EchoBot.bot_user_id),
        at: expect.any(Number),
      },
    ]);
    expect(refusal(await call(p, "POST", `/channels/${w.guilds.Lab.channels.staff}/typing`, { token }))).toEqual([403, 50001]);
    expect(ev.events).toHaveLength(1);
  });

  test("people's typing through the client API fires typing.started too", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "POST", `/api/client/v1/channels/${uuid(w.guilds.Lab.channels.general)}/typing`, {
      headers: { Authorization: `Session ${w.users.bob.token}` },
    });
    expect(r.status).toBe(204);
    expect(ev.of("typing.started")).toHaveLength(1);
  });

  test("a bot cannot create an invite even with CREATE_INSTANT_INVITE; reads and revokes people's invites", async () => {
    const general = w.guilds.Lab.channels.general;
    const r = await call(p, "POST", `/channels/${general}/invites`, { token, body: {} });
    expect([r.status, r.body.code]).toEqual([403, 50001]);
    expect(refusal(await call(p, "POST", `/channels/${w.guilds.Elsewhere.channels.hidden}/invites`, { token, body: {} }))).toEqual([
      404, 10003,
    ]);
    p.store.write(() =>
      p.store.db
        .query(
          "INSERT INTO invites (code, guild_id, channel_id, inviter_id, max_age, max_uses, uses, temporary, created_at) VALUES (?, ?, ?, ?, 3600, 5, 1, 0, ?)",
        )
        .run("abc123", uuid(w.guilds.Lab.id), uuid(general), uuid(w.users.alice.id), p.clock.now()),
    );
    const got = await call(p, "GET", "/invites/abc123", { token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      type: 0,
      code: "abc123",
      guild: { id: w.guilds.Lab.id, name: "Lab" },
      channel: { id: general, name: "general", type: 0 },
      inviter: { id: w.users.alice.id },
    });
    expect(got.body.uses).toBeUndefined();
    expect(got.body.expires_at).toEqual(expect.any(String));
    expect(refusal(await call(p, "GET", `/guilds/${w.guilds.Lab.id}/invites`, { token }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", "/invites/abc123", { token }))).toEqual([403, 50001]);
    build();
    const list = await call(p, "GET", `/guilds/${w.guilds.Lab.id}/invites`, { token });
    expect(list.body).toEqual([
      expect.objectContaining({ code: "abc123", uses: 1, max_uses: 5, max_age: 3600, temporary: false, created_at: expect.any(String) }),
    ]);
    const del = await call(p, "DELETE", "/invites/abc123", { token });
    expect([del.status, del.body.code]).toEqual([200, "abc123"]);
    expect(refusal(await call(p, "GET", "/invites/abc123", { token }))).toEqual([404, 10003]);
    expect((await call(p, "GET", "/invites/nope", { token })).body.code).toBe(10003);
  });
});
