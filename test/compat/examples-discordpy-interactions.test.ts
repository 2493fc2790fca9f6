/**
 * discord.py's example bots that live on interactions (examples/app_commands, modals and
 * views of the discord.py repository: slash commands with their transformers, context
 * menus, buttons, selects, persistent views), each run unmodified but for the lines that
 * point it at Parley (test/compat/bots/examples_py/parley_target.py), in a server of its
 * own. People run the commands and click what the bots sent, and the test checks that the
 * bot did what the example means to do.
 *
 * All the bots start at once, and the tests run concurrently (one server each).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { requireDiscordPy, type PyBot } from "./support";
import { allReady, exampleOf, startExample, startExamples, worldOf, type Example } from "./examples-py";

const withContent: Example["privileged"] = ["MESSAGE_CONTENT"];
const EXAMPLES: Example[] = [
  {
    script: "app_commands/basic",
    channels: [{ name: "general" }, { name: "log" }],
    args: (P) => [P.world.guilds.app_commands_basic.id, P.channelId("app_commands_basic/log")],
  },
  {
    script: "app_commands/transformers",
    channels: [{ name: "general" }, { name: "lounge", type: 2 }],
    args: (P) => [P.world.guilds.app_commands_transformers.id],
  },
  { script: "modals/basic", args: (P) => [P.world.guilds.modals_basic.id] },
  { script: "views/confirm", privileged: withContent },
  { script: "views/counter", privileged: withContent },
  { script: "views/dropdown", privileged: withContent },
  { script: "views/ephemeral", privileged: withContent },
  { script: "views/link", privileged: withContent },
  { script: "views/persistent", privileged: withContent },
  { script: "views/tic_tac_toe", privileged: withContent },
];

let P: RunningParley;
let bots: Record<string, PyBot>;

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: worldOf(EXAMPLES), strict: false, rateLimits: "off" });
  bots = startExamples(P, EXAMPLES);
  await allReady(bots);
}, 90_000);

afterAll(async () => {
  await Promise.all(Object.values(bots ?? {}).map((b) => b.stop()));
  await P?.stop();
});

/** The moment in a snowflake, by Parley's epoch (spec 2.1), in ms. */
const idTime = (id: string) => Number((BigInt(id) >> 22n) + 1735689600000n);
/** The buttons and selects of a message, flat, in row order. */
const parts = (m: HarnessMessage): any[] => m.components.flatMap((row: any) => row.components);
/** A person's prefix command in an example's server, and the bot's message with components that answers it. */
async function command(name: string, text: string, who = "alice") {
  const ex = exampleOf(P, name);
  const sent = await P.as(who).say(ex.channel(), text);
  const panel = await ex.botSays((m) => m.components.length > 0, sent);
  await listening(ex.name, (l) => l.message === panel.id);
  return { ex, sent, panel };
}

/** Waits until the bot listens to a view's components (parley_target.py's view line), as a person waits to see them. */
const listening = (name: string, match: (line: any) => boolean) => bots[name].saw((l) => l.event === "view" && match(l), "a view stored");

