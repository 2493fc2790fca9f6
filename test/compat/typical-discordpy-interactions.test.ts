/**
 * The typical discord.py bot (test/compat/typical-py.ts) on interactions and the server's
 * life: hybrid and app commands, the tree's error handler, deferred answers, a context menu,
 * views (an author-only confirmation that disables itself on timeout, a select, the
 * persistent role panel across a restart), the moderation commands, the cogs' listeners
 * and the task loop, as the people around the bot see them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { parts, startTypical, type Typical } from "./typical-py";

let T: Typical;

beforeAll(async () => {
  T = await startTypical();
}, 90_000);

afterAll(async () => {
  await T?.stop();
});

const id = (name: string) => T.P.world.users[name].id;
const guild = () => T.P.world.guilds.Typical.id;
const said = (m: HarnessMessage) => m.type === 0 || m.type === 19;
const text = async (who: string, channel: string, line: string) => (await T.ask(who, channel, line, said)).reply.content;
const message = async (channel: string, mid: string) =>
  (await T.P.messages(`Typical/${channel}`, { limit: 100 })).find((m) => m.id === mid);
const slash = (who: string, name: string, options?: Parameters<ReturnType<typeof T.P.as>["slash"]>[2]) =>
  T.P.as(who).slash("Typical/general", name, options, { app: "TypicalBot", until: "responded" });
/** Waits until the bot listens to a view on `mid` (parley_target.py's view line), as a person waits to see the buttons. */
const listening = (mid: string) => T.bot.saw((l) => l.event === "view" && l.message === mid, "a view stored");

