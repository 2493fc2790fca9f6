/**
 * The typical discord.py bot (test/compat/typical-py.ts) and the server's life: the task
 * loop, the cogs' listeners as people join, edit, delete, react and the server changes,
 * and the moderation commands (purge, lock, kick, ban), as the people around it see them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PyBot } from "./support";
import { startTypical, type Typical, said } from "./typical-py";

let T: Typical;

beforeAll(async () => {
  T = await startTypical();
}, 90_000);

afterAll(async () => {
  await T?.stop();
});

const id = (name: string) => T.P.world.users[name].id;
const guild = () => T.P.world.guilds.Typical.id;

describe("typical discord.py bot: moderation and the server's life", () => {
  test("the task loop posted its three ticks to #status", async () => {
    const ticks = await T.P.waitFor(
      async () => {
        const m = (await T.botMessages("status")).map((x) => x.content);
        return m.length >= 3 ? m : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(ticks.slice(0, 3)).toEqual(["tick 1", "tick 2", "tick 3"]);
  }, 60_000);

  test("listeners: a join is welcomed; edits, deletes and a new channel are logged", async () => {
    const code = await T.P.as("alice").invite("Typical/general");
    await T.P.as("dave").join(code);
    const welcome = await T.botSays("general", (m) => m.content.startsWith("Welcome"));
    expect(welcome.content).toBe(`Welcome <@${id("dave")}> to Typical! We are 5.`);
    const typo = await T.P.as("carol").say("Typical/quiet", "helo");
    await T.P.as("carol").edit(typo.id, "hello");
    expect((await T.botSays("log", (m) => m.content.includes("edited"))).content).toBe("carol edited: 'helo' -> 'hello'");
    await T.P.as("carol").delete(typo.id);
    expect((await T.botSays("log", (m) => m.content.includes("deleted"))).content).toBe("carol deleted: 'hello'");
    expect(await T.text("alice", "general", "!makechannel announcements Big news")).toMatch(/^Made <#\d+> with topic 'Big news'\.$/);
    expect((await T.botSays("log", (m) => m.content.startsWith("Channel created"))).content).toBe("Channel created: #announcements (text)");
  }, 60_000);

  test("listeners see the server change: roles, channels, a member's nick and roles, typing, reactions, an edit; files", async () => {
    const { reply } = await T.ask("alice", "general", "!hierarchy", said);
    expect(reply.content).toBe("My top role is Keeper; bob's is Mods.");
    // Spec 2.9: VIEW_CHANNEL reads 0, so discord.py's permissions_for takes every channel
    // permission from the bot in a channel, though its role grants them server-wide.
    expect(await T.bot.next((l) => l.event === "hierarchy", "hierarchy")).toEqual({
      event: "hierarchy",
      roles: [
        ["@everyone", 0],
        ["Member", 1],
        ["Helper", 2],
        ["Mods", 3],
        ["Keeper", 4],
      ],
      above_bob: true,
      manage_messages: [true, false],
      send_messages: [true, false],
      view_channel: [false, false],
    });
    await T.ask("alice", "general", "!churn", (m) => m.content === "churned");
    const ev = (name: string) => T.bot.next((l) => l.event === name, name);
    expect(await ev("role_create")).toMatchObject({ name: "Temp", position: 1 });
    // The new role sits at 1, so the others move up one: an update each, then the edit.
    expect(await T.bot.next((l) => l.event === "role_update" && l.name[1] === "Temp2", "the edit")).toMatchObject({
      colour: ["#000000", "#e74c3c"],
    });
    expect(await ev("role_delete")).toMatchObject({ name: "Temp2" });
    expect(await ev("channel_update")).toMatchObject({ name: ["temp", "temp2"], topic: [null, "t"] });
    expect(await ev("channel_delete")).toMatchObject({ name: "temp2" });
    const carols = (what: string) => T.bot.next((l) => l.event === "member_update" && l.name === "carol", what);
    expect(await carols("carol's nick")).toMatchObject({ nick: [null, "Cee"] });
    expect(await carols("carol's role")).toMatchObject({ nick: ["Cee", "Cee"], roles: [[], ["Helper"]] });
    await T.P.as("carol").type("Typical/quiet");
    expect(await ev("typing")).toMatchObject({ channel: "quiet", user: "carol" });
    const x = await T.P.as("bob").say("Typical/quiet", "react to me");
    await T.P.as("carol").react("Typical/quiet", x.id, "👍");
    await T.P.as("carol").unreact("Typical/quiet", x.id, "👍");
    expect(await ev("raw_reaction_remove")).toMatchObject({ emoji: "👍", user: id("carol") });
    expect(await ev("reaction_remove")).toMatchObject({ emoji: "👍", user: "carol", count: 0 });
    await T.P.as("bob").edit(x.id, "react to this");
    expect(await T.bot.next((l) => l.event === "raw_edit" && l.message === x.id, "raw edit")).toMatchObject({
      cached: true,
      content: "react to this",
    });
    // Files: avatars read from Parley's CDN paths; an upload is refused (JSON only); a person's attachment reads.
    const files = await T.P.as("alice").say("Typical/quiet", "!files", { files: [{ name: "note.txt", data: "from alice" }] });
    const answers = await T.P.waitFor(
      async () => {
        const got = (await T.botMessages("quiet", files)).map((m) => m.content);
        return got.length >= 3 ? got : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(answers).toEqual(["avatar bytes: 324 png=True", "upload: HTTP 400 50035", "yours: note.txt 10 b'from alice'"]);
  }, 60_000);

  test("purge removes the last messages and its note deletes itself; lock denies @everyone send_messages", async () => {
    for (const n of [1, 2, 3]) await T.P.as("carol").say("Typical/tidy", `spam ${n}`);
    // Spec 2.9: VIEW_CHANNEL reads as 0, and discord.py's permissions_for takes every channel
    // permission away from whoever cannot view the channel: bob's Mods role grants
    // MANAGE_MESSAGES, yet has_permissions sees it missing. Only the owner (or an administrator) passes.
    expect(await T.text("bob", "tidy", "!purge 2")).toBe("You need manage_messages for that.");
    const note = (await T.ask("alice", "tidy", "!purge 2", said)).reply;
    expect(note.content).toBe("Deleted 2 messages.");
    await T.P.waitFor(async () => ((await T.message("tidy", note.id)) ? undefined : true), { timeoutMs: 15_000 });
    // Spec 7 never dispatches MESSAGE_DELETE_BULK: each purged message comes as its own
    // MESSAGE_DELETE, so on_message_delete logs the people's two and on_bulk_message_delete never runs.
    const logged = await T.P.waitFor(
      async () => {
        const got = (await T.botMessages("log")).map((m) => m.content).filter((c) => c.includes("'!purge 2'"));
        return got.length >= 2 ? got : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(logged.sort()).toEqual(["alice deleted: '!purge 2'", "bob deleted: '!purge 2'"]);
    expect(T.bot.lines.filter((l) => l.event === "bulk_delete" || l.event === "raw_bulk_delete")).toEqual([]);
    // purge(limit=3): alice's command and the two messages before it (bob's try, the refusal).
    expect((await T.P.messages("Typical/tidy")).map((m) => m.content).reverse()).toEqual(["spam 1", "spam 2", "spam 3"]);
    expect(await T.text("alice", "general", `!lock <#${T.P.channelId("Typical/quiet")}>`)).toBe(
      `Locked <#${T.P.channelId("Typical/quiet")}> (send_messages=False).`,
    );
    const channel = (await T.botGet(`/channels/${T.P.channelId("Typical/quiet")}`)).body;
    expect(channel.permission_overwrites).toContainEqual(expect.objectContaining({ id: guild(), type: 0, deny: "2048" }));
    await expect(T.P.as("carol").say("Typical/quiet", "can I?")).rejects.toThrow();
  }, 60_000);

  test("kick, ban (listed in bans) and unban, by a moderator", async () => {
    expect(await T.text("carol", "general", `!kick <@${id("bob")}>`)).toBe("You need kick_members for that.");
    expect(await T.text("bob", "general", `!kick <@${id("dave")}> being new`)).toBe("Kicked dave (being new).");
    const members = (await T.botGet(`/guilds/${guild()}/members?limit=100`)).body.map((m: any) => m.user.id);
    expect(members).not.toContain(id("dave"));
    expect(await T.bot.next((l) => l.event === "member_remove", "member_remove")).toEqual({
      event: "member_remove",
      name: "dave",
      count: 4,
    });
    expect(await T.text("bob", "general", `!ban ${id("carol")} rude`)).toBe("Banned carol; 1 banned.");
    expect((await T.botGet(`/guilds/${guild()}/bans/${id("carol")}`)).body).toMatchObject({ user: { id: id("carol") }, reason: "rude" });
    expect(await T.text("bob", "general", `!unban ${id("carol")}`)).toBe(`Unbanned ${id("carol")}.`);
    expect((await T.botGet(`/guilds/${guild()}/bans/${id("carol")}`)).status).toBe(404);
    // Spec 7: GUILD_BAN_ADD and GUILD_BAN_REMOVE are never dispatched, so on_member_ban/unban never run; the ban's removal of carol shows.
    expect(await T.bot.next((l) => l.event === "member_remove", "member_remove")).toMatchObject({ name: "carol" });
    expect(T.bot.lines.filter((l) => l.event === "member_ban" || l.event === "member_unban")).toEqual([]);
  }, 60_000);

  test("history(limit=None) and fetch_members(limit=None) page through everything; fetch_guild(with_counts=True)", async () => {
    const sent = await T.P.as("alice").say("Typical/status", "!pages");
    await T.P.waitFor(async () => (await T.botMessages("status", sent)).find((m) => m.content === "paged"), { timeoutMs: 40_000 });
    const pages = await T.bot.next((l) => l.event === "pages", "pages");
    // The task loop's three ticks, the command and the 130 lines.
    expect(pages).toEqual({
      event: "pages",
      count: 134,
      newest: "line 129",
      oldest: ["tick 1", "tick 2", "tick 3"],
      after: ["line 0", "line 1"],
      members: ["TypicalBot", "alice", "bob"],
      approx: 3,
    });
  }, 60_000);

  test("Intents.all(), as many tutorials have it: presences are not granted, so the gateway closes 4014 and discord.py stops", async () => {
    const P = T.P;
    const args = [P.baseUrl, P.gatewayUrl, P.tokenOf("TypicalBot"), P.world.guilds.Typical.id, "--all-intents"];
    const greedy = PyBot.start("typical_py/bot.py", args, 30_000, ["examples_py", "typical_py"]);
    try {
      await greedy.logged("PrivilegedIntentsRequired");
      expect(await greedy.proc.exited).toBe(1);
    } finally {
      await greedy.stop();
    }
  }, 60_000);
});
