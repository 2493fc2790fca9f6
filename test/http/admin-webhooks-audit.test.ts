import { describe, expect, test, beforeEach } from "bun:test";
import { call, client, makeParley, recordEvents, seedAdmin, refusal } from "../helpers";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { sha256Hex } from "../../src/core/crypto";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let mod: string;
let plain: string;
let g: string;
let general: string;
let staff: string;

function fresh(rateLimits = false) {
  p = makeParley(rateLimits ? {} : { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  w = seedAdmin(p);
  mod = w.applications.ModBot.token;
  plain = w.applications.PlainBot.token;
  g = w.guilds.Lab.id;
  general = w.guilds.Lab.channels.general;
  staff = w.guilds.Lab.channels.staff;
}
beforeEach(() => fresh());

async function createHook(body: Record<string, unknown> = { name: "Alerts" }) {
  const r = await call(p, "POST", `/channels/${general}/webhooks`, { token: mod, body, headers: { "X-Audit-Log-Reason": "ci" } });
  expect(r.status).toBe(200);
  return r.body as { id: string; token: string };
}

describe("webhook management (bot token; MANAGE_CHANNELS gates it)", () => {
  test("create answers the token once; secrets are stored, never echoed; token kept only as SHA-256", async () => {
    const r = await call(p, "POST", `/channels/${general}/webhooks`, {
      token: mod,
      body: { name: "Alerts", hmac_secret: "hm-secret", v0_secret: "v0-secret" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: 1, name: "Alerts", channel_id: general, guild_id: g, application_id: w.applications.ModBot.id });
    expect(r.body.user.id).toBe(w.applications.ModBot.bot_user_id);
    expect(typeof r.body.token).toBe("string");
    expect(r.text).not.toContain("hm-secret");
    expect(r.text).not.toContain("v0-secret");
    const id = p.api.flakes.uuid(r.body.id)!;
    // The core's model of it carries none of its secrets; the row at rest holds them only hashed or sealed.
    expect(Object.keys(p.core.webhooks.get(id)!).filter((k) => /hash|secret|sealed/.test(k))).toEqual([]);
    const row = p.store.db.query("SELECT * FROM webhooks WHERE id = ?").get(id) as Record<string, string>;
    expect(row.token_hash).toBe(sha256Hex(r.body.token));
    // At rest: the token and the two secrets only sealed under the server key.
    expect(JSON.stringify(row)).not.toContain(r.body.token);
    expect(JSON.stringify(row)).not.toMatch(/hm-secret|v0-secret/);
    expect(row.hmac_secret).toMatch(/^v1\./);
    // Those who may manage the webhook see its token again (the reference does); never the secrets.
    const again = await call(p, "GET", `/webhooks/${r.body.id}`, { token: mod });
    expect(again.body.token).toBe(r.body.token);
    expect(again.body.url).toEndWith(`/api/v10/webhooks/${r.body.id}/${r.body.token}`);
    expect(again.text).not.toContain("secret");
    const listed = await call(p, "GET", `/channels/${general}/webhooks`, { token: mod });
    expect(listed.body.find((h: any) => h.id === r.body.id).token).toBe(r.body.token);
    const byGuild = await call(p, "GET", `/guilds/${g}/webhooks`, { token: mod });
    expect(byGuild.body.find((h: any) => h.id === r.body.id).token).toBe(r.body.token);
  });

  test("name rules: 1-80, no clyde or discord; bad body 400", async () => {
    for (const name of ["", "x".repeat(81), "my Discord hook", "CLYDE"]) {
      const r = await call(p, "POST", `/channels/${general}/webhooks`, { token: mod, body: { name } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(refusal(await call(p, "POST", `/channels/${general}/webhooks`, { token: mod, body: {} }))).toEqual([400, 50035]);
  });

  test("refusals: no MANAGE_CHANNELS 403, unknown channel 404", async () => {
    expect(refusal(await call(p, "POST", `/channels/${general}/webhooks`, { token: plain, body: { name: "x" } }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "GET", `/channels/${general}/webhooks`, { token: plain }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "GET", `/guilds/${g}/webhooks`, { token: plain }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "POST", `/channels/123456789012345678/webhooks`, { token: mod, body: { name: "x" } }))).toEqual([
      404, 10003,
    ]);
    expect(
      refusal(await call(p, "POST", `/channels/${w.guilds.Elsewhere.channels.lobby}/webhooks`, { token: mod, body: { name: "x" } })),
    ).toEqual([404, 10003]);
  });

  test("list per channel and per guild; get; patch moves within the guild; delete; audit 50/51/52", async () => {
    const h = await createHook();
    expect((await call(p, "GET", `/channels/${general}/webhooks`, { token: mod })).body.map((x: any) => x.id)).toEqual([h.id]);
    expect((await call(p, "GET", `/guilds/${g}/webhooks`, { token: mod })).body.map((x: any) => x.id)).toEqual([h.id]);
    const moved = await call(p, "PATCH", `/webhooks/${h.id}`, { token: mod, body: { name: "Moved", channel_id: staff } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ name: "Moved", channel_id: staff });
    const away = await call(p, "PATCH", `/webhooks/${h.id}`, { token: mod, body: { channel_id: w.guilds.Elsewhere.channels.lobby } });
    expect(refusal(away)).toEqual([400, 50035]);
    expect(refusal(await call(p, "PATCH", `/webhooks/${h.id}`, { token: plain, body: { name: "x" } }))).toEqual([403, 50001]);
    expect((await call(p, "DELETE", `/webhooks/${h.id}`, { token: mod })).status).toBe(204);
    expect(refusal(await call(p, "GET", `/webhooks/${h.id}`, { token: mod }))).toEqual([404, 10003]);
    const log = await call(p, "GET", `/guilds/${g}/audit-logs`, { token: mod });
    expect(log.body.audit_log_entries.map((e: any) => e.action_type)).toEqual([52, 51, 50]);
    const create = log.body.audit_log_entries[2];
    expect(create.reason).toBe("ci");
    expect(create.changes).toContainEqual({ key: "channel_id", new_value: general });
    expect(log.body.audit_log_entries[1].changes).toContainEqual({ key: "channel_id", old_value: general, new_value: staff });
  });

  test("at most 15 a channel, made there or moved in: the 16th is 400 30007 and nothing changes (reference-gaps 30007)", async () => {
    for (let i = 0; i < 15; i++)
      expect((await call(p, "POST", `/channels/${staff}/webhooks`, { token: mod, body: { name: `Hook ${i}` } })).status).toBe(200);
    const made = await call(p, "POST", `/channels/${staff}/webhooks`, { token: mod, body: { name: "One more" } });
    expect(refusal(made)).toEqual([400, 30007]);
    const h = await createHook();
    const moved = await call(p, "PATCH", `/webhooks/${h.id}`, { token: mod, body: { channel_id: staff } });
    expect(refusal(moved)).toEqual([400, 30007]);
    expect((await call(p, "GET", `/webhooks/${h.id}`, { token: mod })).body.channel_id).toBe(general);
    expect((await call(p, "GET", `/channels/${staff}/webhooks`, { token: mod })).body).toHaveLength(15);
  });
});

describe("webhook token routes (no Authorization)", () => {
  test("execute: 204 without wait, the message with wait=true and wait=1; pseudo-author, webhook_id; message.created", async () => {
    const h = await createHook();
    const ev = recordEvents(p);
    const plainPost = await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "hello" } });
    expect(plainPost.status).toBe(204);
    for (const wait of ["true", "1"]) {
      const r = await call(p, "POST", `/webhooks/${h.id}/${h.token}?wait=${wait}`, { body: { content: "waited", username: "Reporter" } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        content: "waited",
        webhook_id: h.id,
        channel_id: general,
        author: { id: h.id, username: "Reporter", bot: false },
      });
    }
    expect(ev.count("message.created")).toBe(3);
    const stored = p.core.messages.list(p.api.flakes.uuid(general)!, { limit: 10 }, null);
    expect(stored.map((m) => m.webhook_id)).toEqual(Array(3).fill(p.api.flakes.uuid(h.id)));
  });

  test("execute refusals: wrong token 401, empty 400, over-limit 400, thread_id 501, attachments 400", async () => {
    const h = await createHook();
    const bad = await call(p, "POST", `/webhooks/${h.id}/${h.token.slice(0, -2)}xx`, { body: { content: "x" } });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe(0);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: {} }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "x".repeat(2001) } }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { embeds: Array(11).fill({}) } }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "x", flags: 64 } }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "x", attachments: [{ id: 0 }] } }))).toEqual([
      400, 50035,
    ]);
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}?thread_id=123456789012345678`, { body: { content: "x" } }))).toEqual(
      [501, 0],
    );
  });

  test("GET/PATCH/DELETE by token: no user in the answer, no channel moves", async () => {
    const h = await createHook();
    const got = await call(p, "GET", `/webhooks/${h.id}/${h.token}`);
    expect(got.status).toBe(200);
    expect(got.body.user).toBeUndefined();
    expect(got.body.id).toBe(h.id);
    const renamed = await call(p, "PATCH", `/webhooks/${h.id}/${h.token}`, { body: { name: "Renamed" } });
    expect(renamed.body).toMatchObject({ name: "Renamed" });
    expect(renamed.body.user).toBeUndefined();
    expect(refusal(await call(p, "PATCH", `/webhooks/${h.id}/${h.token}`, { body: { channel_id: staff } }))).toEqual([400, 50035]);
    expect(refusal(await call(p, "GET", `/webhooks/${h.id}/wrong`))).toEqual([401, 0]);
    expect((await call(p, "DELETE", `/webhooks/${h.id}/${h.token}`)).status).toBe(204);
    // A webhook that no longer exists is an unknown webhook, not an unknown interaction.
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "x" } }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "POST", `/webhooks/123456789012345678/${h.token}`, { body: { content: "x" } }))).toEqual([404, 10003]);
  });

  test("webhook messages: get, patch, delete only this webhook's; events counted", async () => {
    const h = await createHook();
    const other = await createHook({ name: "Other" });
    const m = (await call(p, "POST", `/webhooks/${h.id}/${h.token}?wait=true`, { body: { content: "v1", embeds: [{ title: "t" }] } })).body;
    const base = `/webhooks/${h.id}/${h.token}/messages/${m.id}`;
    expect((await call(p, "GET", base)).body.content).toBe("v1");
    const ev = recordEvents(p);
    const edited = await call(p, "PATCH", base, { body: { content: "v2" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: "v2", embeds: [{ title: "t" }] });
    expect(ev.count("message.updated")).toBe(1);
    expect(refusal(await call(p, "GET", `/webhooks/${other.id}/${other.token}/messages/${m.id}`))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/webhooks/${h.id}/${h.token}/messages/@original`))).toEqual([404, 10003]);
    expect((await call(p, "DELETE", base)).status).toBe(204);
    expect(ev.count("message.deleted")).toBe(1);
    expect(refusal(await call(p, "GET", base))).toEqual([404, 10003]);
  });

  test("a first segment that is not a webhook goes to the interaction follow-up handlers (10062)", async () => {
    const r = await call(p, "POST", `/webhooks/${w.applications.ModBot.id}/sometoken`, { body: { content: "x" } });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(10062);
    const g2 = await call(p, "PATCH", `/webhooks/${w.applications.ModBot.id}/sometoken/messages/@original`, { body: { content: "x" } });
    expect(g2.body.code).toBe(10062);
  });

  test("webhooks of a deleted application stop at once", async () => {
    const h = await createHook();
    p.core.apps.delete(p.api.flakes.uuid(w.applications.ModBot.id)!);
    expect(p.core.webhooks.get(p.api.flakes.uuid(h.id)!)).toBeNull();
    expect(refusal(await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "x" } }))).toEqual([404, 10003]);
  });

  test("a bot's webhooks in a server go when it is kicked or banned there; a person leaving keeps theirs", async () => {
    const u = (flake: string) => p.api.flakes.uuid(flake)!;
    const kicked = await createHook({ name: "Kicked" });
    const kick = await client(p, "DELETE", `/guilds/${u(g)}/members/${u(w.applications.ModBot.bot_user_id)}`, w.users.alice.token);
    expect(kick.status).toBe(204);
    expect(p.core.webhooks.get(p.api.flakes.uuid(kicked.id)!)).toBeNull();
    expect(refusal(await call(p, "POST", `/webhooks/${kicked.id}/${kicked.token}`, { body: { content: "after the kick" } }))[0]).toBe(404);
    expect(p.store.db.query("SELECT count(*) AS n FROM messages WHERE content = 'after the kick'").get()).toEqual({ n: 0 });

    // Back in, a webhook made by the bot, then a ban: gone too. One made by someone else stays.
    fresh();
    const banned = await createHook({ name: "Banned" });
    const kept = p.core.webhooks.create(u(general), u(w.users.alice.id), { name: "Alice's" }).webhook;
    const ban = await client(p, "PUT", `/guilds/${u(g)}/bans/${u(w.applications.ModBot.bot_user_id)}`, w.users.alice.token, {});
    expect(ban.status).toBe(204);
    expect(p.core.webhooks.get(p.api.flakes.uuid(banned.id)!)).toBeNull();
    expect(p.core.webhooks.get(kept.id)).not.toBeNull();
  });

  test("execute is limited to 5 per 2 s per webhook", async () => {
    fresh(true);
    const h = await createHook();
    for (let i = 0; i < 5; i++)
      expect((await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: `m${i}` } })).status).toBe(204);
    const r = await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "too many" } });
    expect(refusal(r)).toEqual([429, 0]);
    p.clock.advance(2001);
    expect((await call(p, "POST", `/webhooks/${h.id}/${h.token}`, { body: { content: "later" } })).status).toBe(204);
  });
});