describe("typical discord.py bot: application commands", () => {
  test("hybrid commands answer the same as prefix and as slash; a hybrid group's fallback and subcommand", async () => {
    expect(await text("carol", "general", "!echo hi there")).toBe("carol: hi there (prefix)");
    expect((await slash("carol", "echo", { text: "hi there" })).response?.content).toBe("carol: hi there (slash)");
    expect(await text("carol", "general", "!tag hello")).toBe("Hi there!");
    expect(await text("carol", "general", "!tag set rules Be kind")).toBe("Tag rules saved.");
    const get = await slash("carol", "tag", [{ name: "get", type: 1, options: [{ name: "name", type: 3, value: "rules" }] }]);
    expect(get.response?.content).toBe("Be kind");
    const set = await slash("carol", "tag", [
      {
        name: "set",
        type: 1,
        options: [
          { name: "name", type: 3, value: "faq" },
          { name: "content", type: 3, value: "Read it" },
        ],
      },
    ]);
    expect(set.response?.content).toBe("Tag faq saved.");
    expect(await text("carol", "general", "!tag faq")).toBe("Read it");
  }, 60_000);

  test("app commands: Range, choices and a Transformer; describe and the bounds registered", async () => {
    expect((await slash("carol", "roll", { sides: 6 })).response?.content).toBe("You rolled a d6: 4");
    await expect(T.P.as("carol").slash("Typical/general", "roll", { sides: 101 }, { app: "TypicalBot" })).rejects.toThrow(
      "Must be less than or equal to 100",
    );
    const picked = await slash("carol", "pick", { colour: "b" });
    expect([picked.ephemeral, picked.response?.content]).toEqual([true, "You picked Blue (b)"]);
    expect((await slash("carol", "double", { number: "21" })).response?.content).toBe("Doubled: 42");
    const app = T.P.world.applications.TypicalBot.id;
    const commands = (await T.botGet(`/applications/${app}/guilds/${guild()}/commands`)).body;
    const byName = (n: string) => commands.find((c: any) => c.name === n);
    expect(byName("roll").options[0]).toMatchObject({ name: "sides", description: "How many sides", min_value: 2, max_value: 100 });
    expect(byName("pick").options[0].choices).toEqual([
      { name: "Red", value: "r" },
      { name: "Blue", value: "b" },
    ]);
    expect(byName("wipe").default_member_permissions).toBe("32");
    expect(byName("Shout").type).toBe(3);
    expect(byName("settings").options.map((o: any) => [o.name, o.type])).toEqual([
      ["show", 1],
      ["set", 1],
    ]);
  }, 60_000);

  test("default_permissions hides /wipe from carol; checks.has_permissions and the tree's on_error refuse her /settings set", async () => {
    // default_member_permissions: the person's client does not offer her the command (the harness refuses as it would).
    await expect(T.P.as("carol").slash("Typical/general", "wipe", undefined, { app: "TypicalBot" })).rejects.toThrow(
      "You lack the permissions this command requires",
    );
    expect((await slash("alice", "wipe")).response?.content).toBe("Wiped.");
    const groupRefused = await slash("carol", "settings", [
      {
        name: "set",
        type: 1,
        options: [
          { name: "key", type: 3, value: "greeting" },
          { name: "value", type: 3, value: "Yo" },
        ],
      },
    ]);
    expect([groupRefused.ephemeral, groupRefused.response?.content]).toEqual([true, "You need manage_guild to use this."]);
    const set = await slash("alice", "settings", [
      {
        name: "set",
        type: 1,
        options: [
          { name: "key", type: 3, value: "greeting" },
          { name: "value", type: 3, value: "Yo" },
        ],
      },
    ]);
    expect(set.response?.content).toBe("greeting is now Yo");
    const show = await slash("carol", "settings", [{ name: "show", type: 1, options: [{ name: "key", type: 3, value: "greeting" }] }]);
    expect([show.ephemeral, show.response?.content]).toEqual([true, "greeting = Yo"]);
  }, 60_000);

  test("defer(thinking=True), followup.send, edit_original_response and original_response", async () => {
    const r = await slash("carol", "think");
    expect(r.deferred).toBe(true);
    // The first post after a deferral is the response itself (the spec's interaction routes, note 3): it replaces
    // the thinking message, so followup.send's message, the original response and the
    // message edit_original_response changed are one message.
    const line = await T.bot.saw((l) => l.event === "think", "think");
    const done = await T.P.interaction(r.id);
    expect(done.response?.content).toBe("Thought of 43.");
    expect(done.followups).toEqual([]);
    expect(line).toEqual({ event: "think", followup: done.response!.id, original: done.response!.id, content: "Thought of 43." });
  }, 60_000);

  test("Member and Role options: the resolved member's roles and permissions, interaction.permissions and app_permissions", async () => {
    expect((await slash("alice", "userinfo", { member: id("bob") })).response?.content).toBe(
      "bob: roles=['Mods'] kick=True joined=True you_can_ban=True i_can_manage_roles=True",
    );
    expect((await slash("carol", "userinfo", { member: id("alice") })).response?.content).toBe(
      "alice: roles=[] kick=True joined=True you_can_ban=False i_can_manage_roles=True",
    );
    expect((await slash("carol", "roleinfo", { role: T.P.world.guilds.Typical.roles.Mods })).response?.content).toBe(
      "Mods: #000000 members=['bob'] kick=True",
    );
  }, 60_000);

  test("a view sent as the interaction's response: clicks edit it, and on_timeout closes it through edit_original_response", async () => {
    const r = await slash("carol", "vote", { seconds: 2 });
    const panel = r.response!;
    // An application command's response view is stored under the interaction's id: discord.py
    // finds it again by the message's interaction (metadata) id when someone clicks.
    await listening(r.id);
    const [button] = parts(panel);
    const click = await T.P.as("bob").click("Typical/general", panel.id, button.custom_id, { app: "TypicalBot" });
    expect(click.callbackType).toBe(7);
    expect(parts((await message("general", panel.id))!)[0].label).toBe("Vote (1)");
    expect(await T.bot.next((l) => l.event === "vote_closed", "the vote's timeout")).toEqual({ event: "vote_closed", votes: 1 });
    const closed = (await T.P.interaction(r.id)).response!;
    expect(closed.content).toBe("Voting closed with 1 votes.");
    expect(parts(closed)[0]).toMatchObject({ label: "Vote (1)", disabled: true });
  }, 60_000);

  test("defer(ephemeral=True): the first follow-up is ephemeral; a later one asking for it is public (spec: flags 64 only on the response)", async () => {
    const r = await slash("carol", "whisper");
    expect([r.ephemeral, r.response?.content]).toEqual([true, "Only you see this."]);
    expect(await T.bot.next((l) => l.event === "whisper", "whisper")).toEqual({ event: "whisper", first: true, later: false });
    const later = await T.P.waitFor(async () => (await T.P.interaction(r.id)).followups.find((m) => m.content === "And this?"));
    expect(later.flags & 64).toBe(0);
    expect((await T.botSays("general", (m) => m.content === "carol whispered.")).content).toBe("carol whispered.");
  }, 60_000);

  test("a hybrid command's ctx.defer() as slash and as prefix; app_commands.checks.cooldown through on_error; emoji, defaults, view=None", async () => {
    const slow = await slash("carol", "slowpoke", { member: id("bob") });
    expect([slow.deferred, slow.response?.content]).toEqual([true, "bob waited (slash)"]);
    expect((await slash("carol", "slowpoke")).response?.content).toBe("carol waited (slash)");
    expect(await text("carol", "general", "!slowpoke bob")).toBe("bob waited (prefix)");
    expect((await slash("carol", "daily")).response?.content).toBe("Here is your daily.");
    const again = await slash("carol", "daily");
    expect([again.ephemeral, again.response?.content]).toEqual([true, "Cooldown: 60s left."]);
    expect((await slash("carol", "fancy")).response?.content).toBe("Fancy");
    // What discord.py read back from original_response(), then the components cleared by edit(view=None).
    expect(await T.bot.next((l) => l.event === "fancy", "fancy")).toEqual({
      event: "fancy",
      components: [
        [{ type: 2, style: 2, disabled: false, label: "Party", custom_id: "fancy:party", emoji: { id: null, name: "🎉" } }],
        [
          {
            type: 3,
            custom_id: "fancy:pick",
            min_values: 1,
            max_values: 1,
            disabled: false,
            options: [
              { label: "A", value: "a", default: true, emoji: { id: null, name: "🅰️" } },
              { label: "B", value: "b", default: false },
            ],
          },
        ],
      ],
    });
    expect(await T.bot.next((l) => l.event === "fancy_cleared", "fancy cleared")).toEqual({ event: "fancy_cleared", components: 0 });
  }, 60_000);

  test("a message context menu answers ephemerally with the message's content", async () => {
    const target = await T.P.as("bob").say("Typical/general", "quiet please");
    const r = await T.P.as("carol").contextMenu(
      "Typical/general",
      "Shout",
      { message: target.id },
      { app: "TypicalBot", until: "responded" },
    );
    expect([r.ephemeral, r.response?.content]).toEqual([true, "QUIET PLEASE"]);
  }, 60_000);
});

