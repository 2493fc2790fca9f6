import { describe, expect, test, beforeEach } from "bun:test";
import { call, makeParley, recordEvents, seedAdmin, ORIGIN, refusal } from "../helpers";
import { SPEC_RATE_LIMITS } from "../../src/config";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let mod: string;
let plain: string;
let g: string;
let roles: Record<string, string>;
const u = (flake: string) => p.api.flakes.uuid(flake)!;

function fresh(rateLimits = false) {
  p = makeParley(rateLimits ? {} : { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedAdmin(p);
  mod = w.applications.ModBot.token;
  plain = w.applications.PlainBot.token;
  g = w.guilds.Lab.id;
  roles = w.guilds.Lab.roles;
}
beforeEach(() => fresh());

const audit = (type: number) =>
  p.store.db.query("SELECT * FROM audit_log WHERE action_type = ? ORDER BY id").all(type) as {
    actor_id: string;
    target_id: string;
    reason: string | null;
    changes: string;
  }[];

function post(userFlake: string, content: string) {
  return p.core.messages.create({ channelId: u(w.guilds.Lab.channels.general), authorId: u(userFlake), content });
}

describe("members", () => {
  test("list: default limit 1, ascending by user id, after pages, bounds 400", async () => {
    const first = await call(p, "GET", `/guilds/${g}/members`, { token: mod });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    const all = await call(p, "GET", `/guilds/${g}/members?limit=1000`, { token: mod });
    const ids = all.body.map((m: any) => m.user.id);
    expect(ids).toHaveLength(6);
    expect([...ids].sort((a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids);
    expect(ids[0]).toBe(first.body[0].user.id);
    const page = await call(p, "GET", `/guilds/${g}/members?limit=2&after=${ids[1]}`, { token: mod });
    expect(page.body.map((m: any) => m.user.id)).toEqual(ids.slice(2, 4));
    for (const q of ["limit=0", "limit=1001", "limit=x", "after=abc"])
      expect(refusal(await call(p, "GET", `/guilds/${g}/members?${q}`, { token: mod }))).toEqual([400, 50035]);
  });

  test("search (discord.js guild.members.search): username or nickname starting with the query, any case; limit 1 by default", async () => {
    await call(p, "PATCH", `/guilds/${g}/members/${w.users.carol.id}`, { token: mod, body: { nick: "Cece" } });
    const names = async (q: string) =>
      (await call(p, "GET", `/guilds/${g}/members/search?${q}`, { token: plain })).body.map((m: any) => m.user.username);
    expect(await names("query=ca&limit=10")).toEqual(["carol"]);
    expect(await names("query=CE&limit=10")).toEqual(["carol"]);
    expect(await names("query=b")).toEqual(["bob"]);
    expect((await names("query=e&limit=1000")).sort()).toEqual(["erin"]);
    expect(await names("query=%25&limit=10")).toEqual([]);
    expect(await names("query=dave&limit=10")).toEqual([]);
    for (const q of ["", "query=", "query=a&limit=0", "query=a&limit=1001"])
      expect(refusal(await call(p, "GET", `/guilds/${g}/members/search?${q}`, { token: plain }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "GET", `/guilds/${w.guilds.Elsewhere.id}/members/search?query=d`, { token: plain }))).toEqual([
      404, 10003,
    ]);
  });

  test("list needs the GUILD_MEMBERS intent (403 50001 without it)", async () => {
    const r = await call(p, "GET", `/guilds/${g}/members`, { token: plain });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
  });

  test("get one; a non-member or unknown user is 404", async () => {
    const r = await call(p, "GET", `/guilds/${g}/members/${w.users.carol.id}`, { token: plain });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user: { id: w.users.carol.id }, roles: [roles.Low], deaf: false, mute: false, flags: 0 });
    expect(refusal(await call(p, "GET", `/guilds/${g}/members/${w.users.dave.id}`, { token: plain }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/guilds/${g}/members/123456789012345678`, { token: plain }))).toEqual([404, 10003]);
  });

  test("PATCH nick and roles: one member.updated, audit 24 and 25 with reason", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "PATCH", `/guilds/${g}/members/${w.users.carol.id}`, {
      token: mod,
      body: { nick: "Caz", roles: [roles.Mod] },
      headers: { "X-Audit-Log-Reason": "promotion" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ nick: "Caz", roles: [roles.Mod] });
    expect(ev.count("member.updated")).toBe(1);
    expect(audit(24)[0]).toMatchObject({ reason: "promotion" });
    const roleChange = JSON.parse(audit(25)[0].changes);
    expect(roleChange).toEqual([
      { key: "$add", new_value: [{ id: u(roles.Mod), name: "Mod" }] },
      { key: "$remove", new_value: [{ id: u(roles.Low), name: "Low" }] },
    ]);
    const view = await call(p, "GET", `/guilds/${g}/audit-logs?action_type=25`, { token: mod });
    expect(view.body.audit_log_entries[0].changes[0]).toEqual({ key: "$add", new_value: [{ id: roles.Mod, name: "Mod" }] });
  });

  test("PATCH refusals: hierarchy, missing bit, roles above, unknown role; nothing written", async () => {
    const ev = recordEvents(p);
    const above = await call(p, "PATCH", `/guilds/${g}/members/${w.users.bob.id}`, { token: mod, body: { nick: "x" } });
    expect(refusal(above)).toEqual([403, 50001]);
    const owner = await call(p, "PATCH", `/guilds/${g}/members/${w.users.alice.id}`, { token: mod, body: { nick: "x" } });
    expect(refusal(owner)).toEqual([403, 50001]);
    const noBit = await call(p, "PATCH", `/guilds/${g}/members/${w.users.carol.id}`, { token: plain, body: { nick: "x" } });
    expect(refusal(noBit)).toEqual([403, 50001]);
    const high = await call(p, "PATCH", `/guilds/${g}/members/${w.users.carol.id}`, {
      token: mod,
      body: { nick: "ok", roles: [roles.High] },
    });
    expect(refusal(high)).toEqual([403, 50001]);
    const unknown = await call(p, "PATCH", `/guilds/${g}/members/${w.users.carol.id}`, {
      token: mod,
      body: { roles: ["123456789012345678"] },
    });
    expect(refusal(unknown)).toEqual([400, 50035]);
    expect(unknown.body.message).toContain("roles[0]");
    expect(ev.events).toHaveLength(0);
    expect((await call(p, "GET", `/guilds/${g}/members/${w.users.carol.id}`, { token: mod })).body.nick).toBeNull();
  });

  test("no voice, no timeouts: mute/deaf/channel_id 400 naming the field, timeout 403, clears accepted", async () => {
    const target = `/guilds/${g}/members/${w.users.carol.id}`;
    for (const [body, field] of [
      [{ mute: true }, "mute"],
      [{ deaf: true }, "deaf"],
      [{ channel_id: w.guilds.Lab.channels.general }, "channel_id"],
    ] as const) {
      const r = await call(p, "PATCH", target, { token: mod, body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(field);
    }
    const timeout = await call(p, "PATCH", target, { token: mod, body: { communication_disabled_until: "2030-01-01T00:00:00Z" } });
    expect(refusal(timeout)).toEqual([403, 50001]);
    // A time that is no time is the body's fault before it is a missing right.
    const garbled = await call(p, "PATCH", target, { token: mod, body: { communication_disabled_until: "garbage" } });
    expect(refusal(garbled)).toEqual([400, 50035]);
    expect(garbled.body.errors.communication_disabled_until._errors[0].code).toBe("DATE_TIME_TYPE_PARSE");
    const ev = recordEvents(p);
    const clears = await call(p, "PATCH", target, {
      token: mod,
      body: { communication_disabled_until: null, mute: false, deaf: false, channel_id: null },
    });
    expect(clears.status).toBe(200);
    expect(clears.body.communication_disabled_until).toBeNull();
    expect(ev.events).toHaveLength(0);
  });

  test("the bot sets its own nick without a permission (PATCH members/@me)", async () => {
    const r = await call(p, "PATCH", `/guilds/${g}/members/@me`, { token: plain, body: { nick: "Plainly" } });
    expect(r.status).toBe(200);
    expect(r.body.nick).toBe("Plainly");
  });

  test("PATCH members/@me/nick, the reference's deprecated alias: the same edit and rules, answered {nick}", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, {
      token: plain,
      body: { nick: "Plainly" },
      headers: { "X-Audit-Log-Reason": "rename" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ nick: "Plainly" });
    expect(ev.count("member.updated")).toBe(1);
    expect(audit(24).at(-1)).toMatchObject({
      actor_id: u(w.applications.PlainBot.bot_user_id),
      target_id: u(w.applications.PlainBot.bot_user_id),
      reason: "rename",
    });
    expect((await call(p, "GET", `/guilds/${g}/members/${w.applications.PlainBot.bot_user_id}`, { token: plain })).body.nick).toBe(
      "Plainly",
    );
    // discord.py clears with "" (nick=None); null clears too.
    expect((await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: "" } })).body).toEqual({ nick: null });
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: "x".repeat(33) } }))).toEqual([
      400, 50035,
    ]);
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: 5 } }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "PATCH", `/guilds/123456789012345678/members/@me/nick`, { token: plain, body: { nick: "x" } }))).toEqual([
      404, 10003,
    ]);
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { body: { nick: "x" } }))).toEqual([401, 0]);
  });

  test("members/@me and its /nick alias share one rate-limit window", async () => {
    fresh(true);
    const buckets = new Set<string | null>();
    for (let i = 0; i < 5; i++) {
      const r = await call(p, "PATCH", `/guilds/${g}/members/@me`, { token: plain, body: { nick: `m${i}` } });
      expect(r.status).toBe(200);
      buckets.add(r.headers.get("x-ratelimit-bucket"));
    }
    const alias = await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: "a0" } });
    expect(alias.headers.get("x-ratelimit-remaining")).toBe("4");
    expect([...buckets]).toEqual([alias.headers.get("x-ratelimit-bucket")]);
    for (let i = 1; i < 5; i++)
      expect((await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: `a${i}` } })).status).toBe(200);
    const r = await call(p, "PATCH", `/guilds/${g}/members/@me/nick`, { token: plain, body: { nick: "again" } });
    expect(refusal(r)).toEqual([429, 0]);
    expect(r.headers.get("x-ratelimit-bucket")).toBe(alias.headers.get("x-ratelimit-bucket"));
    expect(refusal(await call(p, "PATCH", `/guilds/${g}/members/@me`, { token: plain, body: { nick: "again" } }))).toEqual([429, 0]);
  });

  test("PATCH member has its own 10 per 10 s limit", async () => {
    fresh(true);
    const target = `/guilds/${g}/members/${w.users.carol.id}`;
    for (let i = 0; i < 10; i++) expect((await call(p, "PATCH", target, { token: mod, body: { nick: `n${i}` } })).status).toBe(200);
    const r = await call(p, "PATCH", target, { token: mod, body: { nick: "again" } });
    expect(refusal(r)).toEqual([429, 0]);
    expect(r.headers.get("x-ratelimit-limit")).toBe("10");
  });

  test("kick: 204, member.removed, audit 20 with reason; refusals 403/404", async () => {
    const ev = recordEvents(p);
    const r = await call(p, "DELETE", `/guilds/${g}/members/${w.users.carol.id}`, {
      token: mod,
      headers: { "X-Audit-Log-Reason": "spam" },
    });
    expect(r.status).toBe(204);
    expect(ev.count("member.removed")).toBe(1);
    expect(audit(20)).toMatchObject([{ reason: "spam", target_id: u(w.users.carol.id), actor_id: u(w.applications.ModBot.bot_user_id) }]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/members/${w.users.carol.id}`, { token: mod }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/members/${w.users.bob.id}`, { token: mod }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/members/${w.users.alice.id}`, { token: mod }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/members/${w.users.erin.id}`, { token: plain }))).toEqual([403, 50001]);
    expect(ev.count("member.removed")).toBe(1);
  });

  test("member roles PUT/DELETE: 204, member.updated, audit 25; hierarchy and @everyone refused", async () => {
    const ev = recordEvents(p);
    const path = `/guilds/${g}/members/${w.users.carol.id}/roles/${roles.Mod}`;
    expect((await call(p, "PUT", path, { token: mod, headers: { "X-Audit-Log-Reason": "help" } })).status).toBe(204);
    expect((await call(p, "PUT", path, { token: mod })).status).toBe(204); // already has it: no event
    expect(ev.count("member.updated")).toBe(1);
    expect((await call(p, "DELETE", path, { token: mod })).status).toBe(204);
    expect(ev.count("member.updated")).toBe(2);
    expect(audit(25).map((a) => JSON.parse(a.changes)[0].key)).toEqual(["$add", "$remove"]);
    expect(audit(25)[0].reason).toBe("help");
    expect(refusal(await call(p, "PUT", `/guilds/${g}/members/${w.users.carol.id}/roles/${roles.High}`, { token: mod }))).toEqual([
      403, 50001,
    ]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/members/${w.users.carol.id}/roles/${roles.BotRole}`, { token: mod }))).toEqual([
      403, 50001,
    ]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/members/${w.users.carol.id}/roles/${roles["@everyone"]}`, { token: mod }))).toEqual([
      400, 50035,
    ]);
    expect(refusal(await call(p, "PUT", path, { token: plain }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/members/${w.users.dave.id}/roles/${roles.Mod}`, { token: mod }))).toEqual([
      404, 10003,
    ]);
  });
});

