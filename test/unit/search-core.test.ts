/**
 * Search in the core (core/search.ts over SQLite's FTS5): who sees what, and the grammar
 * run against real messages. Every refusal checks the error the routes will answer.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { errorToStatusBody } from "../../src/wire/errors";
import { makeUnlimitedParley } from "../helpers";

const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol"],
      roles: [{ name: "Crew", permissions: [], members: ["carol"], mentionable: true }],
      channels: [{ name: "general" }, { name: "random" }],
    },
    { name: "Elsewhere", owner: "dave", members: ["bob"], channels: [{ name: "lobby" }] },
  ],
  applications: [{ name: "EchoBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

let p: Parley;
let id: (flake: string) => string;
let alice: string, bob: string, carol: string, dave: string, bot: string;
let lab: string, general: string, random: string, elsewhere: string, lobby: string, crew: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  const w = p.seed(structuredClone(WORLD));
  id = (f) => p.api.flakes.uuid(f)!;
  [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map((n) => id(w.users[n].id));
  bot = id(w.applications.EchoBot.bot_user_id);
  lab = id(w.guilds.Lab.id);
  general = id(w.guilds.Lab.channels.general);
  random = id(w.guilds.Lab.channels.random);
  crew = id(w.guilds.Lab.roles.Crew);
  elsewhere = id(w.guilds.Elsewhere.id);
  lobby = id(w.guilds.Elsewhere.channels.lobby);
});

const say = (who: string, ch: string, content: string) => p.core.messages.send(who, ch, { content });
const find = (who: string, q: string, channelId?: string) => p.core.search.run(who, { guildId: lab, channelId }, q);
const texts = (who: string, q: string, channelId?: string) => find(who, q, channelId).messages.map((m) => m.content);
/** The status and code a route would answer for what fn throws. */
function refusal(fn: () => unknown): [number, number] {
  try {
    fn();
  } catch (e) {
    const a = errorToStatusBody(e);
    return [a.status, a.body.code];
  }
  throw new Error("no refusal");
}

describe("who sees what", () => {
  test("members find their server's messages, newest first; anyone else is told the server does not exist", () => {
    say(alice, general, "the quarterly report is late");
    say(bob, random, "report filed");
    expect(texts(carol, "report")).toEqual(["report filed", "the quarterly report is late"]);
    expect(refusal(() => find(dave, "report"))).toEqual([404, 10003]);
    // A channel of another server, as the scope, is unknown too.
    expect(refusal(() => p.core.search.run(bob, { guildId: lab, channelId: lobby }, "report"))).toEqual([404, 10003]);
    expect(texts(carol, "report", random)).toEqual(["report filed"]);
  });

  test("another server's messages never appear, whatever the words", () => {
    say(dave, lobby, "launch codes are in the vault");
    say(alice, general, "launch at noon");
    expect(texts(bob, "launch")).toEqual(["launch at noon"]);
    expect(p.core.search.run(bob, { guildId: elsewhere }, "launch").messages.map((m) => m.content)).toEqual([
      "launch codes are in the vault",
    ]);
  });

  test("a DM is never indexed, so never found: not even by its own people", () => {
    const dm = p.core.dms.openAsBot(bot, alice);
    p.core.messages.send(bot, dm.id, { content: "pineapple secret" });
    say(alice, general, "no fruit here");
    expect(p.store.db.query("SELECT count(*) AS n FROM message_fts WHERE message_fts MATCH 'body : pineapple'").get()).toEqual({ n: 0 });
    expect(find(alice, "pineapple").total).toBe(0);
    expect(p.core.search.mentionsOf(alice)).toEqual([]);
  });

  test("ephemeral and system messages are not searched", () => {
    p.core.messages.create({ channelId: general, authorId: bot, content: "ephemeral pineapple", ephemeralUserId: bob });
    const m = say(alice, general, "pin this pineapple");
    p.core.pins.pin(alice, general, m.id);
    expect(find(bob, "pineapple").messages.map((x) => x.type)).toEqual([0]);
  });
});

