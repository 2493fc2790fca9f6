import { describe, expect, test, beforeEach } from "bun:test";
import { client, internalId, recordEvents, rowCounts, peopleWorld, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { PERMISSIONS } from "../../src/core/permissions";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string;
let lab: string, general: string, mod: string;

beforeEach(() => {
  ({ p, w, alice, bob, carol, lab, general, mod } = peopleWorld());
});

describe("servers", () => {
  test("create a server: owner, @everyone, a general channel; one guild.created event", async () => {
    const ev = recordEvents(p);
    const r = await client(p, "POST", "/guilds", carol, { name: "Carol's Place" });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("Carol's Place");
    expect(r.body.owner_id).toBe(internalId(p, w.users.carol.id));
    expect(r.body.channels.map((c: any) => c.name)).toEqual(["general"]);
    expect(r.body.roles).toEqual([expect.objectContaining({ name: "@everyone", everyone: true, id: r.body.id })]);
    expect(r.body.member_count).toBe(1);
    expect(ev.count("guild.created")).toBe(1);
    const list = await client(p, "GET", "/guilds", carol);
    expect(list.body.map((g: any) => g.id)).toEqual([r.body.id]);
  });

  test("a bad name is 400 50035 and creates nothing", async () => {
    const before = rowCounts(p, ["guilds", "channels", "roles", "members"]);
    for (const name of ["x", "y".repeat(101)]) {
      const r = await client(p, "POST", "/guilds", carol, { name });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(rowCounts(p, ["guilds", "channels", "roles", "members"])).toEqual(before);
  });

  test("edit needs MANAGE_GUILD; a non-member sees 404", async () => {
    const ev = recordEvents(p);
    const refused = await client(p, "PATCH", `/guilds/${lab}`, bob, { name: "Bob's Lab" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
    const stranger = await client(p, "PATCH", `/guilds/${lab}`, carol, { name: "Carol's Lab" });
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe(10003);
    expect(ev.count("guild.updated")).toBe(0);
    const ok = await client(p, "PATCH", `/guilds/${lab}`, alice, { name: "Big Lab", description: "science" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: "Big Lab", description: "science" });
    expect(ev.count("guild.updated")).toBe(1);
  });

  test("unknown and malformed guild ids are 404 10003", async () => {
    for (const id of ["nope", "01900000-0000-7000-8000-000000000000", w.guilds.Lab.id]) {
      const r = await client(p, "GET", `/guilds/${id}`, alice);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(10003);
    }
  });

  test("leave: a member leaves (one member.removed); the owner cannot", async () => {
    const ev = recordEvents(p);
    const owner = await client(p, "DELETE", `/users/@me/guilds/${lab}`, alice);
    expect(owner.status).toBe(400);
    expect(owner.body.code).toBe(50035);
    const r = await client(p, "DELETE", `/users/@me/guilds/${lab}`, bob);
    expect(r.status).toBe(204);
    expect(ev.count("member.removed")).toBe(1);
    expect(refusal(await client(p, "GET", `/guilds/${lab}`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "DELETE", `/users/@me/guilds/${lab}`, bob))).toEqual([404, 10003]);
  });

  test("members list shows users and their roles", async () => {
    const r = await client(p, "GET", `/guilds/${lab}/members`, bob);
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.body.map((m: any) => [m.user.username, m]));
    expect(Object.keys(byName).sort()).toEqual(["EchoBot", "alice", "bob"]);
    expect(byName.bob.roles).toEqual([mod]);
    expect(byName.EchoBot.user.bot).toBe(true);
  });
});

describe("channels, roles and overwrites", () => {
  test("create a channel needs MANAGE_CHANNELS; one channel.created", async () => {
    const ev = recordEvents(p);
    const refused = await client(p, "POST", `/guilds/${lab}/channels`, bob, { name: "bobs" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
    const r = await client(p, "POST", `/guilds/${lab}/channels`, alice, { name: "slow", topic: "calm", rate_limit_per_user: 10 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "slow", topic: "calm", type: 0, rate_limit_per_user: 10, guild_id: lab, e2e: false });
    expect(ev.count("channel.created")).toBe(1);
    const list = await client(p, "GET", `/guilds/${lab}/channels`, bob);
    expect(list.body.map((c: any) => c.name)).toEqual(["general", "staff", "slow"]);
  });

  test("bad channel bodies are 400 50035 and create nothing", async () => {
    const before = rowCounts(p, ["channels"]);
    for (const body of [
      {},
      { name: "" },
      { name: "x", type: 1 },
      { name: "x", rate_limit_per_user: -1 },
      { name: "x", parent_id: general },
    ]) {
      const r = await client(p, "POST", `/guilds/${lab}/channels`, alice, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(rowCounts(p, ["channels"])).toEqual(before);
  });

  test("create a role needs MANAGE_ROLES, and nobody grants bits they lack", async () => {
    // bob (Mod: KICK_MEMBERS, MANAGE_MESSAGES) gets MANAGE_ROLES through a second role
    const helper = await client(p, "POST", `/guilds/${lab}/roles`, alice, { name: "Helper", permissions: ["MANAGE_ROLES"] });
    expect(helper.status).toBe(200);
    expect(helper.body.permissions).toBe(String(PERMISSIONS.MANAGE_ROLES));
    const before = rowCounts(p, ["roles"]);
    const early = await client(p, "POST", `/guilds/${lab}/roles`, bob, { name: "Nope" });
    expect(refusal(early)).toEqual([403, 50001]);
    const bobId = internalId(p, w.users.bob.id);
    expect((await client(p, "PUT", `/guilds/${lab}/members/${bobId}/roles/${helper.body.id}`, alice)).status).toBe(204);
    const ev = recordEvents(p);
    const tooMuch = await client(p, "POST", `/guilds/${lab}/roles`, bob, { name: "Boss", permissions: ["ADMINISTRATOR"] });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body.code).toBe(50001);
    expect(rowCounts(p, ["roles"])).toEqual(before);
    const fine = await client(p, "POST", `/guilds/${lab}/roles`, bob, {
      name: "Kicker",
      permissions: String(PERMISSIONS.KICK_MEMBERS + 2 ** 40),
    });
    expect(fine.status).toBe(200);
    // bits outside the 13 honoured ones are dropped silently (spec 2.9)
    expect(fine.body.permissions).toBe(String(PERMISSIONS.KICK_MEMBERS));
    expect(ev.count("role.created")).toBe(1);
  });

  test("unknown permission names are 400 naming the index", async () => {
    const r = await client(p, "POST", `/guilds/${lab}/roles`, alice, { name: "X", permissions: ["SEND_MESSAGES", "FLY"] });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.message).toContain("permissions[1]");
  });

  test("overwrites need MANAGE_ROLES and change what a person may do in the channel", async () => {
    const ev = recordEvents(p);
    const refused = await client(p, "PUT", `/channels/${general}/overwrites/${lab}`, bob, { type: "role", deny: ["SEND_MESSAGES"] });
    expect(refusal(refused)).toEqual([403, 50001]);
    const ok = await client(p, "PUT", `/channels/${general}/overwrites/${lab}`, alice, { type: "role", deny: ["SEND_MESSAGES"] });
    expect(ok.status).toBe(200);
    expect(ok.body.overwrites).toEqual([{ target_id: lab, type: "role", allow: "0", deny: String(PERMISSIONS.SEND_MESSAGES) }]);
    expect(ev.count("channel.updated")).toBe(1);
    const send = await client(p, "POST", `/channels/${general}/messages`, bob, { content: "hello?" });
    expect(send.status).toBe(403);
    expect(send.body.code).toBe(50001);
    const unknownTarget = await client(p, "PUT", `/channels/${general}/overwrites/01900000-0000-7000-8000-000000000000`, alice, {
      type: "member",
      allow: [],
    });
    expect(refusal(unknownTarget)).toEqual([404, 10003]);
  });

  test("PATCH a channel with `overwrites` replaces its list (MANAGE_CHANNELS and MANAGE_ROLES): another channel's list copied as read", async () => {
    const staff = internalId(p, w.guilds.Lab.channels.staff);
    const list = (await client(p, "GET", `/channels/${staff}`, alice)).body.overwrites;
    expect(list).toEqual([{ target_id: lab, type: "role", allow: "0", deny: String(PERMISSIONS.SEND_MESSAGES) }]);
    const ev = recordEvents(p);
    expect(refusal(await client(p, "PATCH", `/channels/${general}`, bob, { overwrites: list }))).toEqual([403, 50001]);
    // Manage Channels alone is not enough to write overwrites.
    await client(p, "PATCH", `/guilds/${lab}/roles/${mod}`, alice, { permissions: ["MANAGE_CHANNELS"] });
    expect(refusal(await client(p, "PATCH", `/channels/${general}`, bob, { overwrites: list }))).toEqual([403, 50001]);
    const bad = await client(p, "PATCH", `/channels/${general}`, alice, { overwrites: [{ target_id: "nope", type: "role" }] });
    expect(refusal(bad)).toEqual([400, 50035]);
    expect(bad.body.message).toContain("overwrites");
    const unknown = { target_id: "01900000-0000-7000-8000-000000000000", type: "role" };
    expect(refusal(await client(p, "PATCH", `/channels/${general}`, alice, { overwrites: [unknown] }))).toEqual([404, 10003]);
    expect(ev.count("channel.updated")).toBe(0);
    expect(p.core.guilds.overwrites(general)).toEqual([]);
    const ok = await client(p, "PATCH", `/channels/${general}`, alice, { overwrites: list });
    expect(ok.status).toBe(200);
    expect(ok.body.overwrites).toEqual(list);
    expect(ev.count("channel.updated")).toBe(1);
    const cleared = await client(p, "PATCH", `/channels/${general}`, alice, { overwrites: [] });
    expect(cleared.body.overwrites).toEqual([]);
  });

  test("member roles: only roles below the actor's highest", async () => {
    const carolJoin = await client(p, "POST", `/channels/${general}/invites`, alice, {});
    await client(p, "POST", `/invites/${carolJoin.body.code}`, carol);
    const carolId = internalId(p, w.users.carol.id);
    // bob holds Mod (position 1) and nothing with MANAGE_ROLES
    expect(refusal(await client(p, "PUT", `/guilds/${lab}/members/${carolId}/roles/${mod}`, bob))).toEqual([403, 50001]);
    const ev = recordEvents(p);
    expect((await client(p, "PUT", `/guilds/${lab}/members/${carolId}/roles/${mod}`, alice)).status).toBe(204);
    expect((await client(p, "DELETE", `/guilds/${lab}/members/${carolId}/roles/${mod}`, alice)).status).toBe(204);
    expect(ev.count("member.updated")).toBe(2);
  });
});
