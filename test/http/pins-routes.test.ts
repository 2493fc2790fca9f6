import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { MAX_PINS } from "../../src/core/index";

let p: Parley;
let w: SeedAnswer;
let token: string;
let general: string;
let msg: string;
const uuid = (f: string) => p.api.flakes.uuid(f)!;
const bobSays = (channel: string, content: string) =>
  p.api.flakes.of(p.core.messages.send(uuid(w.users.bob.id), uuid(channel), { content }).id);
const grantMod = () =>
  p.core.guilds.addMemberRole(uuid(w.guilds.Lab.id), uuid(w.applications.EchoBot.bot_user_id), uuid(w.guilds.Lab.roles.Mod));

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(structuredClone(BASIC_WORLD));
  token = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
  msg = bobSays(general, "pin me");
});

describe("pins (current routes)", () => {
  test("PUT pins a message: 204, the type 6 message naming it, the target updated, audit 74 with its reason; no pins event", async () => {
    grantMod();
    const ev = recordEvents(p);
    const r = await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, {
      token,
      headers: { "X-Audit-Log-Reason": "keep%20this" },
    });
    expect(r.status).toBe(204);
    expect(ev.of("message.updated")).toHaveLength(1);
    expect(ev.of("message.created")).toHaveLength(1);
    expect(ev.events.some((e) => /pin/i.test(e.type))).toBe(false);
    const history = (await call(p, "GET", `/channels/${general}/messages?limit=5`, { token })).body;
    expect(history[0].type).toBe(6);
    expect(history[0].author.id).toBe(w.applications.EchoBot.bot_user_id);
    expect(history[0].message_reference).toMatchObject({ message_id: msg, channel_id: general });
    expect(history[1]).toMatchObject({ id: msg, pinned: true });
    const [entry] = p.core.audit.list(uuid(w.guilds.Lab.id), { actionType: 74, limit: 5 });
    expect(entry).toMatchObject({ action_type: 74, actor_id: uuid(w.applications.EchoBot.bot_user_id), reason: "keep this" });
    expect(JSON.parse(entry.options!)).toEqual({ channel_id: uuid(general), message_id: uuid(msg) });
    // Pinning again changes nothing and says so with the same 204.
    expect((await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, { token })).status).toBe(204);
    expect(
      (await call(p, "GET", `/channels/${general}/messages?limit=5`, { token })).body.filter((m: { type: number }) => m.type === 6),
    ).toHaveLength(1);
  });

  test("GET lists newest pin first as {items:[{pinned_at, message}], has_more}; before is an ISO pinned_at; limit 1..50", async () => {
    grantMod();
    const second = bobSays(general, "second");
    expect((await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, { token })).status).toBe(204);
    p.clock.advance(1000);
    expect((await call(p, "PUT", `/channels/${general}/messages/pins/${second}`, { token })).status).toBe(204);
    const all = (await call(p, "GET", `/channels/${general}/messages/pins`, { token })).body;
    expect(all.has_more).toBe(false);
    expect(all.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([second, msg]);
    expect(Number.isFinite(Date.parse(all.items[0].pinned_at))).toBe(true);
    const one = (await call(p, "GET", `/channels/${general}/messages/pins?limit=1`, { token })).body;
    expect(one).toMatchObject({ has_more: true, items: [{ message: { id: second } }] });
    const rest = (
      await call(p, "GET", `/channels/${general}/messages/pins?before=${encodeURIComponent(one.items[0].pinned_at)}`, { token })
    ).body;
    expect(rest.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([msg]);
    for (const q of ["limit=0", "limit=51", "limit=x", "before=yesterday"])
      expect([q, ...refusal(await call(p, "GET", `/channels/${general}/messages/pins?${q}`, { token }))]).toEqual([q, 400, 50035]);
  });

  test("DELETE unpins: 204, the message no longer pinned, audit 75; the list empties", async () => {
    grantMod();
    await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, { token });
    const ev = recordEvents(p);
    expect((await call(p, "DELETE", `/channels/${general}/messages/pins/${msg}`, { token })).status).toBe(204);
    expect(ev.of("message.updated")).toHaveLength(1);
    expect((await call(p, "GET", `/channels/${general}/messages/${msg}`, { token })).body.pinned).toBe(false);
    expect((await call(p, "GET", `/channels/${general}/messages/pins`, { token })).body).toEqual({ items: [], has_more: false });
    expect(p.core.audit.list(uuid(w.guilds.Lab.id), { actionType: 75, limit: 5 })).toHaveLength(1);
  });

  test("refusals: 403 50001 without MANAGE_MESSAGES; 404 10003 for another channel's message, an unknown one, or a channel not seen", async () => {
    expect(refusal(await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, { token }))).toEqual([403, 50001]);
    expect(refusal(await call(p, "DELETE", `/channels/${general}/messages/pins/${msg}`, { token }))).toEqual([403, 50001]);
    grantMod();
    const staffMsg = p.api.flakes.of(
      p.core.messages.send(uuid(w.users.alice.id), uuid(w.guilds.Lab.channels.staff), { content: "elsewhere" }).id,
    );
    expect(refusal(await call(p, "PUT", `/channels/${general}/messages/pins/${staffMsg}`, { token }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "PUT", `/channels/${general}/messages/pins/123456789012345678`, { token }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "PUT", `/channels/123456789012345678/messages/pins/${msg}`, { token }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/channels/123456789012345678/messages/pins`, { token }))).toEqual([404, 10003]);
  });

  test(`a channel holds ${MAX_PINS} pins: the next is 400 30003 and nothing changes`, async () => {
    grantMod();
    const bot = uuid(w.applications.EchoBot.bot_user_id);
    p.core.transaction(() => {
      for (let i = 0; i < MAX_PINS; i++)
        p.core.pins.pin(bot, uuid(general), p.core.messages.send(uuid(w.users.bob.id), uuid(general), { content: `m${i}` }).id);
    });
    expect(refusal(await call(p, "PUT", `/channels/${general}/messages/pins/${msg}`, { token }))).toEqual([400, 30003]);
    expect((await call(p, "GET", `/channels/${general}/messages/${msg}`, { token })).body.pinned).toBe(false);
  });
});

describe("pins (deprecated routes discord.py and fetchPinned use)", () => {
  test("PUT/DELETE /channels/{id}/pins/{message_id} pin and unpin; GET /channels/{id}/pins is Message[]", async () => {
    grantMod();
    expect((await call(p, "PUT", `/channels/${general}/pins/${msg}`, { token })).status).toBe(204);
    const list = (await call(p, "GET", `/channels/${general}/pins`, { token })).body;
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((m: { id: string; pinned: boolean }) => [m.id, m.pinned])).toEqual([[msg, true]]);
    expect((await call(p, "DELETE", `/channels/${general}/pins/${msg}`, { token })).status).toBe(204);
    expect((await call(p, "GET", `/channels/${general}/pins`, { token })).body).toEqual([]);
  });

  test("the same refusals: 403 50001, 404 10003", async () => {
    expect(refusal(await call(p, "PUT", `/channels/${general}/pins/${msg}`, { token }))).toEqual([403, 50001]);
    grantMod();
    expect(refusal(await call(p, "PUT", `/channels/${general}/pins/123456789012345678`, { token }))).toEqual([404, 10003]);
  });
});