describe("discord.py examples: application commands", () => {
  test.concurrent("app_commands/basic: /hello, /add, /send (renamed option), /joined, and both context menus", async () => {
    const ex = exampleOf(P, "app_commands/basic");
    const alice = P.world.users.alice.id;
    const bob = P.world.users.bob.id;
    const run = (name: string, options?: Record<string, string | number>) =>
      P.as("alice").slash(ex.channel(), name, options, { app: ex.name, until: "responded" });
    expect((await run("hello")).response?.content).toBe(`Hi, <@${alice}>`);
    expect((await run("add", { first_value: 1, second_value: 2 })).response?.content).toBe("1 + 2 = 3");
    expect((await run("send", { text: "over here" })).response?.content).toBe("over here");
    expect((await run("joined")).response?.content).toMatch(/^alice\S* joined <t:\d+>$/);
    // discord.utils.format_dt of the member's joined_at, as the bot API has it.
    const joinedAt = Math.floor(Date.parse((await ex.botGet(`/guilds/${ex.guildId()}/members/${bob}`)).body.joined_at) / 1000);
    expect((await run("joined", { member: bob })).response?.content).toMatch(new RegExp(`^bob\\S* joined <t:${joinedAt}>$`));
    const menu = (name: string, target: { user: string } | { message: string }) =>
      P.as("alice").contextMenu(ex.channel(), name, target, { app: ex.name, until: "responded" });
    expect((await menu("Show Join Date", { user: "bob" })).response?.content).toMatch(/^bob\S* joined at <t:\d+>$/);
    // The report: an ephemeral thanks, then an embed with a link button in the log channel.
    const bad = await P.as("bob").say(ex.channel(), "something rude");
    const report = await menu("Report to Moderators", { message: bad.id });
    expect(report.ephemeral).toBe(true);
    expect(report.response?.content).toBe(`Thanks for reporting this message by <@${bob}> to our moderators.`);
    const logged = await ex.botSays((m) => m.embeds.length > 0, undefined, "log");
    expect(logged.embeds[0]).toMatchObject({ title: "Reported Message", description: "something rude", author: { name: "bob" } });
    // message.created_at: the time in bob's message's id, read with Parley's epoch.
    expect(Date.parse(logged.embeds[0].timestamp)).toBe(idTime(bad.id));
    expect(parts(logged)).toEqual([
      expect.objectContaining({
        type: 2,
        style: 5,
        label: "Go to Message",
        url: `https://discord.com/channels/${ex.guildId()}/${ex.channelId()}/${bad.id}`,
      }),
    ]);
  }, 60_000);

  test.concurrent("app_commands/transformers: Range, a channel Union, Literal and Enum choices, and two Transformers", async () => {
    const ex = exampleOf(P, "app_commands/transformers");
    const run = (name: string, options?: Record<string, string | number>) =>
      P.as("alice").slash(ex.channel(), name, options, { app: ex.name, until: "responded" });
    // Range[int, 0, 100]: the bounds are registered, so a person cannot send 101 (the reference's client cannot either).
    const over = P.as("alice").slash(ex.channel(), "add", { first: 101, second: 2 }, { app: ex.name });
    await expect(over).rejects.toThrow("Must be less than or equal to 100");
    const add = await run("add", { first: 40, second: 2 });
    expect(add.ephemeral).toBe(true);
    expect(add.response?.content).toBe("40 + 2 = 42");
    const lounge = ex.channelId("lounge");
    const info = (await run("channel-info", { channel: lounge })).response!;
    expect(info.embeds[0].title).toBe("Channel Info");
    expect(info.embeds[0].fields).toEqual([
      { name: "Name", value: "lounge", inline: true },
      { name: "ID", value: lounge, inline: true },
      { name: "Type", value: "Voice", inline: true },
    ]);
    expect(info.embeds[0].footer.text).toBe("Created");
    // channel.created_at: the time in the channel's id, read with Parley's epoch.
    expect(Date.parse(info.embeds[0].timestamp)).toBe(idTime(lounge));
    expect((await run("channel-info", { channel: ex.channelId() })).response?.embeds[0].fields[2].value).toBe("Text");
    expect((await run("shop", { action: "Buy", item: "apples" })).response?.content).toBe("Action: Buy\nItem: apples");
    expect((await run("fruit", { fruit: 2 })).response?.content).toBe("<Fruits.cherry: 2>");
    expect((await run("graph", { point: "3, 4" })).response?.content).toBe("Point(x=3, y=4)");
    expect((await run("graph3d", { point: "1,2,3" })).response?.content).toBe("Point3D(x=1, y=2, z=3)");
    // What the tree registered: the Range bounds, the Union's channel types, the choices.
    const commands = (await ex.botGet(`/applications/${P.world.applications[ex.name].id}/guilds/${ex.guildId()}/commands`)).body;
    const option = (cmd: string, name: string) => commands.find((c: any) => c.name === cmd).options.find((o: any) => o.name === name);
    expect(option("add", "first")).toMatchObject({ min_value: 0, max_value: 100 });
    expect(option("add", "second")).toMatchObject({ min_value: 0 });
    expect([...option("channel-info", "channel").channel_types].sort()).toEqual([0, 2, 5]);
    expect(option("shop", "action").choices.map((c: any) => c.value)).toEqual(["Buy", "Sell"]);
    expect(option("fruit", "fruit").choices.map((c: any) => c.name)).toEqual(["apple", "banana", "cherry", "dragonfruit"]);
  }, 60_000);

  test.concurrent("modals/basic, as spec 3.1 has it: /feedback's modal (callback type 9) is refused 501 50035, the interaction stays pending", async () => {
    const ex = exampleOf(P, "modals/basic");
    const { id } = await P.as("alice").interact({ channel_id: ex.channel(), application_id: ex.name, name: "feedback", type: 1 });
    // discord.py's webhook adapter retries any 5xx (1 s, 3 s, 5 s, 7 s, 9 s apart) before it
    // raises DiscordServerError and the tree logs the failed command, 25 s on: two tries show it.
    const callbacks = await P.waitFor(
      async () => {
        const got = (await P.transcript(ex.name)).entries.filter((t) => t.kind === "rest" && t.route.endsWith("/callback"));
        return got.length >= 2 ? got : undefined;
      },
      { timeoutMs: 10_000 },
    );
    for (const c of callbacks) expect(c).toMatchObject({ status: 501, request: { type: 9 }, response: { code: 50035 } });
    expect((await P.interaction(id)).state).toBe("pending");
  }, 30_000);
});

