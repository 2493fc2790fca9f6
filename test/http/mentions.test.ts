/**
 * Who a message mentions (reference-gaps 2.7, 3.6): the users and roles its text names,
 * narrowed by allowed_mentions, plus a reply's author unless `replied_user` is false;
 * recomputed when the text is edited. `mentions` is part of the envelope: shown to bots
 * without MESSAGE_CONTENT too.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, makeUnlimitedParley, refusal, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { INTENTS } from "../../src/core/permissions";
import { rotateToken } from "../../src/wire/tokens";

let p: Parley;
let w: SeedAnswer;
let token: string;
let general: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  w = seedBasic(p);
  token = w.applications.EchoBot.token;
  general = w.guilds.Lab.channels.general;
});

const post = (body: Record<string, unknown>) => call(p, "POST", `/channels/${general}/messages`, { token, body });
const ids = (m: any) => m.mentions.map((u: any) => u.id);
const bobSays = async (content: string) =>
  (await call(p, "POST", "/api/harness/v1/users/bob/messages", { body: { channel_id: general, content } })).body.id;

describe("mentions", () => {
  test("the text's mentions, narrowed by allowed_mentions", async () => {
    // A role counts when it may be mentioned (test/http/mentions-parity.test.ts has the rule).
    const u = (f: string) => p.api.flakes.uuid(f)!;
    p.core.roles.edit(u(w.guilds.Lab.id), u(w.guilds.Lab.roles.Mod), u(w.users.alice.id), { mentionable: true });
    const both = `<@${w.users.bob.id}> <@${w.users.alice.id}> <@&${w.guilds.Lab.roles.Mod}>`;
    const all = (await post({ content: both })).body;
    expect(ids(all)).toEqual([w.users.bob.id, w.users.alice.id]);
    expect(all.mention_roles).toEqual([w.guilds.Lab.roles.Mod]);
    const none = (await post({ content: both, allowed_mentions: { parse: [] } })).body;
    expect([ids(none), none.mention_roles]).toEqual([[], []]);
    expect(none.content).toBe(both);
    const onlyBob = (await post({ content: both, allowed_mentions: { users: [w.users.bob.id], parse: ["roles"] } })).body;
    expect([ids(onlyBob), onlyBob.mention_roles]).toEqual([[w.users.bob.id], [w.guilds.Lab.roles.Mod]]);
    expect(refusal(await post({ content: both, allowed_mentions: { parse: ["users"], users: [w.users.bob.id] } }))).toEqual([400, 50035]);
  });

  test("a reply mentions its author: by default, and with replied_user true; not with replied_user false", async () => {
    const target = await bobSays("question?");
    const ref = { message_id: target };
    expect(ids((await post({ content: "answer", message_reference: ref })).body)).toEqual([w.users.bob.id]);
    expect(
      ids((await post({ content: "answer", message_reference: ref, allowed_mentions: { parse: [], replied_user: true } })).body),
    ).toEqual([w.users.bob.id]);
    expect(ids((await post({ content: "answer", message_reference: ref, allowed_mentions: { parse: ["users"] } })).body)).toEqual([]);
  });

  test("editing the text recomputes the mentions; a reply keeps its author", async () => {
    const target = await bobSays("question?");
    const m = (await post({ content: `hi <@${w.users.alice.id}>`, message_reference: { message_id: target } })).body;
    expect(ids(m)).toEqual([w.users.bob.id, w.users.alice.id]);
    const edited = await call(p, "PATCH", `/channels/${general}/messages/${m.id}`, { token, body: { content: "hi nobody" } });
    expect(ids(edited.body)).toEqual([w.users.bob.id]);
  });

  test("a person's message mentioning the bot reaches a bot without MESSAGE_CONTENT with its text and its mentions", async () => {
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const { app, bot } = p.core.apps.create({ ownerId: alice, name: "Quiet", intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    p.core.apps.install(app.id, p.api.flakes.uuid(w.guilds.Lab.id)!, alice);
    const quiet = { token: rotateToken(p.core.apps, p.api.flakes, app.id), bot_user_id: p.api.flakes.of(bot.id) };
    const id = await bobSays(`<@${quiet.bot_user_id}> help`);
    const other = await bobSays(`<@${w.users.alice.id}> secret`);
    const seen = await call(p, "GET", `/channels/${general}/messages/${id}`, { token: quiet.token });
    expect(seen.body).toMatchObject({ content: `<@${quiet.bot_user_id}> help`, mentions: [{ id: quiet.bot_user_id }] });
    const hidden = await call(p, "GET", `/channels/${general}/messages/${other}`, { token: quiet.token });
    expect(hidden.body).toMatchObject({ content: "", mentions: [{ id: w.users.alice.id }] });
  });

  test("replying never reveals the replied-to message: referenced_message follows the rule on itself", async () => {
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const { app } = p.core.apps.create({ ownerId: alice, name: "Quiet", intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    p.core.apps.install(app.id, p.api.flakes.uuid(w.guilds.Lab.id)!, alice);
    const quiet = rotateToken(p.core.apps, p.api.flakes, app.id);
    const secret = await bobSays("the launch code is 0000");
    // The bot's own reply is exempt; the message it replies to is not.
    const reply = await call(p, "POST", `/channels/${general}/messages`, {
      token: quiet,
      body: { content: "noted", message_reference: { message_id: secret } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.content).toBe("noted");
    expect(reply.body.referenced_message).toMatchObject({ id: secret, content: "", embeds: [], components: [] });
    const again = await call(p, "GET", `/channels/${general}/messages/${reply.body.id}`, { token: quiet });
    expect(again.body.referenced_message.content).toBe("");
    // A reply to the bot's own message shows that message: it is the bot's.
    const back = (
      await call(p, "POST", "/api/harness/v1/users/bob/messages", {
        body: { channel_id: general, content: "thanks", reply_to: reply.body.id },
      })
    ).body.id;
    const seen = await call(p, "GET", `/channels/${general}/messages/${back}`, { token: quiet });
    expect(seen.body.referenced_message).toMatchObject({ id: reply.body.id, content: "noted" });
    // With the intent, everything shows.
    const full = await call(p, "GET", `/channels/${general}/messages/${reply.body.id}`, { token });
    expect(full.body.referenced_message.content).toBe("the launch code is 0000");
  });
});
