/**
 * One mention rule for both doors: a person (people's API, internal ids) and a bot (bot
 * API, snowflakes) writing the same text get the same `mentions`, `mention_roles` and
 * `mention_everyone`. A role counts only if it is mentionable or its author holds
 * ADMINISTRATOR (the reference's MENTION_EVERYONE is not one of the 13 bits); @everyone
 * only for ADMINISTRATOR; a webhook has no rights of its own. Read states count what the
 * rule decided.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world/document";
import { call, client, makeUnlimitedParley } from "../helpers";

const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave"],
      roles: [
        { name: "Pingable", mentionable: true, members: ["carol"] },
        { name: "Quiet", members: ["carol"] },
        { name: "Admins", permissions: ["ADMINISTRATOR"], members: ["dave", "AdminBot"] },
      ],
      channels: [{ name: "general" }],
    },
  ],
  applications: [
    {
      name: "PlainBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    {
      name: "AdminBot",
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

let p: Parley;
let w: SeedAnswer;
const uuid = (flake: string) => p.api.flakes.uuid(flake)!;

beforeEach(() => {
  p = makeUnlimitedParley();
  w = p.seed(structuredClone(WORLD));
});

/** The same text, with each door's own ids. */
function text(ids: (flake: string) => string) {
  const r = w.guilds.Lab.roles;
  return `hi <@${ids(w.users.carol.id)}> <@&${ids(r.Pingable)}> <@&${ids(r.Quiet)}> @everyone`;
}

/** What the core decided for a message, in internal ids. */
function decided(id: string) {
  const m = p.core.messages.get(id)!;
  return { mentions: JSON.parse(m.mentions), roles: JSON.parse(m.mention_roles), everyone: m.mention_everyone === 1 };
}

async function asPerson(name: string): Promise<string> {
  const res = await client(p, "POST", `/channels/${uuid(w.guilds.Lab.channels.general)}/messages`, w.users[name].token, {
    content: text(uuid),
  });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function asBot(name: string): Promise<{ id: string; body: any }> {
  const res = await call(p, "POST", `/channels/${w.guilds.Lab.channels.general}/messages`, {
    token: w.applications[name].token,
    body: { content: text((f) => f) },
  });
  expect(res.status).toBe(200);
  return { id: uuid(res.body.id), body: res.body };
}

describe("people and bots, one rule", () => {
  test("without ADMINISTRATOR: the person, the mentionable role; no @everyone", async () => {
    const expected = { mentions: [uuid(w.users.carol.id)], roles: [uuid(w.guilds.Lab.roles.Pingable)], everyone: false };
    expect(decided(await asPerson("bob"))).toEqual(expected);
    const bot = await asBot("PlainBot");
    expect(decided(bot.id)).toEqual(expected);
    // What the bot reads back is the same decision, in snowflakes.
    expect([bot.body.mentions.map((u: { id: string }) => u.id), bot.body.mention_roles, bot.body.mention_everyone]).toEqual([
      [w.users.carol.id],
      [w.guilds.Lab.roles.Pingable],
      false,
    ]);
  });

  test("with ADMINISTRATOR: every role named, and @everyone", async () => {
    const expected = {
      mentions: [uuid(w.users.carol.id)],
      roles: [uuid(w.guilds.Lab.roles.Pingable), uuid(w.guilds.Lab.roles.Quiet)],
      everyone: true,
    };
    expect(decided(await asPerson("dave"))).toEqual(expected);
    expect(decided((await asBot("AdminBot")).id)).toEqual(expected);
    // The owner holds every permission.
    expect(decided(await asPerson("alice"))).toEqual(expected);
  });

  test("an edit decides again, by the same rule", async () => {
    const id = await asPerson("bob");
    const res = await client(p, "PATCH", `/channels/${uuid(w.guilds.Lab.channels.general)}/messages/${id}`, w.users.bob.token, {
      content: `now <@&${uuid(w.guilds.Lab.roles.Quiet)}> only`,
    });
    expect(res.status).toBe(200);
    expect(decided(id).roles).toEqual([]);
  });

  test("a webhook's message mentions only mentionable roles, and never everyone", () => {
    const general = uuid(w.guilds.Lab.channels.general);
    const hook = p.core.webhooks.create(general, uuid(w.users.alice.id), { name: "Hook" });
    const m = p.core.webhooks.execute(hook.webhook, { content: text(uuid) });
    expect(decided(m.id)).toEqual({ mentions: [uuid(w.users.carol.id)], roles: [uuid(w.guilds.Lab.roles.Pingable)], everyone: false });
  });

  test("read states count what was decided: a quiet role pinged by someone who may not is no mention", async () => {
    const carol = uuid(w.users.carol.id);
    const general = p.core.guilds.channel(uuid(w.guilds.Lab.channels.general))!;
    const quiet = `<@&${uuid(w.guilds.Lab.roles.Quiet)}>`;
    p.core.messages.send(uuid(w.users.bob.id), general.id, { content: `${quiet} from bob` });
    expect(p.core.readStates.of(carol, general).mentionCount).toBe(0);
    p.core.messages.send(uuid(w.users.dave.id), general.id, { content: `${quiet} from dave` });
    expect(p.core.readStates.of(carol, general).mentionCount).toBe(1);
    expect(p.core.search.mentionsOf(carol).map((m) => m.content)).toEqual([`${quiet} from dave`]);
  });
});