describe("the grammar, run", () => {
  test("words all must appear; a phrase in order; a prefix", () => {
    say(alice, general, "release notes for version two");
    say(alice, general, "notes on the release");
    expect(texts(bob, "release notes")).toHaveLength(2);
    expect(texts(bob, '"release notes"')).toEqual(["release notes for version two"]);
    expect(texts(bob, "vers*")).toEqual(["release notes for version two"]);
    // Accents are folded, case too; punctuation typed is no operator.
    say(bob, general, "Crème brûlée: déjà vu");
    expect(texts(alice, "creme BRULEE")).toHaveLength(1);
    expect(find(alice, 'brulee" OR "x AND NOT (').total).toBe(0);
  });

  test("from:, in:, mentions: by name, nickname, token or id; several of one filter are any of them", () => {
    say(alice, general, `status update for <@${carol}>`);
    say(bob, random, "status update, all fine");
    say(carol, general, "status: blocked");
    expect(texts(alice, "status from:bob")).toEqual(["status update, all fine"]);
    expect(texts(alice, `status from:<@${bob}> from:carol`)).toEqual(["status: blocked", "status update, all fine"]);
    expect(texts(alice, "status in:#general")).toEqual(["status: blocked", `status update for <@${carol}>`]);
    expect(texts(alice, "mentions:@carol")).toEqual([`status update for <@${carol}>`]);
    p.core.moderation.editMember(lab, alice, carol, { nick: "Cee" });
    expect(texts(alice, "status from:cee")).toEqual(["status: blocked"]);
    // Letters beyond ASCII fold too, as a typed @mention's do.
    p.core.moderation.editMember(lab, alice, carol, { nick: "Élodie" });
    expect(texts(alice, "status from:élodie")).toEqual(["status: blocked"]);
    expect(texts(alice, "status from:ÉLODIE")).toEqual(["status: blocked"]);
  });

  test("a name nobody has: the searcher is told, and nothing matches", () => {
    say(alice, general, "status");
    const r = find(alice, "status from:nobody in:#nowhere");
    expect(r.total).toBe(0);
    expect(r.problems).toEqual(["from: no one here is called nobody.", "in: there is no channel nowhere here."]);
  });

  test("has:link and has:embed; has:file finds nothing among messages without files", () => {
    say(alice, general, "see https://example.com/page");
    p.core.messages.send(alice, general, { content: "", embeds: [{ title: "Weekly digest", url: "https://example.com/d" }] });
    say(alice, general, "plain words");
    expect(texts(bob, "has:link").length).toBe(2);
    expect(find(bob, "has:embed").messages.map((m) => JSON.parse(m.embeds)[0].title)).toEqual(["Weekly digest"]);
    // Embed text is searched like the message's own.
    expect(find(bob, "digest").total).toBe(1);
    expect(find(bob, "has:file").total).toBe(0);
  });

  test("before:, after:, during: are days in the searcher's zone", () => {
    // Ids take their time from the clock (never going back), so the days are after the seed's.
    p.clock.set(Date.UTC(2030, 0, 30, 12));
    say(alice, general, "day one");
    p.clock.set(Date.UTC(2030, 0, 31, 23, 30));
    say(alice, general, "day two late");
    p.clock.set(Date.UTC(2030, 1, 1, 12));
    say(alice, general, "day three");
    expect(texts(bob, "day before:2030-01-31")).toEqual(["day one"]);
    expect(texts(bob, "day after:2030-01-31")).toEqual(["day three"]);
    expect(texts(bob, "day during:2030-01-31")).toEqual(["day two late"]);
    // An hour ahead of UTC, 23:30 UTC on the 31st is already February 1st.
    expect(
      p.core.search.run(bob, { guildId: lab }, "day during:2030-02-01", { utcOffsetMinutes: 60 }).messages.map((m) => m.content),
    ).toEqual(["day three", "day two late"]);
  });

  test("pinned:true and pinned:false follow pins", () => {
    const a = say(alice, general, "keep this");
    say(alice, general, "keep that");
    p.core.pins.pin(alice, general, a.id);
    expect(texts(bob, "keep pinned:true")).toEqual(["keep this"]);
    expect(texts(bob, "keep pinned:false")).toEqual(["keep that"]);
    p.core.pins.unpin(alice, general, a.id);
    expect(texts(bob, "pinned:true")).toEqual([]);
  });

  test("pages: limit 1..25, offset, a total counted up to 1000", () => {
    for (let i = 0; i < 30; i++) say(alice, general, `item ${i}`);
    const first = p.core.search.run(bob, { guildId: lab }, "item", { limit: 25 });
    expect([first.total, first.messages.length, first.messages[0].content]).toEqual([30, 25, "item 29"]);
    const second = p.core.search.run(bob, { guildId: lab }, "item", { offset: 25 });
    expect(second.messages.map((m) => m.content)).toEqual(["item 4", "item 3", "item 2", "item 1", "item 0"]);
    expect(refusal(() => p.core.search.run(bob, { guildId: lab }, "item", { limit: 26 }))).toEqual([400, 50035]);
    expect(refusal(() => p.core.search.run(bob, { guildId: lab }, "item", { offset: 990 }))).toEqual([400, 50035]);
    expect(refusal(() => find(bob, "   "))).toEqual([400, 50035]);
  });
});

describe("the mentions inbox", () => {
  test("me, a role of mine, everyone (from those who may): newest first, never my own, only my servers", () => {
    const direct = say(bob, general, `<@${carol}> look`);
    const role = say(bob, random, `<@&${crew}> meeting`);
    const everyone = say(alice, general, "@everyone lunch");
    say(bob, general, "@everyone nobody hears this");
    say(carol, general, `<@${carol}> note to self`);
    say(bob, general, "nothing for anyone");
    expect(p.core.search.mentionsOf(carol).map((m) => m.id)).toEqual([everyone.id, role.id, direct.id]);
    expect(p.core.search.mentionsOf(carol, { limit: 1, before: everyone.id }).map((m) => m.id)).toEqual([role.id]);
    expect(p.core.search.mentionsOf(carol, { guildId: lab, limit: 50 })).toHaveLength(3);
    expect(refusal(() => p.core.search.mentionsOf(carol, { guildId: elsewhere }))).toEqual([404, 10003]);
    expect(refusal(() => p.core.search.mentionsOf(carol, { limit: 51 }))).toEqual([400, 50035]);
    // Once carol leaves, the server's mentions leave her inbox.
    p.core.people.leave(carol, lab);
    expect(p.core.search.mentionsOf(carol)).toEqual([]);
  });
});
