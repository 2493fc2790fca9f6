/**
 * A bot written with @sapphire/framework v5 and @sapphire/plugin-subcommands as Sapphire's
 * templates lay it out (test/compat/bots/sapphire_js: src/commands, src/listeners,
 * src/preconditions, src/interaction-handlers), started with `node .` from its folder. Its
 * commands go through the application command registry, which fetches what is stored,
 * compares it with what each command would register, and creates or edits. People use the
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
const NODE = Bun.which("node");

beforeAll(async () => {
  if (!NODE) throw new Error("node is missing: the Sapphire bot runs under node, as its template has it");
  f = await startFrameworkBot("Sapphire", [NODE, "."], join(BOTS, "sapphire_js"), (l) => l.event === "registered", true);
}, 90_000);

afterAll(async () => {
  await f?.stop();
});

describe("Sapphire: the application command registry", () => {
  test("each command is created once, in the scope and shape its registerApplicationCommands asked", async () => {
    const global = await f.commands("global");
    expect(global.map((c) => c.name)).toEqual(["ping"]);
    expect(global[0]).toMatchObject({
      name_localizations: { fr: "ping", de: "ping" },
      description_localizations: { fr: "Vérifie que le bot répond" },
      dm_permission: false,
      default_member_permissions: null,
      integration_types: [0],
      contexts: null,
    });
    const guild = await f.commands("guild");
    expect(guild.map((c) => [c.name, c.type]).sort()).toEqual([
      ["Profile", 2],
      ["echo", 1],
      ["poll", 1],
      ["settings", 1],
      ["vault", 1],
    ]);
    const echo = guild.find((c) => c.name === "echo");
    expect([echo.default_member_permissions, echo.contexts, echo.integration_types, echo.nsfw]).toEqual(["2048", [0], [0], false]);
    expect(echo.options.map((o: any) => [o.name, o.type])).toEqual([
      ["word", 3],
      ["times", 4],
      ["ratio", 10],
      ["loud", 5],
      ["user", 6],
      ["channel", 7],
      ["role", 8],
      ["who", 9],
      ["mood", 3],
    ]);
    expect(echo.options[0]).toMatchObject({ required: true, min_length: 2, max_length: 20, description_localizations: { fr: "Un mot" } });
    expect(echo.options[8].choices).toEqual([
      { name: "Happy", value: "happy", name_localizations: { fr: "Heureux" } },
      { name: "Sad", value: "sad" },
    ]);
    const settings = guild.find((c) => c.name === "settings");
    expect(settings.default_member_permissions).toBe("32");
    expect(settings.options).toEqual([
      { type: 1, name: "show", description: "Show the settings" },
      {
        type: 2,
        name: "prefix",
        description: "The message command prefix",
        options: [
          {
            type: 1,
            name: "set",
            description: "Set it",
            options: [{ type: 3, name: "value", description: "The prefix", required: true, max_length: 3 }],
          },
          { type: 1, name: "reset", description: "Back to !" },
        ],
      },
    ]);
  });
});

describe("Sapphire: message commands and the bot's channel permissions", () => {
  test("spec 2.9: VIEW_CHANNEL reads as 0, so the gate Sapphire puts before every message command passes only through Administrator", async () => {
    // Sapphire's CorePreMessageParser runs a message command only where discord.js computes
    // View Channel and Send Messages for the bot. Parley never shows View Channel (it is not
    // one of the 13 permissions it keeps), so this bot's role is an administrator.
    const roles: any[] = await f.get(`/guilds/${W().guilds.Home.id}/roles`);
    const everyone = roles.find((r) => r.name === "@everyone");
    expect(BigInt(everyone.permissions) & 1024n).toBe(0n);
    expect(BigInt(everyone.permissions) & 2048n).toBe(2048n);
    expect(BigInt(roles.find((r) => r.name === "Bots").permissions) & 8n).toBe(8n);
  });
});

describe("Sapphire: commands as people use them", () => {
  test("/ping (global) and !ping, !pong (a message command and its alias, with the prefix)", async () => {
    expect((await run("carol", "ping")).response?.content).toMatch(/^Pong! \(locale [a-zA-Z-]+\)$/);
    const asked = await as("carol").say("Home/general", "!ping");
    await f.botSays("general", (m) => m.content === "Pong from carol! (new message)", asked);
    const again = await as("dave").say("Home/general", "!PONG");
    await f.botSays("general", (m) => m.content === "Pong from dave! (new message)", again);
  }, 40_000);

  test("/echo: an option of every value type, read through the getters", async () => {
    const Home = W().guilds.Home;
    const r = await run("carol", "echo", {
      word: "hi",
      times: 3,
      ratio: 0.5,
      loud: true,
      user: W().users.dave.id,
      channel: f.P.channelId("Home/polls"),
      role: Home.roles.Crew,
      who: Home.roles.Stewards,
      mood: "happy",
    });
    expect(r.response?.content).toBe("HI HI HI ratio=0.5 user=dave channel=#polls role=@Crew who=@Stewards mood=happy");
    const plain = await run("dave", "echo", { word: "yo", who: W().users.carol.id });
    expect(plain.response?.content).toBe("yo who=carol");
  }, 40_000);

  test("subcommands and a group (@sapphire/plugin-subcommands), the UserPermissions precondition", async () => {
    const shown = await run("bob", "settings", [{ name: "show", type: 1 }]);
    expect([shown.deferred, shown.ephemeral, shown.response?.content]).toEqual([true, true, "Prefix here: !"]);
    const set = await run("bob", "settings", [
      { name: "prefix", type: 2, options: [{ name: "set", type: 1, options: [{ name: "value", value: "?" }] }] },
    ]);
    expect(set.response?.content).toBe("Prefix set to ?");
    const asked = await as("bob").say("Home/general", "!settings");
    await f.botSays("general", (m) => m.content === "Prefix here: ?", asked);
    const reset = await run("bob", "settings", [{ name: "prefix", type: 2, options: [{ name: "reset", type: 1 }] }]);
    expect(reset.response?.content).toBe("Prefix reset to !");
    // default_member_permissions (Manage Server) keeps carol from using the slash command at all,
    // as the reference's client does, before Sapphire's precondition is reached.
    const hidden = await as("carol")
      .slash("Home/general", "settings", [{ name: "show", type: 1 }], { timeoutMs: 15_000 })
      .then(
        () => "delivered",
        (e: Error) => e.message,
      );
    expect(hidden).toContain('403 {"code":50001');
    // carol lacks Manage Server: the message command is refused by the precondition.
    const refused = await as("carol").say("Home/general", "!settings show");
    const answer = await f.botSays("general", (m) => m.message_reference?.message_id === refused.id);
    expect(answer.content).toBe("You are missing the following permissions to run this command: Manage Server");
  }, 40_000);

  test("a custom precondition (OwnerOnly): the owner passes, another member is told why not", async () => {
    const open = await run("alice", "vault");
    expect([open.ephemeral, open.response?.content]).toEqual([true, "The vault is open."]);
    const shut = await run("dave", "vault");
    expect([shut.ephemeral, shut.response?.content]).toEqual([true, "Only the server owner can use this command!"]);
    const asked = await as("dave").say("Home/general", "!vault");
    const answer = await f.botSays("general", (m) => m.message_reference?.message_id === asked.id);
    expect(answer.content).toBe("Only the server owner can use this command!");
  }, 40_000);

  test("interaction handlers: a button updates the poll, a select menu answers privately", async () => {
    const poll = await run("carol", "poll", { question: "Tea?" });
    const message = poll.response!;
    expect(message.content).toBe("Poll: Tea?");
    const voted = await as("dave").click("Home/general", message.id, "poll:yes", { until: "responded", timeoutMs: 15_000 });
    expect(voted.callbackType).toBe(7);
    const updated = await f.botSays("general", (m) => m.id === message.id && m.content.includes("voted"));
    expect([updated.content, updated.components]).toEqual(["Poll: Tea?\ndave voted yes", []]);

    const other = (await run("carol", "poll", { question: "Colour?" })).response!;
    const picked = await as("bob").select("Home/general", other.id, "poll-colour", ["blue"], { until: "responded", timeoutMs: 15_000 });
    expect([picked.ephemeral, picked.response?.content]).toEqual([true, "You picked blue"]);
  }, 40_000);

  test("a user context-menu command registered through the same registry", async () => {
    const r = await as("carol").contextMenu("Home/general", "Profile", { user: "bob" }, { until: "responded", timeoutMs: 15_000 });
    expect([r.ephemeral, r.response?.content]).toEqual([true, "bob is a member here."]);
  }, 30_000);
});

describe("Sapphire: listeners", () => {
  test("guildMemberAdd welcomes a newcomer; a messageCreate listener reacts beside the command listeners", async () => {
    const code = await as("alice").invite("Home/general");
    await as("frank").join(code);
    await f.botSays("general", (m) => m.content === `Welcome to Home, <@${W().users.frank.id}>!`);
    const hello = await as("frank").say("Home/general", "Good morning");
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

describe("Sapphire: a restart", () => {
  test("finds every command where it left it: nothing created again, nothing duplicated", async () => {
    const before = [...(await f.commands("global")), ...(await f.commands("guild"))];
    const bot = await f.restart();
    const after = [...(await f.commands("global")), ...(await f.commands("guild"))];
    expect(after.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    expect(bot.printed.filter((l) => l.includes("Successfully created"))).toEqual([]);
    // echo says its contexts and integration types, so nothing differs and nothing is edited.
    // The others say none, and Sapphire counts the default [0] the reference (and Parley)
    // returns as a difference to overwrite: an edit of the same command, never a new one.
    expect(bot.printed).toContain(
      `[DEBUG] ApplicationCommandRegistry[echo] Guild command "echo" is identical to command "echo" (${before.find((c) => c.name === "echo").id})`,
    );
    const differences = bot.printed.filter((l) => l.includes("At path:")).map((l) => l.trim());
    expect(new Set(differences)).toEqual(new Set(["└── At path: integrationTypes"]));
    const echo = (await f.commands("guild")).find((c) => c.name === "echo");
    expect(echo.version).toBe(before.find((c) => c.name === "echo").version);
    // The restarted bot answers its commands.
    expect((await run("carol", "ping")).response?.content).toMatch(/^Pong!/);
  }, 60_000);
});