describe("typical discord.py bot: views", () => {
  test("a confirmation: interaction_check turns others away, and Yes edits the message and disables the buttons", async () => {
    const { reply: panel } = await T.ask("carol", "views", "!confirm", (m) => m.components.length > 0);
    await listening(panel.id);
    expect(parts(panel).map((b) => [b.label, b.style])).toEqual([
      ["Yes", 3],
      ["No", 4],
    ]);
    const [yes] = parts(panel);
    const other = await T.P.as("bob").click("Typical/views", panel.id, yes.custom_id, { app: "TypicalBot" });
    expect([other.ephemeral, other.response?.content]).toEqual([true, "This is not your button."]);
    const mine = await T.P.as("carol").click("Typical/views", panel.id, yes.custom_id, { app: "TypicalBot" });
    expect(mine.callbackType).toBe(7);
    const after = (await message("views", panel.id))!;
    expect(after.content).toBe("Confirmed by carol.");
    expect(parts(after).every((b) => b.disabled)).toBe(true);
    expect(await T.bot.next((l) => l.event === "confirm_done", "view.wait() ended")).toMatchObject({ timed_out: false });
  }, 60_000);

  test("on_timeout edits the message and disables every button", async () => {
    const { reply: panel } = await T.ask("carol", "views", "!confirm 1", (m) => m.components.length > 0);
    await T.bot.saw((l) => l.event === "timed_out" && l.message === panel.id, "the view's timeout");
    const after = (await message("views", panel.id))!;
    expect(after.content).toBe("Timed out.");
    expect(parts(after).map((b) => [b.label, b.disabled])).toEqual([
      ["Yes", true],
      ["No", true],
    ]);
    expect(await T.bot.next((l) => l.event === "confirm_done", "view.wait() ended")).toMatchObject({ timed_out: true });
  }, 60_000);

  test("a select with two values answers with both", async () => {
    const { reply: panel } = await T.ask("carol", "views", "!flavours", (m) => m.components.length > 0);
    await listening(panel.id);
    const [select] = parts(panel);
    expect(select).toMatchObject({ type: 3, placeholder: "Pick flavours", min_values: 1, max_values: 2 });
    expect(select.options.map((o: any) => [o.label, o.value, o.description])).toEqual([
      ["Vanilla", "vanilla", "Vanilla ice cream"],
      ["Chocolate", "chocolate", "Chocolate ice cream"],
      ["Mint", "mint", "Mint ice cream"],
    ]);
    const r = await T.P.as("bob").select("Typical/views", panel.id, select.custom_id, ["vanilla", "mint"], { app: "TypicalBot" });
    expect(r.response?.content).toBe("bob likes vanilla and mint.");
  }, 60_000);

  test("a RoleSelect is stored greyed out and a modal is refused 501 (spec 4 component rules, 3.1)", async () => {
    const { reply: panel } = await T.ask("carol", "views", "!more", (m) => m.components.length > 0);
    await listening(panel.id);
    // Types 5 to 8 keep {type, custom_id, disabled} only; discord.py 2.2.2 parses no select but type 3, so its row reads empty.
    expect(panel.components[0]).toEqual({ type: 1, components: [{ type: 6, custom_id: expect.any(String), disabled: false }] });
    expect(await T.bot.next((l) => l.event === "more", "more")).toEqual({ event: "more", components: [[], ["Button"]] });
    const feedback = parts(panel).find((b) => b.label === "Feedback");
    const { id: clicked } = await T.P.as("carol").interact({
      channel_id: "Typical/views",
      message_id: panel.id,
      custom_id: feedback.custom_id,
    });
    // send_modal's callback (type 9) answers 501; discord.py retries a 5xx (1 s, 3 s, ... apart): two tries show it.
    const callbacks = await T.P.waitFor(
      async () => {
        const got = (await T.P.transcript("TypicalBot")).entries.filter(
          (e) => e.kind === "rest" && e.route.endsWith("/callback") && e.status === 501,
        );
        return got.length >= 2 ? got : undefined;
      },
      { timeoutMs: 10_000 },
    );
    for (const c of callbacks) expect(c).toMatchObject({ request: { type: 9 }, response: { code: 50035 } });
    expect((await T.P.interaction(clicked)).state).toBe("pending");
  }, 60_000);

  test("the persistent role panel adds and removes Member, also after the bot restarts", async () => {
    const { reply: panel } = await T.ask("alice", "views", "!rolepanel", (m) => m.components.length > 0);
    expect(parts(panel).map((b) => b.custom_id)).toEqual(["typical:role:member"]);
    const roles = async () => (await T.botGet(`/guilds/${guild()}/members/${id("bob")}`)).body.roles as string[];
    const member = T.P.world.guilds.Typical.roles.Member;
    const add = await T.P.as("bob").click("Typical/views", panel.id, "typical:role:member", { app: "TypicalBot" });
    expect([add.ephemeral, add.response?.content]).toEqual([true, "Added Member."]);
    expect(await roles()).toContain(member);
    // A new process knows nothing of the message: add_view() in setup_hook is what answers.
    await T.bot.stop();
    await T.restart();
    const removed = await T.P.as("bob").click("Typical/views", panel.id, "typical:role:member", { app: "TypicalBot" });
    expect([removed.ephemeral, removed.response?.content]).toEqual([true, "Removed Member."]);
    expect(await roles()).not.toContain(member);
  }, 90_000);
});

