/**
 * The typical discord.py bot (test/compat/typical-py.ts) on interactions: hybrid and app commands, the tree's error handler, deferred answers, a context menu,
 * views (an author-only confirmation that disables itself on timeout, a select, the
 * persistent role panel across a restart), as the people around the bot see them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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
const slash = (who: string, name: string, options?: Parameters<ReturnType<typeof T.P.as>["slash"]>[2]) =>
  T.P.as(who).slash("Typical/general", name, options, { app: "TypicalBot", until: "responded" });
/** Waits until the bot listens to a view on `mid` (parley_target.py's view line), as a person waits to see the buttons. */
const listening = (mid: string) => T.bot.saw((l) => l.event === "view" && l.message === mid, "a view stored");

describe("typical discord.py bot: application commands", () => {
  test("hybrid commands answer the same as prefix and as slash; a hybrid group's fallback and subcommand", async () => {
    expect(await T.text("carol", "general", "!echo hi there")).toBe("carol: hi there (prefix)");
    expect((await slash("carol", "echo", { text: "hi there" })).response?.content).toBe("carol: hi there (slash)");
    expect(await T.text("carol", "general", "!tag hello")).toBe("Hi there!");
    expect(await T.text("carol", "general", "!tag set rules Be kind")).toBe("Tag rules saved.");
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
    expect(await T.text("carol", "general", "!tag faq")).toBe("Read it");
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
    expect(parts((await T.message("general", panel.id))!)[0].label).toBe("Vote (1)");
    expect(await T.bot.next((l) => l.event === "vote_closed", "the vote's timeout")).toEqual({ event: "vote_closed", votes: 1 });
    const closed = (await T.P.interaction(r.id)).response!;
    expect(closed.content).toBe("Voting closed with 1 votes.");
    expect(parts(closed)[0]).toMatchObject({ label: "Vote (1)", disabled: true });
  }, 60_000);

  test("defer(ephemeral=True): the first follow-up is ephemeral; a later one asking for it is public (spec: flags 64 only on the response)", async () => {
    const r = await slash("carol", "whisper");
    expect([r.ephemeral, r.response?.content]).toEqual([true, "Only you see this."]);
    expect(await T.bot.next((l) => l.event === "whisper", "whisper")).toEqual({ event: "whisper", first: true, later: false });
    const later = await T.P.waitFor(async () => (await T.P.interaction(r.id)).followups.find((m) => m.content === "And this?"), {
      timeoutMs: 15_000,
    });
    expect(later.flags & 64).toBe(0);
    expect((await T.botSays("general", (m) => m.content === "carol whispered.")).content).toBe("carol whispered.");
  }, 60_000);

  test("a hybrid command's ctx.defer() as slash and as prefix; app_commands.checks.cooldown through on_error; emoji, defaults, view=None", async () => {
    const slow = await slash("carol", "slowpoke", { member: id("bob") });
    expect([slow.deferred, slow.response?.content]).toEqual([true, "bob waited (slash)"]);
    expect((await slash("carol", "slowpoke")).response?.content).toBe("carol waited (slash)");
    expect(await T.text("carol", "general", "!slowpoke bob")).toBe("bob waited (prefix)");
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

  test("follow-ups edited, deleted and fetched; a button that defers, deletes its message and follows up ephemerally", async () => {
    const r = await slash("carol", "tidyup");
    expect(await T.bot.next((l) => l.event === "tidyup", "tidyup")).toEqual({ event: "tidyup", second: "second, edited" });
    const v = await T.P.interaction(r.id);
    expect(v.response?.content).toBe("first, with a button");
    expect(v.followups.map((m) => m.content)).toEqual(["second, edited"]);
    // edit_original_response(view=...) stores the view under the edited message's id.
    await listening(v.response!.id);
    const click = await T.P.as("carol").click("Typical/general", v.response!.id, "tidyup:delete", { app: "TypicalBot" });
    expect(click.callbackType).toBe(6);
    await T.bot.saw((l) => l.event === "tidyup_clicked", "the click handled");
    const after = await T.P.interaction(click.id);
    expect(after.followups.map((m) => [m.content, m.flags & 64])).toEqual([["Deleted it.", 64]]);
    expect(await T.message("general", v.response!.id)).toBeUndefined();
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
    const after = (await T.message("views", panel.id))!;
    expect(after.content).toBe("Confirmed by carol.");
    expect(parts(after).every((b) => b.disabled)).toBe(true);
    expect(await T.bot.next((l) => l.event === "confirm_done", "view.wait() ended")).toMatchObject({ timed_out: false });
  }, 60_000);

  test("on_timeout edits the message and disables every button", async () => {
    const { reply: panel } = await T.ask("carol", "views", "!confirm 1", (m) => m.components.length > 0);
    await T.bot.saw((l) => l.event === "timed_out" && l.message === panel.id, "the view's timeout");
    const after = (await T.message("views", panel.id))!;
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