describe("bans", () => {
  test("ban deletes the span of the member's messages on the shared clock, removes the member, audit 22", async () => {
    p.clock.advance(0);
    const old = post(w.users.carol.id, "old");
    p.clock.advance(3_600_000);
    const recent1 = post(w.users.carol.id, "recent 1");
    p.clock.advance(60_000);
    const recent2 = post(w.users.carol.id, "recent 2");
    const other = post(w.users.erin.id, "not carol");
    p.clock.advance(1000);
    const ev = recordEvents(p);
    const r = await call(p, "PUT", `/guilds/${g}/bans/${w.users.carol.id}`, {
      token: mod,
      body: { delete_message_seconds: 1800 },
      headers: { "X-Audit-Log-Reason": "raid" },
    });
    expect(r.status).toBe(204);
    expect(ev.count("message.deleted")).toBe(2);
    expect(ev.count("member.removed")).toBe(1);
    expect(p.core.messages.get(old.id)).not.toBeNull();
    expect(p.core.messages.get(recent1.id)).toBeNull();
    expect(p.core.messages.get(recent2.id)).toBeNull();
    expect(p.core.messages.get(other.id)).not.toBeNull();
    expect(audit(22)).toMatchObject([{ reason: "raid", target_id: u(w.users.carol.id) }]);
    const one = await call(p, "GET", `/guilds/${g}/bans/${w.users.carol.id}`, { token: mod });
    expect(one.body).toMatchObject({ reason: "raid", user: { id: w.users.carol.id } });
    // A banned person cannot rejoin.
    expect(() => p.core.guilds.addMember(u(g), u(w.users.carol.id))).toThrow();
  });

  test("delete_message_days is the deprecated alias; bounds are 400", async () => {
    p.clock.advance(0);
    const m = post(w.users.carol.id, "yesterday");
    p.clock.advance(86_400_000 + 1000);
    const ev = recordEvents(p);
    expect((await call(p, "PUT", `/guilds/${g}/bans/${w.users.carol.id}`, { token: mod, body: { delete_message_days: 2 } })).status).toBe(
      204,
    );
    expect(p.core.messages.get(m.id)).toBeNull();
    expect(ev.count("message.deleted")).toBe(1);
    for (const body of [{ delete_message_seconds: 604801 }, { delete_message_seconds: -1 }, { delete_message_days: 8 }])
      expect(refusal(await call(p, "PUT", `/guilds/${g}/bans/${w.users.erin.id}`, { token: mod, body }))).toEqual([400, 50035]);
  });

  test("a non-member can be banned; list with limit/before/after ascending; unban; 404 when not banned", async () => {
    for (const name of ["dave", "carol", "erin"])
      expect((await call(p, "PUT", `/guilds/${g}/bans/${w.users[name].id}`, { token: mod })).status).toBe(204);
    const list = await call(p, "GET", `/guilds/${g}/bans`, { token: mod });
    const ids = list.body.map((b: any) => b.user.id);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids);
    expect((await call(p, "GET", `/guilds/${g}/bans?limit=1`, { token: mod })).body.map((b: any) => b.user.id)).toEqual([ids[0]]);
    expect((await call(p, "GET", `/guilds/${g}/bans?after=${ids[0]}`, { token: mod })).body.map((b: any) => b.user.id)).toEqual(
      ids.slice(1),
    );
    expect((await call(p, "GET", `/guilds/${g}/bans?before=${ids[2]}&limit=1`, { token: mod })).body.map((b: any) => b.user.id)).toEqual([
      ids[1],
    ]);
    const ev = recordEvents(p);
    expect(
      (await call(p, "DELETE", `/guilds/${g}/bans/${w.users.dave.id}`, { token: mod, headers: { "X-Audit-Log-Reason": "forgiven" } }))
        .status,
    ).toBe(204);
    expect(ev.events).toHaveLength(0);
    expect(audit(23)).toMatchObject([{ reason: "forgiven" }]);
    expect(refusal(await call(p, "GET", `/guilds/${g}/bans/${w.users.dave.id}`, { token: mod }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "DELETE", `/guilds/${g}/bans/${w.users.dave.id}`, { token: mod }))).toEqual([404, 10003]);
  });

  test("refusals: no BAN_MEMBERS 403, above the bot 403, the owner 403, unknown user 404", async () => {
    expect(refusal(await call(p, "PUT", `/guilds/${g}/bans/${w.users.carol.id}`, { token: plain }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "GET", `/guilds/${g}/bans`, { token: plain }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/bans/${w.users.bob.id}`, { token: mod }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/bans/${w.users.alice.id}`, { token: mod }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "PUT", `/guilds/${g}/bans/123456789012345678`, { token: mod }))).toEqual([404, 10003]);
    expect(audit(22)).toHaveLength(0);
  });
});

