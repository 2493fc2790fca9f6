/**
 * What real discord.py bots broke on (issue "Fidelity"), run as such a bot: its prefix is
 * its own mention and it lacks MESSAGE_CONTENT (a message that mentions it carries its
 * text, as on the reference); its user and message context-menu commands get their
 * target and `resolved` (discord.py refused the payload without them).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import { PyBot, requireDiscordPy } from "./support";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob"],
      channels: [{ name: "general" }],
      roles: [
        { name: "BotRole", permissions: ["SEND_MESSAGES", "MANAGE_MESSAGES", "KICK_MEMBERS", "MANAGE_CHANNELS"], members: ["PrefixBot"] },
      ],
    },
  ],
  // No MESSAGE_CONTENT: the mention prefix must work without it. OtherBot only posts.
  applications: [
    { name: "PrefixBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
    { name: "OtherBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

let parley: RunningParley;
let bot: PyBot;

beforeAll(async () => {
  requireDiscordPy();
  parley = await startParley({ world: WORLD });
  bot = PyBot.start("py_fidelity_bot.py", [parley.baseUrl, parley.gatewayUrl, parley.tokenOf("PrefixBot"), parley.world.guilds.Lab.id]);
  const ready = await bot.event("ready");
  expect(ready.synced).toEqual(["Profile", "Quote"]);
}, 90_000);

afterAll(async () => {
  await bot?.stop();
  await parley?.stop();
});

describe("discord.py", () => {
  test("a prefix that is the bot's own mention works without MESSAGE_CONTENT", async () => {
    const botId = parley.world.applications.PrefixBot.bot_user_id;
    const { id } = await parley.as("bob").say("general", `<@${botId}> ping`);
    const seen = await bot.scenario("mention-prefix");
    expect(seen.content).toBe(`<@${botId}> ping`);
    const reply = await parley.waitForMessage("general", (m) => m.content === "pong");
    expect(reply.message_reference?.message_id).toBe(id);
    // The reply mentions bob (discord.py sends replied_user true) and says so in `mentions`.
    expect(reply.mentions).toEqual([expect.objectContaining({ id: parley.world.users.bob.id })]);
  });

  test("a user context-menu command gets its target member", async () => {
    const r = await parley
      .as("alice")
      .interact({ channel_id: "general", application_id: "PrefixBot", name: "Profile", type: 2, target_id: "bob" });
    expect(r.delivered).toBe(true);
    const seen = await bot.scenario("user-command");
    expect(seen).toMatchObject({ target: parley.world.users.bob.id, name: "bob" });
    const state = await parley.harness("GET", `/interactions/${r.id}`);
    expect(state.response).toMatchObject({ content: `profile of bob (${parley.world.users.bob.id})`, flags: 64 });
  });

  test("guild.me.edit(nick=...) sets the bot's nickname (PATCH .../members/@me/nick), and nick=None clears it", async () => {
    const botId = parley.world.applications.PrefixBot.bot_user_id;
    const guildId = parley.world.guilds.Lab.id;
    const { cursor } = await parley.transcript("PrefixBot");
    await parley.as("bob").say("general", `<@${botId}> nick Robo`);
    expect(await bot.scenario("nick")).toEqual({ scenario: "nick", error: null, nick: "Robo", display: "Robo" });
    const member = await fetch(`${parley.restBase}/guilds/${guildId}/members/${botId}`, {
      headers: { Authorization: `Bot ${parley.tokenOf("PrefixBot")}` },
    });
    expect(((await member.json()) as any).nick).toBe("Robo");
    // discord.py asks the reference's deprecated alias, which answers {nick}.
    const asked = (await parley.transcript("PrefixBot", { after: cursor })).entries.filter(
      (e: any) => e.kind === "rest" && e.method === "PATCH",
    );
    expect(asked).toEqual([
      expect.objectContaining({
        route: "/guilds/{guild_id}/members/@me/nick",
        status: 200,
        request: { nick: "Robo" },
        response: { nick: "Robo" },
      }),
    ]);

    await parley.as("bob").say("general", `<@${botId}> nick`);
    expect(await bot.scenario("nick")).toEqual({ scenario: "nick", error: null, nick: null, display: "PrefixBot" });
  });

  test("a message context-menu command gets its target message, with its text", async () => {
    const { id } = await parley.as("bob").say("general", "worth quoting");
    const r = await parley
      .as("alice")
      .interact({ channel_id: "general", application_id: "PrefixBot", name: "Quote", type: 3, target_id: id });
    const seen = await bot.scenario("message-command");
    expect(seen).toMatchObject({ target: id, content: "worth quoting", author: parley.world.users.bob.id });
    const state = await parley.harness("GET", `/interactions/${r.id}`);
    expect(state.response.content).toBe("> worth quoting");
  });
});

describe("discord.py meets the spec's limits", () => {
  test("permissions carry 13 bits: without VIEW_CHANNEL permissions_for() clears every channel permission, so bot_has_permissions fails", async () => {
    const botId = parley.world.applications.PrefixBot.bot_user_id;
    await parley.as("bob").say("general", `<@${botId}> perms`);
    const seen = await bot.scenario("perms");
    // @everyone's and the role's bits, server-wide; in a channel discord.py takes the
    // missing VIEW_CHANNEL for "cannot see it" and keeps only the server-wide ones.
    expect(seen.guild).toEqual([
      "attach_files",
      "create_instant_invite",
      "kick_members",
      "manage_channels",
      "manage_messages",
      "send_messages",
    ]);
    expect(seen.channel).toEqual(["kick_members"]);
    await parley.as("bob").say("general", `<@${botId}> card`);
    expect(await bot.event("command-error")).toEqual({
      event: "command-error",
      type: "BotMissingPermissions",
      text: "Bot requires Embed Links permission(s) to run this command.",
    });
  });

  test("messages say bot: false, so commands.Bot runs another bot's commands; its own it knows as a bot from its cache", async () => {
    const botId = parley.world.applications.PrefixBot.bot_user_id;
    // Its own reply carries a command (its prefix is its mention): discord.py skips it.
    await parley.as("bob").say("general", `<@${botId}> say <@${botId}> say done`);
    expect(await bot.scenario("say")).toMatchObject({ author: parley.world.users.bob.id, author_bot: false });
    // Another bot's message reads bot: false, and commands.Bot skips only authors with bot set.
    const other = parley.world.applications.OtherBot.bot_user_id;
    const posted = await fetch(`${parley.restBase}/channels/${parley.channelId("general")}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${parley.tokenOf("OtherBot")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: `<@${botId}> say hello, bot` }),
    });
    expect(posted.status).toBe(200);
    expect(await bot.scenario("say")).toMatchObject({ author: other, author_bot: false });
    expect(bot.lines.filter((l) => l.scenario === "say").map((l) => l.author)).toEqual([parley.world.users.bob.id, other]);
  });

  test("PATCH /channels/{id} is 2 per 10 minutes: the edit that spends it would sleep ~600 s; with max_ratelimit_timeout the next raises RateLimited", async () => {
    const botId = parley.world.applications.PrefixBot.bot_user_id;
    await parley.as("bob").say("general", `<@${botId}> topics`);
    const seen = await bot.scenario("topics");
    // Without max_ratelimit_timeout the second edit would not return before the window
    // ends (http.py sleeps reset_after after the request that left 0): the bot's option
    // lets it return at once, and the third meets the server's 429.
    expect(seen.edits.slice(0, 2)).toEqual(["edited", "edited"]);
    expect(seen.edits[2]).toEqual({ type: "RateLimited", retry_after: expect.any(Number) });
    expect(seen.edits[2].retry_after).toBeGreaterThan(590);
    expect(seen.edits[2].retry_after).toBeLessThanOrEqual(600);
    const r = await fetch(`${parley.restBase}/channels/${parley.channelId("general")}`, {
      headers: { Authorization: `Bot ${parley.tokenOf("PrefixBot")}` },
    });
    expect(((await r.json()) as any).topic).toBe("topic 1");
  });
});