describe("typical discord.py bot: moderation and the server's life", () => {
  test("the task loop posted its three ticks to #status", async () => {
    const ticks = await T.P.waitFor(async () => {
      const m = (await T.botMessages("status")).map((x) => x.content);
      return m.length >= 3 ? m : undefined;
    });
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
    expect(await text("alice", "general", "!makechannel announcements Big news")).toMatch(/^Made <#\d+> with topic 'Big news'\.$/);
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
    const answers = await T.P.waitFor(async () => {
      const got = (await T.botMessages("quiet", files)).map((m) => m.content);
      return got.length >= 3 ? got : undefined;
    });
    expect(answers).toEqual(["avatar bytes: 324 png=True", "upload: HTTP 400 50035", "yours: note.txt 10 b'from alice'"]);
  }, 60_000);

  test("purge removes the last messages and its note deletes itself; lock denies @everyone send_messages", async () => {
    for (const n of [1, 2, 3]) await T.P.as("carol").say("Typical/tidy", `spam ${n}`);
    // Spec 2.9: VIEW_CHANNEL reads as 0, and discord.py's permissions_for takes every channel
    // permission away from whoever cannot view the channel: bob's Mods role grants
    // MANAGE_MESSAGES, yet has_permissions sees it missing. Only the owner (or an administrator) passes.
    expect(await text("bob", "tidy", "!purge 2")).toBe("You need manage_messages for that.");
    const note = (await T.ask("alice", "tidy", "!purge 2", said)).reply;
    expect(note.content).toBe("Deleted 2 messages.");
    await T.P.waitFor(async () => ((await message("tidy", note.id)) ? undefined : true));
    // Spec 7 never dispatches MESSAGE_DELETE_BULK: each purged message comes as its own
    // MESSAGE_DELETE, so on_message_delete logs the people's two and on_bulk_message_delete never runs.
    const logged = await T.P.waitFor(async () => {
      const got = (await T.botMessages("log")).map((m) => m.content).filter((c) => c.includes("'!purge 2'"));
      return got.length >= 2 ? got : undefined;
    });
    expect(logged.sort()).toEqual(["alice deleted: '!purge 2'", "bob deleted: '!purge 2'"]);
    expect(T.bot.lines.filter((l) => l.event === "bulk_delete" || l.event === "raw_bulk_delete")).toEqual([]);
    // purge(limit=3): alice's command and the two messages before it (bob's try, the refusal).
    expect((await T.P.messages("Typical/tidy")).map((m) => m.content).reverse()).toEqual(["spam 1", "spam 2", "spam 3"]);
    expect(await text("alice", "general", `!lock <#${T.P.channelId("Typical/quiet")}>`)).toBe(
      `Locked <#${T.P.channelId("Typical/quiet")}> (send_messages=False).`,
    );
    const channel = (await T.botGet(`/channels/${T.P.channelId("Typical/quiet")}`)).body;
    expect(channel.permission_overwrites).toContainEqual(expect.objectContaining({ id: guild(), type: 0, deny: "2048" }));
    await expect(T.P.as("carol").say("Typical/quiet", "can I?")).rejects.toThrow();
  }, 60_000);

  test("kick, ban (listed in bans) and unban, by a moderator", async () => {
    expect(await text("carol", "general", `!kick <@${id("bob")}>`)).toBe("You need kick_members for that.");
    expect(await text("bob", "general", `!kick <@${id("dave")}> being new`)).toBe("Kicked dave (being new).");
    const members = (await T.botGet(`/guilds/${guild()}/members?limit=100`)).body.map((m: any) => m.user.id);
    expect(members).not.toContain(id("dave"));
    expect(await T.bot.next((l) => l.event === "member_remove", "member_remove")).toEqual({
      event: "member_remove",
      name: "dave",
      count: 4,
    });
    expect(await text("bob", "general", `!ban ${id("carol")} rude`)).toBe("Banned carol; 1 banned.");
    expect((await T.botGet(`/guilds/${guild()}/bans/${id("carol")}`)).body).toMatchObject({ user: { id: id("carol") }, reason: "rude" });
    expect(await text("bob", "general", `!unban ${id("carol")}`)).toBe(`Unbanned ${id("carol")}.`);
    expect((await T.botGet(`/guilds/${guild()}/bans/${id("carol")}`)).status).toBe(404);
    // Spec 7: GUILD_BAN_ADD and GUILD_BAN_REMOVE are never dispatched, so on_member_ban/unban never run; the ban's removal of carol shows.
    expect(await T.bot.next((l) => l.event === "member_remove", "member_remove")).toMatchObject({ name: "carol" });
    expect(T.bot.lines.filter((l) => l.event === "member_ban" || l.event === "member_unban")).toEqual([]);
  }, 60_000);
});
