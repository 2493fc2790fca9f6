import { beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, client, makeUnlimitedParley, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { Snowflakes } from "../../src/wire/snowflakes";

/** BASIC_WORLD plus: a stranger guild the bot is not in, dave (shares nothing), a second bot without MESSAGE_CONTENT. */
function world() {
  const w = structuredClone(BASIC_WORLD) as any;
  w.users.push({ name: "dave" });
  w.guilds.push({ name: "Elsewhere", owner: "dave", channels: [{ name: "hidden" }] });
  w.guilds[0].channels.push({ name: "slow", rate_limit_per_user: 10 });
  w.guilds[0].roles.push({ name: "Boss", permissions: ["ADMINISTRATOR"], members: [] });
  w.applications.push({ name: "QuietBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] });
  return w;
}

let p: Parley;
let w: SeedAnswer;
let token: string;
let general: string;
const uuid = (flake: string) => p.api.flakes.uuid(flake)!;

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(world());
  token = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
});

const send = (body: unknown, ch = general, t = token) => call(p, "POST", `/channels/${ch}/messages`, { token: t, body });
const personSays = (name: string, content: string, ch = general) =>
  p.api.flakes.of(p.core.messages.send(uuid(w.users[name].id), uuid(ch), { content }).id);
const grant = (role: string, member: string) =>
  p.core.guilds.addMemberRole(uuid(w.guilds.Lab.id), uuid(member), uuid(w.guilds.Lab.roles[role]));

describe("POST /channels/{channel_id}/messages", () => {
  test("creates the message, echoes the nonce, author bot false, mentions resolved, one message.created", async () => {
    const ev = recordEvents(p);
    const r = await send({ content: `hi <@${w.users.bob.id}>`, nonce: "n-1", tts: false });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      type: 0,
      channel_id: general,
      content: `hi <@${w.users.bob.id}>`,
      nonce: "n-1",
      edited_timestamp: null,
      flags: 0,
      pinned: false,
    });
    expect(r.body.author).toMatchObject({ id: w.applications.EchoBot.bot_user_id, bot: false });
    expect(r.body.mentions.map((u: any) => [u.id, u.bot])).toEqual([[w.users.bob.id, false]]);
    expect(r.body.id).toMatch(/^[0-9]{17,20}$/);
    expect(ev.events).toEqual([
      { type: "message.created", messageId: uuid(r.body.id), channelId: uuid(general), guildId: uuid(w.guilds.Lab.id) },
    ]);
    // The core keeps the mention by internal id (the people's side speaks those), and knows whom it mentions.
    const seen = p.core.messages.list(uuid(general), { limit: 5 }, uuid(w.users.bob.id));
    expect(seen[0].content).toBe(`hi <@${uuid(w.users.bob.id)}>`);
    expect(JSON.parse(seen[0].mentions)).toEqual([uuid(w.users.bob.id)]);
  });

  test("refusals write nothing and fire nothing", async () => {
    const ev = recordEvents(p);
    expect((await send({})).body.code).toBe(50035);
    expect((await send({ content: "x".repeat(2001) })).body.errors.content._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    const multipart = await call(p, "POST", `/channels/${general}/messages`, {
      token,
      rawBody: '--x\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content":"a"}\r\n--x--',
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(multipart.status).toBe(400);
    expect(multipart.body.code).toBe(50035);
    expect(multipart.body.message).toContain("JSON only");
    const staff = await send({ content: "x" }, w.guilds.Lab.channels.staff);
    expect([staff.status, staff.body.code]).toEqual([403, 50001]);
    const hidden = await send({ content: "x" }, w.guilds.Elsewhere.channels.hidden);
    expect([hidden.status, hidden.body.code]).toEqual([404, 10003]);
    const unknown = await send({ content: "x" }, "123456789012345678");
    expect([unknown.status, unknown.body.code]).toEqual([404, 10003]);
    expect(ev.events).toHaveLength(0);
    expect(p.core.messages.list(uuid(general), { limit: 10 }, null)).toHaveLength(0);
  });

  test("a reply is type 19 with message_reference; the id may be a JSON number above 2^53", async () => {
    const target = personSays("bob", "question");
    const r = await call(p, "POST", `/channels/${general}/messages`, {
      token,
      rawBody: `{"content":"answer","message_reference":{"message_id":${target},"fail_if_not_exists":true}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(r.status).toBe(200);
    expect(r.body.type).toBe(19);
    expect(r.body.message_reference).toEqual({ type: 0, message_id: target, channel_id: general, guild_id: w.guilds.Lab.id });
    expect(r.body.referenced_message.id).toBe(target);
  });

  test("a reply to a missing message fails unless fail_if_not_exists is false", async () => {
    const missing = await send({ content: "a", message_reference: { message_id: "123456789012345678" } });
    expect(refusal(missing)).toEqual([400, 50035]);
    expect(missing.body.errors.message_reference).toBeDefined();
    const other = personSays("alice", "elsewhere", w.guilds.Lab.channels.staff);
    expect(refusal(await send({ content: "a", message_reference: { message_id: other } }))).toEqual([400, 50035]);
    const plain = await send({ content: "a", message_reference: { message_id: "123456789012345678", fail_if_not_exists: false } });
    expect(plain.status).toBe(200);
    expect(plain.body.type).toBe(0);
    expect(plain.body.message_reference).toBeUndefined();
  });

  test("@everyone pings only for ADMINISTRATOR holders, and only when allowed_mentions lets it", async () => {
    expect((await send({ content: "@everyone hi" })).body.mention_everyone).toBe(false);
    grant("Boss", w.applications.EchoBot.bot_user_id);
    expect((await send({ content: "@everyone hi" })).body.mention_everyone).toBe(true);
    expect((await send({ content: "@here hi", allowed_mentions: { parse: [] } })).body.mention_everyone).toBe(false);
  });

  test("service_e2e is ignored and flags other than SUPPRESS_EMBEDS/SUPPRESS_NOTIFICATIONS are dropped", async () => {
    const r = await send({ content: "x", service_e2e: true, flags: 4 | 64 | 4096 });
    expect(r.status).toBe(200);
    expect(r.body.flags).toBe(4 | 4096);
    expect(r.body.service_e2e_encrypted).toBeUndefined();
  });

  test("enforce_nonce returns the earlier message instead of a second one", async () => {
    const a = await send({ content: "x", nonce: "same", enforce_nonce: true });
    const ev = recordEvents(p);
    const b = await send({ content: "x", nonce: "same", enforce_nonce: true });
    expect(b.body.id).toBe(a.body.id);
    expect(ev.events).toHaveLength(0);
  });

  test("slowmode holds people without MANAGE_MESSAGES/MANAGE_CHANNELS, never a bot: 429 code 20016 with retry_after", async () => {
    const slow = w.guilds.Lab.channels.slow;
    p.clock.advance(0); // virtual time from here on
    // The reference exempts bots: a bot answering several people in a slow channel answers each at once.
    for (const content of ["1", "2", "3"]) expect((await send({ content }, slow)).status).toBe(200);
    p.core.guilds.addMember(uuid(w.guilds.Lab.id), uuid(w.users.carol.id));
    const carolSays = (content: string) => client(p, "POST", `/channels/${uuid(slow)}/messages`, w.users.carol.token, { content });
    expect((await carolSays("1")).status).toBe(200);
    p.clock.advance(4000);
    const r = await carolSays("2");
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ code: 20016, message: expect.any(String), retry_after: 6, global: false });
    expect(r.headers.get("retry-after")).toBe("6");
    p.clock.advance(6000);
    expect((await carolSays("3")).status).toBe(200);
  });
});

describe("GET /channels/{channel_id}/messages", () => {
  test("newest first, default 50, limit 1 to 100, cursors mutually exclusive", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(personSays("bob", `m${i}`));
    const all = await call(p, "GET", `/channels/${general}/messages`, { token });
    expect(all.body.map((m: any) => m.id)).toEqual(ids.slice(10).reverse());
    const hundred = await call(p, "GET", `/channels/${general}/messages?limit=100`, { token });
    expect(hundred.body).toHaveLength(60);
    for (const bad of ["0", "101", "x"]) {
      const r = await call(p, "GET", `/channels/${general}/messages?limit=${bad}`, { token });
      expect([r.status, r.body.code]).toEqual([400, 50035]);
      expect(r.body.errors.limit).toBeDefined();
    }
    const one = await call(p, "GET", `/channels/${general}/messages?limit=1`, { token });
    expect(one.body.map((m: any) => m.id)).toEqual([ids[59]]);
    const before = await call(p, "GET", `/channels/${general}/messages?before=${ids[10]}&limit=3`, { token });
    expect(before.body.map((m: any) => m.id)).toEqual([ids[9], ids[8], ids[7]]);
    const after = await call(p, "GET", `/channels/${general}/messages?after=${ids[10]}&limit=3`, { token });
    expect(after.body.map((m: any) => m.id)).toEqual([ids[13], ids[12], ids[11]]);
    const around = await call(p, "GET", `/channels/${general}/messages?around=${ids[30]}&limit=5`, { token });
    expect(around.body.map((m: any) => m.id)).toEqual([ids[32], ids[31], ids[30], ids[29], ids[28]]);
    const both = await call(p, "GET", `/channels/${general}/messages?before=${ids[10]}&after=${ids[5]}`, { token });
    expect([both.status, both.body.code]).toEqual([400, 50035]);
  });

  test("MESSAGE_CONTENT gating uses the token's intents; the bot's own messages and those mentioning it are exempt; mentions are envelope", async () => {
    const quiet = w.applications.QuietBot;
    const plain = personSays("bob", "secret");
    // Core calls name people by internal id (the wire layer translates snowflakes).
    const mention = personSays("bob", `hey <@${uuid(quiet.bot_user_id)}> help`);
    const other = personSays("bob", `hey <@${uuid(w.users.alice.id)}> secret`);
    const own = await send({ content: "mine", embeds: [{ title: "t" }] }, general, quiet.token);
    const list = await call(p, "GET", `/channels/${general}/messages`, { token: quiet.token });
    const byId = Object.fromEntries(list.body.map((m: any) => [m.id, m]));
    expect(byId[plain]).toMatchObject({ content: "", embeds: [], components: [], attachments: [] });
    expect(byId[plain].author.id).toBe(w.users.bob.id);
    expect(byId[mention]).toMatchObject({ content: `hey <@${quiet.bot_user_id}> help`, mentions: [{ id: quiet.bot_user_id, bot: false }] });
    expect(byId[other]).toMatchObject({ content: "", embeds: [], mentions: [{ id: w.users.alice.id }] });
    expect(byId[own.body.id]).toMatchObject({ content: "mine", embeds: [{ type: "rich", title: "t" }] });
    // The POST's own answer is not gated: it is the message the bot just sent.
    expect(own.body).toMatchObject({ content: "mine", embeds: [{ type: "rich", title: "t" }] });
    const single = await call(p, "GET", `/channels/${general}/messages/${plain}`, { token: quiet.token });
    expect(single.body.content).toBe("");
    const full = await call(p, "GET", `/channels/${general}/messages/${plain}`, { token });
    expect(full.body.content).toBe("secret");
  });

  test("GET one: unknown, or from another channel, is 404 10003", async () => {
    const m = personSays("bob", "x");
    expect((await call(p, "GET", `/channels/${general}/messages/${m}`, { token })).status).toBe(200);
    const wrong = await call(p, "GET", `/channels/${w.guilds.Lab.channels.staff}/messages/${m}`, { token });
    expect([wrong.status, wrong.body.code]).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/channels/${general}/messages/123456789012345678`, { token }))).toEqual([404, 10003]);
    expect(refusal(await call(p, "GET", `/channels/${w.guilds.Elsewhere.channels.hidden}/messages`, { token }))).toEqual([404, 10003]);
  });
});

describe("PATCH /channels/{channel_id}/messages/{message_id}", () => {
  test("embeds and components replace the whole set when present, are kept when absent, cleared by []", async () => {
    const row = { type: 1, components: [{ type: 2, style: 1, custom_id: "a", label: "A" }] };
    const m = (await send({ content: "v1", embeds: [{ title: "e1" }, { title: "e2" }], components: [row] })).body;
    const ev = recordEvents(p);
    const path = `/channels/${general}/messages/${m.id}`;
    const e1 = await call(p, "PATCH", path, { token, body: { content: "v2" } });
    expect(e1.body).toMatchObject({ content: "v2", embeds: [{ title: "e1" }, { title: "e2" }], components: [row] });
    expect(e1.body.edited_timestamp).toEqual(expect.any(String));
    const e2 = await call(p, "PATCH", path, { token, body: { embeds: [{ title: "only" }] } });
    expect(e2.body.embeds).toEqual([{ type: "rich", title: "only" }]);
    expect(e2.body.content).toBe("v2");
    const e3 = await call(p, "PATCH", path, { token, body: { embeds: [], components: [] } });
    expect(e3.body).toMatchObject({ content: "v2", embeds: [], components: [] });
    const empty = await call(p, "PATCH", path, { token, body: { content: "" } });
    expect([empty.status, empty.body.code]).toEqual([400, 50035]);
    const over = await call(p, "PATCH", path, { token, body: { embeds: [{ fields: [{ name: "n", value: "v".repeat(1025) }] }] } });
    expect(over.body.errors.embeds["0"].fields["0"].value).toBeDefined();
    expect(ev.of("message.updated")).toHaveLength(3);
  });

  test("another's message: body edits are 403; MANAGE_MESSAGES may only toggle SUPPRESS_EMBEDS", async () => {
    const m = personSays("bob", "bob's");
    const path = `/channels/${general}/messages/${m}`;
    const r = await call(p, "PATCH", path, { token, body: { content: "mine now" } });
    expect([r.status, r.body.code]).toEqual([403, 50001]);
    expect(refusal(await call(p, "PATCH", path, { token, body: { flags: 4 } }))).toEqual([403, 50001]);
    grant("Mod", w.applications.EchoBot.bot_user_id);
    const ok = await call(p, "PATCH", path, { token, body: { flags: 4 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ flags: 4, content: "bob's" });
    expect(refusal(await call(p, "PATCH", path, { token, body: { content: "no" } }))).toEqual([403, 50001]);
  });
});

describe("DELETE messages", () => {
  test("own always; another's needs MANAGE_MESSAGES; one message.deleted each", async () => {
    const mine = (await send({ content: "x" })).body.id;
    const bobs = personSays("bob", "y");
    const ev = recordEvents(p);
    expect((await call(p, "DELETE", `/channels/${general}/messages/${mine}`, { token })).status).toBe(204);
    const denied = await call(p, "DELETE", `/channels/${general}/messages/${bobs}`, { token });
    expect([denied.status, denied.body.code]).toEqual([403, 50001]);
    grant("Mod", w.applications.EchoBot.bot_user_id);
    expect((await call(p, "DELETE", `/channels/${general}/messages/${bobs}`, { token })).status).toBe(204);
    expect(refusal(await call(p, "DELETE", `/channels/${general}/messages/${bobs}`, { token }))).toEqual([404, 10003]);
    expect(ev.of("message.deleted").map((e: any) => e.messageId)).toEqual([uuid(mine), uuid(bobs)]);
  });

  test("bulk-delete: 2 to 100 ids, none older than 14 days, MANAGE_MESSAGES, MESSAGE_DELETE per message", async () => {
    const bulk = (messages: unknown[]) => call(p, "POST", `/channels/${general}/messages/bulk-delete`, { token, body: { messages } });
    p.clock.advance(0); // virtual time from here on
    const ids = [personSays("bob", "a"), personSays("bob", "b"), personSays("bob", "c")];
    expect([(await bulk(ids)).status, (await bulk(ids)).body.code]).toEqual([403, 50001]);
    grant("Mod", w.applications.EchoBot.bot_user_id);
    const one = await bulk([ids[0]]);
    expect([one.status, one.body.code]).toEqual([400, 50035]);
    expect(one.body.errors.messages).toBeDefined();
    const tooMany = await bulk(Array.from({ length: 101 }, (_, i) => (250000000000000000n + BigInt(i)).toString()));
    expect(tooMany.body.errors.messages).toBeDefined();
    expect(refusal(await bulk([ids[0], ids[0]]))).toEqual([400, 50035]);
    const ev = recordEvents(p);
    // 100 ids (unknown ones count toward the bound and are skipped).
    const padded = [ids[0], ids[1], ...Array.from({ length: 98 }, (_, i) => (BigInt(ids[2]) + 1000n + BigInt(i)).toString())];
    expect((await bulk(padded)).status).toBe(204);
    expect(ev.of("message.deleted")).toHaveLength(2);
    expect(ev.events).toHaveLength(2);
    // 14 days: exactly 14 days old is accepted; one millisecond older is refused.
    const edge = [personSays("bob", "e1"), personSays("bob", "e2")];
    p.clock.advance(14 * 86_400_000);
    expect((await bulk(edge)).status).toBe(204);
    const old = personSays("bob", "old");
    const newer = personSays("bob", "newer");
    p.clock.advance(14 * 86_400_000 + 1);
    expect(Snowflakes.timestamp(old)).toBeLessThan(p.clock.now() - 14 * 86_400_000);
    const stale = await bulk([old, newer]);
    expect([stale.status, stale.body.code]).toEqual([400, 50035]);
    expect(stale.body.message).toContain("messages");
    expect(p.core.messages.get(uuid(old))).not.toBeNull();
  });
});

describe("direct messages (spec 1.6)", () => {
  test("POST /users/@me/channels opens (or returns) a DM with a person sharing a server", async () => {
    const open = () => call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.users.bob.id } });
    const a = await open();
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ type: 1, recipients: [{ id: w.users.bob.id }] });
    expect(a.body.guild_id).toBeUndefined();
    expect((await open()).body.id).toBe(a.body.id);
    const stranger = await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.users.dave.id } });
    expect([stranger.status, stranger.body.code]).toEqual([403, 50001]);
    const bot = await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.applications.QuietBot.bot_user_id } });
    expect(refusal(bot)).toEqual([403, 50001]);
    const self = await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.applications.EchoBot.bot_user_id } });
    expect(refusal(self)).toEqual([400, 50035]);
    expect(refusal(await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: "123456789012345678" } }))).toEqual([
      404, 10003,
    ]);
    expect((await call(p, "POST", "/users/@me/channels", { token, body: {} })).body.errors.recipient_id).toBeDefined();
  });

  test("people's DM messages are envelopes to the bot; the bot's own are plaintext", async () => {
    const dm = (await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.users.bob.id } })).body.id;
    const bobMsg = p.core.messages.create({ channelId: uuid(dm), authorId: uuid(w.users.bob.id), ciphertext: "b64:opaque" });
    const mine = await send({ content: "hello bob", service_e2e: true }, dm);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ content: "hello bob", service_e2e_encrypted: false });
    const list = await call(p, "GET", `/channels/${dm}/messages`, { token });
    const theirs = list.body.find((m: any) => m.id === p.api.flakes.of(bobMsg.id));
    expect(theirs).toMatchObject({ content: "", embeds: [], service_e2e_encrypted: true });
    expect(list.body.find((m: any) => m.id === mine.body.id).content).toBe("hello bob");
    const one = await call(p, "GET", `/channels/${dm}/messages/${theirs.id}`, { token });
    expect(one.body.content).toBe("");
    // The bot cannot edit or delete the person's envelope.
    expect(refusal(await call(p, "PATCH", `/channels/${dm}/messages/${theirs.id}`, { token, body: { content: "x" } }))).toEqual([
      403, 50001,
    ]);
    expect(refusal(await call(p, "DELETE", `/channels/${dm}/messages/${theirs.id}`, { token }))).toEqual([403, 50001]);
    expect(
      refusal(await call(p, "POST", `/channels/${dm}/messages/bulk-delete`, { token, body: { messages: [theirs.id, mine.body.id] } })),
    ).toEqual([403, 50001]);
    // Another bot cannot see this DM at all.
    expect(refusal(await call(p, "GET", `/channels/${dm}/messages`, { token: w.applications.QuietBot.token }))).toEqual([404, 10003]);
  });

  test("once the person shares no server with the bot, the bot cannot write into the DM", async () => {
    const dm = (await call(p, "POST", "/users/@me/channels", { token, body: { recipient_id: w.users.bob.id } })).body.id;
    p.core.guilds.removeMember(uuid(w.guilds.Lab.id), uuid(w.users.bob.id));
    const r = await send({ content: "still there?" }, dm);
    expect([r.status, r.body.code]).toEqual([403, 50001]);
  });
});