describe("GET /guilds/{guild_id}/audit-logs", () => {
  async function act() {
    await call(p, "POST", `/guilds/${g}/roles`, { token: mod, body: { name: "A" }, headers: { "X-Audit-Log-Reason": "first" } });
    await call(p, "DELETE", `/guilds/${g}/members/${w.users.carol.id}`, { token: mod, headers: { "X-Audit-Log-Reason": "kick%20reason" } });
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    p.core.roles.create(p.api.flakes.uuid(g)!, alice, { name: "ByAlice" }, "owner");
  }

  test("reference shape, newest first, users referenced, reason decoded", async () => {
    await act();
    const r = await call(p, "GET", `/guilds/${g}/audit-logs`, { token: mod });
    expect(r.status).toBe(200);
    for (const k of [
      "audit_log_entries",
      "users",
      "webhooks",
      "application_commands",
      "auto_moderation_rules",
      "guild_scheduled_events",
      "integrations",
      "threads",
    ])
      expect(Array.isArray(r.body[k])).toBe(true);
    const e = r.body.audit_log_entries;
    expect(e.map((x: any) => x.action_type)).toEqual([30, 20, 30]);
    expect(e[1]).toMatchObject({
      action_type: 20,
      target_id: w.users.carol.id,
      user_id: w.applications.ModBot.bot_user_id,
      reason: "kick reason",
      changes: [],
    });
    expect(e[0].user_id).toBe(w.users.alice.id);
    const userIds = r.body.users.map((x: any) => x.id);
    expect(userIds).toEqual(expect.arrayContaining([w.users.alice.id, w.users.carol.id, w.applications.ModBot.bot_user_id]));
  });

  test("filters: user_id, action_type, before, after, limit; bounds 400", async () => {
    await act();
    const all = (await call(p, "GET", `/guilds/${g}/audit-logs`, { token: mod })).body.audit_log_entries;
    const byAlice = await call(p, "GET", `/guilds/${g}/audit-logs?user_id=${w.users.alice.id}`, { token: mod });
    expect(byAlice.body.audit_log_entries.map((x: any) => x.id)).toEqual([all[0].id]);
    const kicks = await call(p, "GET", `/guilds/${g}/audit-logs?action_type=20`, { token: mod });
    expect(kicks.body.audit_log_entries).toHaveLength(1);
    const before = await call(p, "GET", `/guilds/${g}/audit-logs?before=${all[0].id}`, { token: mod });
    expect(before.body.audit_log_entries.map((x: any) => x.id)).toEqual([all[1].id, all[2].id]);
    const after = await call(p, "GET", `/guilds/${g}/audit-logs?after=${all[2].id}`, { token: mod });
    expect(after.body.audit_log_entries.map((x: any) => x.id)).toEqual([all[1].id, all[0].id]);
    const oldest = await call(p, "GET", `/guilds/${g}/audit-logs?after=0&limit=1`, { token: mod });
    expect(oldest.body.audit_log_entries.map((x: any) => x.id)).toEqual([all[2].id]);
    for (const q of ["limit=0", "limit=101", "action_type=x", "user_id=abc"])
      expect(refusal(await call(p, "GET", `/guilds/${g}/audit-logs?${q}`, { token: mod }))).toEqual([400, 50035]);
  });

  test("VIEW_AUDIT_LOG required; non-member guild 404", async () => {
    const r = await call(p, "GET", `/guilds/${g}/audit-logs`, { token: plain });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
    expect(refusal(await call(p, "GET", `/guilds/${w.guilds.Elsewhere.id}/audit-logs`, { token: mod }))).toEqual([404, 10003]);
  });
});
