import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { PERMISSIONS } from "../../src/core/permissions";

/**
 * The message post reads the channel and the permissions once, inside the insert's
 * transaction, after the body has been read. These pin what must not change with it:
 * the order of refusals, permission changes taking effect on the very next post, one
 * event per post, and the 32 KB rule on the re-serialized body.
 */
let p: Parley;
let w: SeedAnswer;
let token: string;
let general: string;
const uuid = (flake: string) => p.api.flakes.uuid(flake)!;
const send = (body: unknown, ch = general) => call(p, "POST", `/channels/${ch}/messages`, { token, body });
const sendRaw = (rawBody: string, ch = general) =>
  call(p, "POST", `/channels/${ch}/messages`, { token, rawBody, headers: { "Content-Type": "application/json" } });

function world() {
  const v = structuredClone(BASIC_WORLD) as any;
  v.users.push({ name: "dave" });
  v.guilds.push({ name: "Elsewhere", owner: "dave", channels: [{ name: "hidden" }] });
  v.guilds[0].roles.push({ name: "Muted", permissions: [], members: [] }, { name: "Boss", permissions: ["ADMINISTRATOR"], members: [] });
  return v;
}

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(world());
  token = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
});

const guildId = () => uuid(w.guilds.Lab.id);
const botId = () => uuid(w.applications.EchoBot.bot_user_id);
const role = (name: string) => uuid(w.guilds.Lab.roles[name]);

describe("order of refusals", () => {
  test("an unknown or unseen channel is 404 whatever the body, and nothing is written", async () => {
    const ev = recordEvents(p);
    const hidden = w.guilds.Elsewhere.channels.hidden;
    for (const ch of [hidden, "123456789012345678"]) {
      expect((await sendRaw("{not json", ch)).body.code).toBe(10003);
      expect((await send({ content: "x".repeat(2001) }, ch)).body.code).toBe(10003);
      expect(refusal(await send({ content: "fine" }, ch))).toEqual([404, 10003]);
    }
    expect(ev.events).toHaveLength(0);
  });

  test("in a channel the bot sees but may not write to: a bad body is 400, a good one 403", async () => {
    const staff = w.guilds.Lab.channels.staff; // @everyone denied SEND_MESSAGES
    const ev = recordEvents(p);
    const badJson = await sendRaw("{not json", staff);
    expect([badJson.status, badJson.body.code]).toEqual([400, 50035]);
    const tooLong = await send({ content: "x".repeat(2001) }, staff);
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 50035]);
    const empty = await send({}, staff);
    expect(empty.body.errors._errors[0].code).toBe("MESSAGE_EMPTY");
    const denied = await send({ content: "hello" }, staff);
    expect([denied.status, denied.body.code]).toEqual([403, 50001]);
    expect(ev.events).toHaveLength(0);
  });

  test("message forwarding stays 501 and writes nothing", async () => {
    const ev = recordEvents(p);
    const r = await send({ content: "fwd", message_reference: { type: 1, message_id: "123456789012345678" } });
    expect(refusal(r)).toEqual([501, 0]);
    // As discord.js's message.forward() sends it: the reference alone, which is no empty message.
    const forward = await send({ message_reference: { type: 1, message_id: "123456789012345678", channel_id: general } });
    expect(refusal(forward)).toEqual([501, 0]);
    expect(forward.body.message).toContain("forwarding");
    expect(ev.events).toHaveLength(0);
  });
});

