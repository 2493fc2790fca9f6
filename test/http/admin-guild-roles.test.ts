import { describe, expect, test, beforeEach } from "bun:test";
import { call, client, makeParley, recordEvents, seedAdmin, refusal } from "../helpers";
import { SPEC_RATE_LIMITS } from "../../src/config";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let mod: string; // ModBot: MANAGE_ROLES, highest role BotRole (position 3)
let plain: string; // PlainBot: no role
let g: string;
let roles: Record<string, string>;

beforeEach(() => {
  p = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedAdmin(p);
  mod = w.applications.ModBot.token;
  plain = w.applications.PlainBot.token;
  g = w.guilds.Lab.id;
  roles = w.guilds.Lab.roles;
});

const auditOf = (type: number) =>
  p.store.db.query("SELECT * FROM audit_log WHERE action_type = ? ORDER BY id").all(type) as {
    actor_id: string;
    target_id: string;
    reason: string | null;
    changes: string;
  }[];

describe("GET /guilds/{guild_id}", () => {
  test("answers every field of spec 2.6, joined_at for the member bot, counts on request", async () => {
    const r = await call(p, "GET", `/guilds/${g}?with_counts=true`, { token: mod });
    expect(r.status).toBe(200);
    for (const k of [
      "id",
      "name",
      "owner_id",
      "permissions",
      "preferred_locale",
      "afk_channel_id",
      "public_updates_channel_id",
      "rules_channel_id",
      "system_channel_id",
      "application_id",
      "afk_timeout",
      "banner",
      "splash",
      "discovery_splash",
      "icon",
      "description",
      "vanity_url_code",
      "region",
      "default_message_notifications",
      "explicit_content_filter",
      "mfa_level",
      "nsfw_level",
      "premium_tier",
      "verification_level",
      "system_channel_flags",
      "features",
      "emojis",
      "roles",
      "stickers",
      "stage_instances",
      "guild_scheduled_events",
      "incidents_data",
      "member_count",
      "large",
      "joined_at",
    ])
      expect(r.body).toHaveProperty(k);
    // GUILD_CREATE-only collections are absent (null breaks discord.py, [] empties discord.js caches).
    for (const k of ["channels", "members", "presences"]) expect(r.body).not.toHaveProperty(k);
    expect(r.body.id).toBe(g);
    expect(r.body.owner_id).toBe(w.users.alice.id);
    expect(r.body.roles).toHaveLength(5);
    expect(typeof r.body.joined_at).toBe("string");
    expect(r.body.approximate_member_count).toBe(6);
    const plainGet = await call(p, "GET", `/guilds/${g}`, { token: mod });
    expect(plainGet.body.approximate_member_count).toBeUndefined();
  });

  test("a guild the bot is not in, or an unknown id, is 404 10003", async () => {
    for (const id of [w.guilds.Elsewhere.id, "123456789012345678", "nope"]) {
      const r = await call(p, "GET", `/guilds/${id}`, { token: mod });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(10003);
    }
  });

  test("POST /guilds is 501 for a bot", async () => {
    const r = await call(p, "POST", "/guilds", { token: mod, body: { name: "New" } });
    expect(refusal(r)).toEqual([501, 0]);
  });

  test("leaving fires member.removed once and the guild is gone for the bot", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "DELETE", `/users/@me/guilds/${g}`, { token: plain });
    expect(r.status).toBe(204);
    expect(ev.count("member.removed")).toBe(1);
    expect(ev.events[0]).toMatchObject({ type: "member.removed", userId: p.api.flakes.uuid(w.applications.PlainBot.bot_user_id) });
    expect(refusal(await call(p, "GET", `/guilds/${g}`, { token: plain }))).toEqual([404, 10003]);
  });
});

