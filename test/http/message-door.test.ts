/**
 * One door for a message: a person's post and edit (people's API, harness) go through
 * the same core operations as a bot's (core/messages.ts), so they store the same message,
 * decide the same mentions and apply the same channel rules. DMs between people stay the
 * people's own (ciphertext only, clientapi-messages.test.ts).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, internalId, peopleWorld } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string;
let general: string, lab: string;
let bot: string;

beforeEach(() => {
  ({ p, w, alice, bob, carol, general, lab } = peopleWorld());
  bot = w.applications.EchoBot.token;
});

const flake = (id: string) => p.api.flakes.of(id);

/** The stored message, its own id, author and times left out: what a door decided, not who used it or when. */
function stored(id: string) {
  const m = p.store.db.query("SELECT * FROM messages WHERE id = ?").get(id) as Record<string, unknown>;
  // Who, when and where in time (the position follows the id) differ by message; the rest is what the door decided.
  const { id: _id, author_id: _author, created_at: _at, edited_at, position, ...rest } = m;
  return { ...rest, edited: edited_at !== null, positioned: position !== null };
}

describe("a person's message takes the bots' door", () => {
  test("a reply that mentions someone is stored alike, whichever door posted it", async () => {
    const bobId = internalId(p, w.users.bob.id);
    const target = (await client(p, "POST", `/channels/${general}/messages`, bob, { content: "target" })).body.id as string;
    const byBot = await call(p, "POST", `/channels/${flake(general)}/messages`, {
      token: bot,
      body: { content: `hi <@${flake(bobId)}>`, message_reference: { message_id: flake(target) } },
    });
    const byPerson = await client(p, "POST", `/channels/${general}/messages`, alice, { content: `hi <@${bobId}>`, reply_to: target });
    expect([byBot.status, byPerson.status]).toEqual([200, 200]);
    const a = stored(internalId(p, byBot.body.id));
    expect(a).toMatchObject({ type: 19, mentions: JSON.stringify([bobId]), reference_message_id: target });
    expect(stored(byPerson.body.id)).toEqual(a);
  });

  test("a person's edit that adds @everyone pings everyone, as a bot's edit does", async () => {
    // alice owns the server (ADMINISTRATOR): her @everyone pings, in a post as in an edit.
    const posted = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "hello" });
    const edited = await client(p, "PATCH", `/channels/${general}/messages/${posted.body.id}`, alice, { content: "hello @everyone" });
    expect(edited.status).toBe(200);
    expect(stored(posted.body.id)).toMatchObject({ content: "hello @everyone", mention_everyone: 1, edited: true });
    const again = await client(p, "PATCH", `/channels/${general}/messages/${posted.body.id}`, alice, { content: "never mind" });
    expect(again.status).toBe(200);
    expect(stored(posted.body.id)).toMatchObject({ mention_everyone: 0 });
  });

  test("the channels messages go in are the same set for bots and people: a voice channel carries text", async () => {
    const voice = p.core.guilds.createChannel({ guildId: lab, name: "lounge", type: 2 }).id;
    const category = p.core.guilds.createChannel({ guildId: lab, name: "Area", type: 4 }).id;
    const botInVoice = await call(p, "POST", `/channels/${flake(voice)}/messages`, { token: bot, body: { content: "beep" } });
    const personInVoice = await client(p, "POST", `/channels/${voice}/messages`, alice, { content: "hi" });
    expect([botInVoice.status, personInVoice.status]).toEqual([200, 200]);
    const botInCategory = await call(p, "POST", `/channels/${flake(category)}/messages`, { token: bot, body: { content: "beep" } });
    const personInCategory = await client(p, "POST", `/channels/${category}/messages`, alice, { content: "hi" });
    expect([botInCategory.status, botInCategory.body.code]).toEqual([400, 50035]);
    expect([personInCategory.status, personInCategory.body.code]).toEqual([400, 50035]);
    expect(personInCategory.body.message).toBe(botInCategory.body.message);
  });

  test("slowmode holds a person, never a bot (as on the reference); those who may manage messages are exempt", async () => {
    p.core.guilds.addMember(lab, internalId(p, w.users.carol.id));
    const slow = p.core.guilds.createChannel({ guildId: lab, name: "slow", rateLimitPerUser: 30 }).id;
    expect((await client(p, "POST", `/channels/${slow}/messages`, carol, { content: "one" })).status).toBe(200);
    const second = await client(p, "POST", `/channels/${slow}/messages`, carol, { content: "two" });
    expect([second.status, second.body.code]).toEqual([429, 20016]);
    expect((await call(p, "POST", `/channels/${flake(slow)}/messages`, { token: bot, body: { content: "one" } })).status).toBe(200);
    expect((await call(p, "POST", `/channels/${flake(slow)}/messages`, { token: bot, body: { content: "two" } })).status).toBe(200);
    // bob holds MANAGE_MESSAGES (the Mod role).
    expect((await client(p, "POST", `/channels/${slow}/messages`, bob, { content: "one" })).status).toBe(200);
    expect((await client(p, "POST", `/channels/${slow}/messages`, bob, { content: "two" })).status).toBe(200);
  });
});