describe("people's moderation (/api/client/v1)", () => {
  const client = (method: string, path: string, token: string, body?: unknown) =>
    p.handle(
      new Request(`${ORIGIN}/api/client/v1${path}`, {
        method,
        headers: { Authorization: `Session ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );

  test("the owner kicks and bans the bot: member.removed each time, audit entries with reasons", async () => {
    const ev = recordEvents(p);
    const gid = u(g);
    const bot = u(w.applications.PlainBot.bot_user_id);
    const kick = await client("DELETE", `/guilds/${gid}/members/${bot}`, w.users.alice.token, { reason: "testing" });
    expect(kick.status).toBe(204);
    expect(ev.events).toEqual([{ type: "member.removed", guildId: gid, userId: bot, cause: "kicked" }]);
    expect(refusal(await call(p, "GET", `/guilds/${g}`, { token: plain }))).toEqual([404, 10003]);
    const modBot = u(w.applications.ModBot.bot_user_id);
    const ban = await client("PUT", `/guilds/${gid}/bans/${modBot}`, w.users.alice.token, { reason: "rogue" });
    expect(ban.status).toBe(204);
    expect(ev.of("member.removed")[1]).toEqual({ type: "member.removed", guildId: gid, userId: modBot, cause: "banned" });
    expect(audit(20)[0].reason).toBe("testing");
    expect(audit(22)[0].reason).toBe("rogue");
    expect((await client("DELETE", `/guilds/${gid}/bans/${modBot}`, w.users.alice.token)).status).toBe(204);
  });

  test("role assignment and refusals for people without the bit", async () => {
    const gid = u(g);
    const carol = u(w.users.carol.id);
    const r = await client("PUT", `/guilds/${gid}/members/${carol}/roles/${u(roles.Mod)}`, w.users.bob.token);
    expect(r.status).toBe(204);
    expect(p.core.guilds.memberRoleIds(gid, carol)).toContain(u(roles.Mod));
    const refused = await client("DELETE", `/guilds/${gid}/members/${u(w.users.erin.id)}`, w.users.carol.token);
    expect([refused.status, (await refused.json()).code]).toEqual([403, 50001]);
    const noSession = await p.handle(new Request(`${ORIGIN}/api/client/v1/guilds/${gid}/members/${carol}`, { method: "DELETE" }));
    expect([noSession.status, (await noSession.json()).code]).toEqual([401, 0]);
  });
});
