/**
 * A bot written with discordx's decorators as its starter template lays it out
 * (test/compat/bots/discordx_js: @Discord classes in commands/ and events/, a guard), run by
 * Bun straight from TypeScript with the legacy decorators of its folder's tsconfig.
 * `client.initApplicationCommands()` fetches the server's and the global commands, diffs them
 * with the decorated ones, and puts the set again only when something differs. People use the
 * bot through the harness; the tests check what they see.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BOTS } from "./support";
import { startFrameworkBot, type FrameworkBot } from "./frameworks";

let f: FrameworkBot;
const W = () => f.P.world;
const as = (who: string) => f.P.as(who);
const run = (who: string, name: string, options?: Parameters<ReturnType<typeof as>["slash"]>[2]) =>
  as(who).slash("Home/general", name, options, { until: "responded", timeoutMs: 15_000 });
/** What discordx printed about one scope's commands at its last start ("adding 0 []" ...). */
const changes = (printed: string[], scope: string) => {
  const at = printed.lastIndexOf(`Discordx >> commands >> ${scope}`);
  return printed.slice(at + 1, at + 5).map((l) => l.replace(/^>>\s+/, "").replace(/\s+/g, " "));
};

beforeAll(async () => {
  f = await startFrameworkBot("Discordx", [process.execPath, "src/main.ts"], join(BOTS, "discordx_js"), (l) => l.event === "ready");
}, 90_000);

afterAll(async () => {
  await f?.stop();
});

describe("discordx: initApplicationCommands", () => {
  test("creates the @Guild commands in the server and the others globally, as the decorators say", async () => {
    expect(changes(f.bot.printed, "Home")).toEqual([
      "adding 5 [poll, echo, vault, config, Profile]",
      "deleting 0 []",
      "skipping 0 []",
      "updating 0 []",
    ]);
    expect(changes(f.bot.printed, "global")).toEqual(["adding 1 [hello]", "deleting 0 []", "skipping 0 []", "updating 0 []"]);
    const global = await f.commands("global");
    expect(global.map((c) => [c.name, c.name_localizations, c.description_localizations])).toEqual([
      ["hello", { fr: "bonjour" }, { fr: "Dire bonjour" }],
    ]);
    const guild = await f.commands("guild");
    expect(guild.map((c) => [c.name, c.type]).sort()).toEqual([
      ["Profile", 2],
      ["config", 1],
      ["echo", 1],
      ["poll", 1],
      ["vault", 1],
    ]);
    const echo = guild.find((c) => c.name === "echo");
    expect(echo.options.map((o: any) => [o.name, o.type, o.required ?? false])).toEqual([
      ["word", 3, true],
      ["times", 4, false],
      ["ratio", 10, false],
      ["loud", 5, false],
      ["user", 6, false],
      ["channel", 7, false],
      ["role", 8, false],
      ["mood", 3, false],
    ]);
    const config = guild.find((c) => c.name === "config");
    expect(config.default_member_permissions).toBe("32");
    expect(config.options.map((o: any) => [o.name, o.type, (o.options ?? []).map((x: any) => x.name)])).toEqual([
      ["prefix", 2, ["reset", "set"]],
      ["show", 1, []],
    ]);
    expect(guild.find((c) => c.name === "vault").default_member_permissions).toBe("2048");
  });

  test("a restart finds nothing to add, update or delete, and puts nothing", async () => {
    const before = [...(await f.commands("global")), ...(await f.commands("guild"))];
    const bot = await f.restart();
    // Parley once showed dm_permission on a server's command and `options: []` on an
    // option-less sub-command; discordx took both for changes and put every server command again.
    expect(changes(bot.printed, "Home")).toEqual([
      "adding 0 []",
      "deleting 0 []",
      "skipping 5 [poll, echo, vault, config, Profile]",
      "updating 0 []",
    ]);
    expect(changes(bot.printed, "global")).toEqual(["adding 0 []", "deleting 0 []", "skipping 1 [hello]", "updating 0 []"]);
    const after = [...(await f.commands("global")), ...(await f.commands("guild"))];
    expect(after.map((c) => [c.id, c.version])).toEqual(before.map((c) => [c.id, c.version]));
    expect((await run("carol", "hello")).response?.content).toBe("Hello, carol!");
  }, 60_000);
});

