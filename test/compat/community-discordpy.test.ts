/**
 * A real discord.py 2.x bot beside people running their server (issue 29): what people
 * do through the people's API reaches the library as the reference's events
 * (GUILD_MEMBER_UPDATE for a nickname and roles, CHANNEL_UPDATE for a channel's settings,
 * GUILD_MEMBER_REMOVE for a kick and a ban), and the bot's own `guild.edit` changes the
 * server through PATCH /guilds/{id} (GUILD_UPDATE), with the reference's 50035 for a bad
 * name. People act through the SDK's `person.api()` (a harness session).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import type { Parley } from "../../src/app";
import { serverOf } from "../helpers";
import { PyBot, requireDiscordPy } from "./support";

const WAIT_MS = 15_000;
const WORLD = {
  users: [{ name: "olive" }, { name: "mem" }, { name: "carol" }, { name: "dan" }],
  guilds: [
    {
      name: "Lab",
      owner: "olive",
      members: ["mem", "carol", "dan"],
      roles: [
        { name: "Helper", permissions: [] },
        { name: "Bots", permissions: ["MANAGE_GUILD", "SEND_MESSAGES"], members: ["Keeper"] },
      ],
      channels: [{ name: "general" }, { name: "random" }],
    },
  ],
  applications: [
    {
      name: "Keeper",
      owner: "olive",
      intents: ["GUILDS", "GUILD_MEMBERS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
  ],
};

let P: RunningParley;
let p: Parley;
let bot: PyBot;

const id = (flake: string) => p.api.flakes.uuid(flake)!;
/** A people's API request as a seeded person: the SDK's person.api(), with a harness session. */
const as = (user: string, method: string, path: string, body?: unknown) => P.as(user).api(method, path, body);

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: WORLD });
  p = serverOf(P);
  bot = PyBot.start("py_community_bot.py", [P.baseUrl, P.gatewayUrl, P.tokenOf("Keeper")], WAIT_MS);
  await bot.event("ready");
}, 90_000);

afterAll(async () => {
  await bot?.stop();
  await P?.stop();
});

describe("what people do, as a discord.py bot sees it", () => {
  test("a nickname and a role given by the owner: on_member_update with both", async () => {
    const lab = id(P.world.guilds.Lab.id);
    const mem = P.world.users.mem.id;
    await as("olive", "PATCH", `/guilds/${lab}/members/${id(mem)}`, { nick: "Mimi", roles: [id(P.world.guilds.Lab.roles.Helper)] });
    const seen = await bot.event("member_update", (l) => l.user === mem && l.nick === "Mimi");
    expect(seen.roles).toEqual(["@everyone", "Helper"]);
  }, 30_000);

  test("a channel's name, topic, slow mode and NSFW set by the owner: on_guild_channel_update", async () => {
    const random = P.world.guilds.Lab.channels.random;
    await as("olive", "PATCH", `/channels/${id(random)}`, { name: "off-topic", topic: "Anything", rate_limit_per_user: 30, nsfw: true });
    const seen = await bot.event("channel_update", (l) => l.id === random);
    expect(seen).toMatchObject({ before: "random", name: "off-topic", topic: "Anything", slowmode: 30, nsfw: true });
  }, 30_000);

  test("a kick and a ban by the owner: on_member_remove for each", async () => {
    const lab = id(P.world.guilds.Lab.id);
    await as("olive", "DELETE", `/guilds/${lab}/members/${id(P.world.users.carol.id)}`);
    await bot.event("member_remove", (l) => l.user === P.world.users.carol.id);
    await as("olive", "PUT", `/guilds/${lab}/bans/${id(P.world.users.dan.id)}`, { reason: "spam" });
    await bot.event("member_remove", (l) => l.user === P.world.users.dan.id);
  }, 30_000);

  test("the bot edits the server with guild.edit: the answer and GUILD_UPDATE carry it; a one-letter name is 50035", async () => {
    await P.as("olive").say("general", "!edit");
    const edit = await bot.scenario("edit");
    expect(edit).toEqual({
      scenario: "edit",
      name: "Lab Renamed",
      description: "Edited by discord.py",
      notifications: 1,
    });
    // The library's cached server (with its channels) after GUILD_UPDATE.
    const seen = await bot.event("guild_update", (l) => l.name === "Lab Renamed");
    expect(seen).toMatchObject({ system_channel: P.world.guilds.Lab.channels.general, notifications: 1 });
    const [entry] = p.core.audit.list(id(P.world.guilds.Lab.id), { limit: 10, actionType: 1 });
    expect([entry!.actor_id, entry!.reason]).toEqual([id(P.world.applications.Keeper.bot_user_id), "tidy"]);
    await P.as("olive").say("general", "!badedit");
    expect(await bot.scenario("badedit")).toEqual({ scenario: "badedit", ok: false, status: 400, code: 50035 });
  }, 30_000);
});