describe("roles", () => {
  test("list and get one; unknown role 404", async () => {
    const list = await call(p, "GET", `/guilds/${g}/roles`, { token: plain });
    expect(list.status).toBe(200);
    expect(list.body.map((r: any) => r.name)).toEqual(["@everyone", "Low", "Mod", "BotRole", "High"]);
    const one = await call(p, "GET", `/guilds/${g}/roles/${roles.Mod}`, { token: plain });
    expect(one.body).toMatchObject({ id: roles.Mod, name: "Mod", position: 2, permissions: String(2 | 8192) });
    expect(refusal(await call(p, "GET", `/guilds/${g}/roles/123456789012345678`, { token: plain }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/guilds/${w.guilds.Elsewhere.id}/roles`, { token: plain }))).toEqual([404, 10003]);
  });

  test("create: bits masked to the 13, placed at position 1, events counted, audit with reason", async () => {
    const ev = recordEvents(p);
    // KICK_MEMBERS | MANAGE_WEBHOOKS (1<<29) | MODERATE_MEMBERS (1<<40): only KICK survives.
    const perms = (2n | (1n << 29n) | (1n << 40n)).toString();
    const r = await call(p, "POST", `/guilds/${g}/roles`, {
      token: mod,
      body: { name: "Helpers", permissions: perms, color: 0xff0000, hoist: true, mentionable: true },
      headers: { "X-Audit-Log-Reason": encodeURIComponent("for the helpers") },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Helpers", permissions: "2", color: 0xff0000, hoist: true, mentionable: true, position: 1 });
    expect(ev.count("role.created")).toBe(1);
    expect(ev.count("role.updated")).toBe(4); // Low, Mod, BotRole, High each moved up by one
    const a = auditOf(30);
    expect(a).toHaveLength(1);
    expect(a[0].reason).toBe("for the helpers");
    expect(p.api.flakes.of(a[0].target_id)).toBe(r.body.id);
    const list = await call(p, "GET", `/guilds/${g}/roles`, { token: mod });
    expect(list.body.map((x: any) => [x.name, x.position])).toEqual([
      ["@everyone", 0],
      ["Helpers", 1],
      ["Low", 2],
      ["Mod", 3],
      ["BotRole", 4],
      ["High", 5],
    ]);
  });

  test("create with no body uses the defaults", async () => {
    const r = await call(p, "POST", `/guilds/${g}/roles`, { token: mod });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe("new role");
  });

  test('a blank name is read as none, as the reference does: "new role" on create and on edit', async () => {
    for (const name of ["", "   "]) {
      const made = await call(p, "POST", `/guilds/${g}/roles`, { token: mod, body: { name, hoist: true } });
      expect([JSON.stringify(name), made.status, made.body.name]).toEqual([JSON.stringify(name), 200, "new role"]);
      const edited = await call(p, "PATCH", `/guilds/${g}/roles/${roles.Low}`, { token: mod, body: { name } });
      expect([JSON.stringify(name), edited.status, edited.body.name]).toEqual([JSON.stringify(name), 200, "new role"]);
      await call(p, "PATCH", `/guilds/${g}/roles/${roles.Low}`, { token: mod, body: { name: "Low" } });
    }
    // A person's own API refuses an empty name at its field; one of spaces gets the default too.
    const alice = w.users.alice.token;
    const low = p.api.flakes.uuid(roles.Low);
    const lab = p.api.flakes.uuid(g);
    const empty = await client(p, "PATCH", `/guilds/${lab}/roles/${low}`, alice, { name: "" });
    expect([...refusal(empty), Object.keys(empty.body.errors)]).toEqual([400, 50035, ["name"]]);
    expect((await client(p, "PATCH", `/guilds/${lab}/roles/${low}`, alice, { name: "  " })).body.name).toBe("new role");
    expect((await client(p, "POST", `/guilds/${lab}/roles`, alice, { name: " " })).body.name).toBe("new role");
  });

  test("create refusals: no MANAGE_ROLES 403, bits not held 403, bad color 400, nothing written", async () => {
    const ev = recordEvents(p);
    const noPerm = await call(p, "POST", `/guilds/${g}/roles`, { token: plain, body: { name: "x" } });
    expect(noPerm.status).toBe(403);
    expect(noPerm.body.code).toBe(50001);
    const admin = await call(p, "POST", `/guilds/${g}/roles`, { token: mod, body: { name: "x", permissions: "8" } });
    expect(refusal(admin)).toEqual([403, 50001]);
    const color = await call(p, "POST", `/guilds/${g}/roles`, { token: mod, body: { color: 16777216 } });
    expect(color.status).toBe(400);
    expect(color.body.code).toBe(50035);
    expect(color.body.message).toContain("color");
    const perms = await call(p, "POST", `/guilds/${g}/roles`, { token: mod, body: { permissions: "lots" } });
    expect(refusal(perms)).toEqual([400, 50035]);
    expect(ev.events).toHaveLength(0);
    expect(auditOf(30)).toHaveLength(0);
  });

  test("edit: nullable fields, role.updated once, audit 31 with changes", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "PATCH", `/guilds/${g}/roles/${roles.Low}`, {
      token: mod,
      body: { name: "Lower", color: 255, hoist: null, permissions: "2" },
      headers: { "X-Audit-Log-Reason": "rename" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Lower", color: 255, hoist: false, permissions: "2" });
    expect(ev.count("role.updated")).toBe(1);
    const a = auditOf(31);
    expect(a).toHaveLength(1);
    expect(a[0].reason).toBe("rename");
    const keys = JSON.parse(a[0].changes)
      .map((c: any) => c.key)
      .sort();
    expect(keys).toEqual(["color", "name", "permissions"]);
  });

  test("edit refusals: role at or above the bot's highest 403, granting unheld bits 403, unknown 404", async () => {
    for (const rid of [roles.BotRole, roles.High]) {
      const r = await call(p, "PATCH", `/guilds/${g}/roles/${rid}`, { token: mod, body: { name: "mine" } });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(50001);
    }
    const grant = await call(p, "PATCH", `/guilds/${g}/roles/${roles.Low}`, { token: mod, body: { permissions: String(1 << 5) } });
    expect(refusal(grant)).toEqual([403, 50001]);
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/roles/123456789012345678`, { token: mod, body: {} }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/roles/${roles.Low}`, { token: plain, body: { name: "z" } }))).toEqual([403, 50001]);
  });

  test("delete: 204, role.deleted, audit 32; @everyone 400; above 403; unknown 404", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "DELETE", `/guilds/${g}/roles/${roles.Low}`, { token: mod, headers: { "X-Audit-Log-Reason": "unused" } });
    expect(r.status).toBe(204);
    expect(ev.count("role.deleted")).toBe(1);
    expect(auditOf(32)[0].reason).toBe("unused");
    expect((await call(p, "GET", `/guilds/${g}/members/${w.users.carol.id}`, { token: mod })).body.roles).toEqual([]);
    const everyone = await call(p, "DELETE", `/guilds/${g}/roles/${roles["@everyone"]}`, { token: mod });
    expect(everyone.status).toBe(400);
    expect(everyone.body.code).toBe(50035);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/roles/${roles.High}`, { token: mod }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/roles/${roles.Low}`, { token: mod }))).toEqual([404, 10003]);
    expect(ev.count("role.deleted")).toBe(1);
  });

  test("reorder: answers every role, moved roles fire role.updated, hierarchy bounds the move", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "PATCH", `/guilds/${g}/roles`, { token: mod, body: [{ id: roles.Low, position: 2 }] });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => [x.name, x.position])).toEqual([
      ["@everyone", 0],
      ["Mod", 1],
      ["Low", 2],
      ["BotRole", 3],
      ["High", 4],
    ]);
    expect(ev.count("role.updated")).toBe(2);
    expect(auditOf(31)).toHaveLength(1);
    const above = await call(p, "PATCH", `/guilds/${g}/roles`, { token: mod, body: [{ id: roles.Low, position: 4 }] });
    expect(refusal(above)).toEqual([403, 50001]);
    const theirs = await call(p, "PATCH", `/guilds/${g}/roles`, { token: mod, body: [{ id: roles.High, position: 1 }] });
    expect(refusal(theirs)).toEqual([403, 50001]);
    const unknown = await call(p, "PATCH", `/guilds/${g}/roles`, { token: mod, body: [{ id: "123456789012345678", position: 1 }] });
    expect(refusal(unknown)).toEqual([400, 50035]);
    const notArray = await call(p, "PATCH", `/guilds/${g}/roles`, { token: mod, body: { id: roles.Low } });
    expect(refusal(notArray)).toEqual([400, 50035]);
    // A role listed twice names no one position: refused whole, as a channel listed twice is.
    const twice = await call(p, "PATCH", `/guilds/${g}/roles`, {
      token: mod,
      body: [
        { id: roles.Low, position: 1 },
        { id: roles.Low, position: 3 },
      ],
    });
    expect(refusal(twice)).toEqual([400, 50035]);
    expect(twice.body.errors["1"].id._errors[0].code).toBe("ROLE_DUPLICATE");
    expect(ev.count("role.updated")).toBe(2);
  });

  test("ADMINISTRATOR holders are still bound by the hierarchy; the owner is not", async () => {
    // bob holds ADMINISTRATOR via High (position 4): he cannot touch High itself.
    const bob = p.api.flakes.uuid(w.users.bob.id)!;
    const gid = p.api.flakes.uuid(g)!;
    expect(() => p.core.roles.edit(gid, p.api.flakes.uuid(roles.High)!, bob, { name: "x" })).toThrow();
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    expect(p.core.roles.edit(gid, p.api.flakes.uuid(roles.High)!, alice, { name: "Top" }).name).toBe("Top");
  });
});