describe("discordx: commands as people use them", () => {
  test("@Slash globally, and a @SimpleCommand with the prefix and its alias", async () => {
    expect((await run("dave", "hello")).response?.content).toBe("Hello, dave!");
    const asked = await as("carol").say("Home/general", "!ping");
    await f.botSays("general", (m) => m.content === "Pong, carol!" && m.message_reference?.message_id === asked.id);
    const alias = await as("dave").say("Home/general", "!p");
    await f.botSays("general", (m) => m.content === "Pong, dave!" && m.message_reference?.message_id === alias.id);
  }, 40_000);

  test("@SlashOption of every value type and a @SlashChoice", async () => {
    const r = await run("carol", "echo", {
      word: "hi",
      times: 2,
      ratio: 0.25,
      loud: true,
      user: W().users.dave.id,
      channel: f.P.channelId("Home/polls"),
      role: W().guilds.Home.roles.Crew,
      mood: "sad",
    });
    expect(r.response?.content).toBe("HI HI ratio=0.25 user=member dave channel=#polls role=@Crew mood=sad");
    expect((await run("dave", "echo", { word: "yo" })).response?.content).toBe("yo");
  }, 40_000);

  test("@SlashGroup: a subcommand, and a nested group's subcommands", async () => {
    const shown = await run("bob", "config", [{ name: "show", type: 1 }]);
    expect([shown.deferred, shown.ephemeral, shown.response?.content]).toEqual([true, true, "Prefix here: !"]);
    const set = await run("bob", "config", [
      { name: "prefix", type: 2, options: [{ name: "set", type: 1, options: [{ name: "value", value: "$" }] }] },
    ]);
    expect(set.response?.content).toBe("Prefix set to $");
    expect((await run("bob", "config", [{ name: "show", type: 1 }])).response?.content).toBe("Prefix here: $");
    const reset = await run("bob", "config", [{ name: "prefix", type: 2, options: [{ name: "reset", type: 1 }] }]);
    expect(reset.response?.content).toBe("Prefix reset to !");
  }, 40_000);

  test("@Guard: the server owner passes; another member is answered by the guard", async () => {
    const open = await run("alice", "vault");
    expect([open.ephemeral, open.response?.content]).toEqual([true, "The vault is open."]);
    const shut = await run("carol", "vault");
    expect([shut.ephemeral, shut.response?.content]).toEqual([true, "Only the server owner can use this command!"]);
  }, 30_000);

  test("@ButtonComponent (by a pattern) and @SelectMenuComponent", async () => {
    const message = (await run("carol", "poll", { question: "Tea?" })).response!;
    expect(message.content).toBe("Poll: Tea?");
    const voted = await as("dave").click("Home/general", message.id, "poll-no", { until: "responded", timeoutMs: 15_000 });
    expect(voted.callbackType).toBe(7);
    const updated = await f.botSays("general", (m) => m.id === message.id && m.content.includes("voted"));
    expect([updated.content, updated.components]).toEqual(["Poll: Tea?\ndave voted no", []]);
    const other = (await run("carol", "poll", { question: "Colour?" })).response!;
    const picked = await as("bob").select("Home/general", other.id, "poll-colour", ["red"], { until: "responded", timeoutMs: 15_000 });
    expect([picked.ephemeral, picked.response?.content]).toEqual([true, "You picked red"]);
  }, 40_000);

  test("@ContextMenu on a user", async () => {
    const r = await as("carol").contextMenu("Home/general", "Profile", { user: "dave" }, { until: "responded", timeoutMs: 15_000 });
    expect([r.ephemeral, r.response?.content]).toEqual([true, "dave is a member here."]);
  }, 30_000);
});

describe("discordx: @On listeners", () => {
  test("guildMemberAdd welcomes a newcomer; messageCreate reacts beside the simple commands", async () => {
    const code = await as("alice").invite("Home/general");
    await as("frank").join(code);
    await f.botSays("general", (m) => m.content === `Welcome to Home, <@${W().users.frank.id}>!`);
    const hello = await as("frank").say("Home/general", "good morning");
    const channel = f.P.channelId("Home/general");
    const reactions = await f.P.waitFor(
      async () => {
        const r = (await f.get(`/channels/${channel}/messages/${hello.id}`)).reactions ?? [];
        return r.length ? r : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(reactions.map((r: any) => [r.emoji.name, r.count, r.me])).toEqual([["👋", 1, true]]);
  }, 40_000);
});