describe("permission changes take effect on the very next post", () => {
  test("channel overwrites: deny, then allow for the member, then cleared", async () => {
    const ch = uuid(general);
    expect((await send({ content: "1" })).status).toBe(200);
    p.core.guilds.setOverwrite(ch, guildId(), 0, 0, PERMISSIONS.SEND_MESSAGES);
    expect(refusal(await send({ content: "2" }))).toEqual([403, 50001]);
    p.core.guilds.setOverwrite(ch, botId(), 1, PERMISSIONS.SEND_MESSAGES, 0);
    expect((await send({ content: "3" })).status).toBe(200);
    p.core.guilds.setOverwrite(ch, botId(), 1, 0, 0);
    expect(refusal(await send({ content: "4" }))).toEqual([403, 50001]);
    p.core.guilds.setOverwrite(ch, guildId(), 0, 0, 0);
    expect((await send({ content: "5" })).status).toBe(200);
  });

  test("member roles and role permissions: a role overwrite follows the member's roles", async () => {
    const ch = uuid(general);
    p.core.guilds.setOverwrite(ch, role("Muted"), 0, 0, PERMISSIONS.SEND_MESSAGES);
    expect((await send({ content: "before" })).status).toBe(200);
    p.core.guilds.addMemberRole(guildId(), botId(), role("Muted"));
    expect(refusal(await send({ content: "muted" }))).toEqual([403, 50001]);
    // ADMINISTRATOR from another role outranks every overwrite.
    p.core.guilds.addMemberRole(guildId(), botId(), role("Boss"));
    expect((await send({ content: "boss" })).status).toBe(200);
    p.core.guilds.removeMemberRole(guildId(), botId(), role("Boss"));
    expect(refusal(await send({ content: "muted again" }))).toEqual([403, 50001]);
    p.core.guilds.removeMemberRole(guildId(), botId(), role("Muted"));
    expect((await send({ content: "free" })).status).toBe(200);
  });

  test("@everyone losing SEND_MESSAGES and the bot's removal from the guild", async () => {
    const alice = uuid(w.users.alice.id);
    p.core.roles.edit(guildId(), guildId(), alice, { permissions: 0 });
    expect(refusal(await send({ content: "x" }))).toEqual([403, 50001]);
    p.core.roles.edit(guildId(), guildId(), alice, { permissions: PERMISSIONS.SEND_MESSAGES });
    expect((await send({ content: "y" })).status).toBe(200);
    p.core.guilds.removeMember(guildId(), botId());
    expect(refusal(await send({ content: "z" }))).toEqual([404, 10003]);
  });
});

describe("what one post writes and answers", () => {
  test("one message.created, no stored pair (the number is the position's), the same id in the answer and the event", async () => {
    const ev = recordEvents(p);
    const r = await send({ content: "hello", nonce: "abc" });
    expect(r.status).toBe(200);
    expect(ev.events).toEqual([{ type: "message.created", messageId: uuid(r.body.id), channelId: uuid(general), guildId: guildId() }]);
    expect(r.body).toMatchObject({ content: "hello", nonce: "abc", channel_id: general, mentions: [], mention_roles: [] });
    expect(r.body.reactions).toBeUndefined();
    const minted = p.store.db.query("SELECT count(*) AS n FROM snowflakes WHERE uuid = ?").get(uuid(r.body.id)) as { n: number };
    expect(minted.n).toBe(0);
    expect(p.core.idmap.lookup(uuid(r.body.id)).position).toBe(Number(BigInt(r.body.id) >> 10n));
  });

  test("an enforce_nonce repeat answers the earlier message with its reactions", async () => {
    const first = await send({ content: "once", nonce: "dup-1", enforce_nonce: true });
    p.core.reactions.add(uuid(w.users.bob.id), uuid(first.body.id), { name: "👍", id: null });
    const ev = recordEvents(p);
    const again = await send({ content: "once", nonce: "dup-1", enforce_nonce: true });
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.reactions).toMatchObject([{ emoji: { name: "👍", id: null }, count: 1, me: false }]);
    expect(ev.events).toHaveLength(0);
  });

  test("mentions are still resolved when present", async () => {
    // A bot mentions a role only if it may be mentioned (test/http/mentions-parity.test.ts has the rule).
    p.core.roles.edit(guildId(), role("Mod"), uuid(w.users.alice.id), { mentionable: true });
    const r = await send({ content: `hey <@${w.users.bob.id}> and <@&${w.guilds.Lab.roles.Mod}>` });
    expect(r.body.mentions.map((u: any) => u.id)).toEqual([w.users.bob.id]);
    expect(r.body.mention_roles).toEqual([w.guilds.Lab.roles.Mod]);
  });
});

describe("the 32 KB rule counts the re-serialized body", () => {
  test("a short text that re-serializes past 32 KB is refused; short plain bodies pass", async () => {
    // "1e20" re-serializes to 21 digits: a 7.5 KB text becomes a 32+ KB body.
    const numbers = Array.from({ length: 1600 }, () => "1e20").join(",");
    const r = await sendRaw(
      `{"content":"x","embeds":[{"fields":[],"color":0,"title":"t","description":"d","footer":{"text":"${"y".repeat(10)}"}}],"flags":0,"pad":[${numbers}]}`,
    );
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors._errors[0].code).toBe("PAYLOAD_TOO_LARGE");
    const ok = await sendRaw(`{"content":"${"\\u00e9".repeat(300)}"}`);
    expect(ok.status).toBe(200);
    expect(ok.body.content).toBe("é".repeat(300));
  });

  test("a body of multi-byte characters is measured in bytes", async () => {
    // 11,500 three-byte characters: within every per-field limit, over 32 KB in UTF-8.
    const big = "€".repeat(1900);
    const r = await send({ content: "€".repeat(2000), embeds: Array.from({ length: 5 }, () => ({ description: big })) });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors._errors[0].code).toBe("PAYLOAD_TOO_LARGE");
  });
});