describe("discord.py examples: views", () => {
  test.concurrent("views/confirm: Confirm and Cancel answer ephemerally and end view.wait() with the choice", async () => {
    for (const [button, said, printed] of [
      ["Confirm", "Confirming", "Confirmed..."],
      ["Cancel", "Cancelling", "Cancelled..."],
    ]) {
      const { ex, panel } = await command("views/confirm", "$ask");
      expect(panel.content).toBe("Do you want to continue?");
      expect(parts(panel).map((b) => [b.label, b.style])).toEqual([
        ["Confirm", 3],
        ["Cancel", 2],
      ]);
      const clicked = await P.as("alice").click(ex.channel(), panel.id, parts(panel).find((b) => b.label === button).custom_id, {
        app: ex.name,
      });
      expect([clicked.ephemeral, clicked.response?.content]).toEqual([true, said]);
      await bots.views_confirm.said(printed);
    }
  }, 30_000);

  test.concurrent("views/counter: each click edits the button's label, and the fifth turns it green and disables it", async () => {
    const { ex, panel } = await command("views/counter", "$counter");
    expect(panel.content).toBe("Press!");
    let button = parts(panel)[0];
    expect([button.label, button.style]).toEqual(["0", 4]);
    for (let n = 1; n <= 5; n++) {
      const r = await P.as("bob").click(ex.channel(), panel.id, button.custom_id, { app: ex.name });
      expect(r.callbackType).toBe(7);
      button = parts((await P.messages(ex.channel())).find((m) => m.id === panel.id)!)[0];
      expect(button.label).toBe(String(n));
    }
    expect([button.style, button.disabled]).toEqual([3, true]);
  }, 30_000);

  test.concurrent("views/dropdown: the select's choice is answered in the channel", async () => {
    const { ex, panel } = await command("views/dropdown", "$colour");
    const [select] = parts(panel);
    expect(select).toMatchObject({ type: 3, placeholder: "Choose your favourite colour...", min_values: 1, max_values: 1 });
    expect(select.options.map((o: any) => [o.label, o.emoji?.name])).toEqual([
      ["Red", "🟥"],
      ["Green", "🟩"],
      ["Blue", "🟦"],
    ]);
    const r = await P.as("bob").select(ex.channel(), panel.id, select.custom_id, ["Green"], { app: ex.name });
    expect([r.ephemeral, r.response?.content]).toEqual([false, "Your favourite colour is Green"]);
  }, 30_000);

  test.concurrent("views/ephemeral: the button answers with a counter of one's own, in an ephemeral message that its clicks edit", async () => {
    const { ex, panel } = await command("views/ephemeral", "$counter");
    const given = await P.as("bob").click(ex.channel(), panel.id, parts(panel)[0].custom_id, { app: ex.name });
    expect([given.ephemeral, given.response?.content]).toEqual([true, "Enjoy!"]);
    const own = given.response!;
    let button = parts(own)[0];
    await listening(ex.name, (l) => l.custom_ids.includes(button.custom_id));
    expect(button.label).toBe("0");
    for (let n = 1; n <= 5; n++) {
      const r = await P.as("bob").click(ex.channel(), own.id, button.custom_id, { app: ex.name });
      expect(r.callbackType).toBe(7);
      const now = (await P.messages(ex.channel(), { as: "bob" })).find((m) => m.id === own.id)!;
      button = parts(now)[0];
      expect(button.label).toBe(String(n));
    }
    expect([button.style, button.disabled]).toEqual([3, true]);
  }, 30_000);

  test.concurrent("views/link: a link button to the quoted query", async () => {
    const { panel } = await command("views/link", "$google cats and dogs");
    expect(panel.content).toBe("Google Result for: `cats and dogs`");
    expect(parts(panel)).toEqual([
      expect.objectContaining({ type: 2, style: 5, label: "Click Here", url: "https://www.google.com/search?q=cats+and+dogs" }),
    ]);
  }, 30_000);

  test.concurrent("views/persistent: only the owner may $prepare, and the buttons still answer after the bot restarts", async () => {
    const ex = exampleOf(P, "views/persistent");
    const refused = await P.as("bob").say(ex.channel(), "$prepare");
    await bots.views_persistent.logged("NotOwner");
    expect(await ex.botMessages(refused)).toEqual([]);
    const { panel } = await command("views/persistent", "$prepare");
    expect(panel.content).toBe("What's your favourite colour?");
    expect(parts(panel).map((b) => b.custom_id)).toEqual(["persistent_view:green", "persistent_view:red", "persistent_view:grey"]);
    // A new process knows nothing of the message: add_view() in setup_hook is what answers.
    await bots.views_persistent.stop();
    bots.views_persistent = startExample(P, EXAMPLES.find((e) => e.script === "views/persistent")!);
    await bots.views_persistent.saw((l) => l.event === "ready", "ready");
    const r = await P.as("bob").click(ex.channel(), panel.id, "persistent_view:green", { app: ex.name });
    expect([r.ephemeral, r.response?.content]).toEqual([true, "This is green."]);
  }, 40_000);

  test.concurrent("views/tic_tac_toe: turns alternate, and three in a row wins and disables the board", async () => {
    const { ex, panel } = await command("views/tic_tac_toe", "$tic");
    expect(panel.content).toBe("Tic Tac Toe: X goes first");
    // Row y holds the buttons (x, y) for x = 0, 1, 2.
    const cell = (m: HarnessMessage, x: number, y: number) => (m.components[y] as any).components[x];
    expect(panel.components.map((row: any) => row.components.length)).toEqual([3, 3, 3]);
    const moves: [number, number, string, string][] = [
      [0, 0, "X", "It is now O's turn"],
      [0, 1, "O", "It is now X's turn"],
      [1, 0, "X", "It is now O's turn"],
      [1, 1, "O", "It is now X's turn"],
      [2, 0, "X", "X won!"],
    ];
    let board = panel;
    for (const [x, y, mark, content] of moves) {
      const r = await P.as(mark === "X" ? "alice" : "bob").click(ex.channel(), panel.id, cell(board, x, y).custom_id, { app: ex.name });
      expect(r.callbackType).toBe(7);
      board = (await P.messages(ex.channel())).find((m) => m.id === panel.id)!;
      expect(board.content).toBe(content);
      expect(cell(board, x, y)).toMatchObject({ label: mark, style: mark === "X" ? 4 : 3, disabled: true });
    }
    expect(parts(board).every((b) => b.disabled)).toBe(true);
  }, 30_000);
});
