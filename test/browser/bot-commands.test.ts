/**
 * Slash and context-menu commands of a real discord.js bot, used by a person in the web
 * client: options of every type, required and optional, a file for an attachment option,
 * subcommands in groups as entries of the picker of their own, limits, the picker by
 * keyboard, commands the person may not use, and "Apps" on a message or a member.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import {
  ApplicationCommandOptionType as O,
  ApplicationCommandType,
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type MessageContextMenuCommandInteraction,
  type UserContextMenuCommandInteraction,
} from "discord.js";
import { next } from "../compat/support";
import { png } from "../support/png";
import { launch, message, signIn } from "./support";
import { bench, watch, type Bench } from "./bot-support";
import { testConfig } from "../../src/config";

let browser: Browser;
let b: Bench;

const COMMANDS = [
  {
    name: "order",
    description: "Order an ice cream",
    options: [
      {
        type: O.String,
        name: "flavour",
        description: "Which flavour",
        required: true,
        choices: [
          { name: "Mint chip", value: "mint" },
          { name: "Plum", value: "plum" },
        ],
      },
      { type: O.Integer, name: "scoops", description: "One to three", required: true, minValue: 1, maxValue: 3 },
      { type: O.Number, name: "tip", description: "Half a coin to nine and a half", minValue: 0.5, maxValue: 9.5 },
      { type: O.Boolean, name: "cone", description: "In a cone" },
      { type: O.User, name: "for", description: "Who it is for" },
      { type: O.Channel, name: "where", description: "Where to bring it" },
      { type: O.Role, name: "team", description: "Which team pays" },
      { type: O.Mentionable, name: "tell", description: "Who to tell" },
      { type: O.String, name: "note", description: "A note", minLength: 2, maxLength: 20, autocomplete: true },
    ],
  },
  {
    name: "config",
    description: "Settings",
    options: [
      {
        type: O.SubcommandGroup,
        name: "set",
        description: "Change a setting",
        options: [
          {
            type: O.Subcommand,
            name: "name",
            description: "Rename",
            options: [{ type: O.String, name: "value", description: "New name", required: true }],
          },
          {
            type: O.Subcommand,
            name: "level",
            description: "Loudness",
            options: [{ type: O.Integer, name: "value", description: "0 to 9", required: true }],
          },
        ],
      },
      { type: O.Subcommand, name: "show", description: "Show the settings" },
    ],
  },
  { name: "purge", description: "Delete messages", defaultMemberPermissions: PermissionFlagsBits.ManageMessages },
  {
    name: "scan",
    description: "Scan a file",
    options: [
      { type: O.Attachment, name: "file", description: "What to scan", required: true },
      { type: O.String, name: "note", description: "A note" },
    ],
  },
  { type: ApplicationCommandType.User, name: "High five" },
  { type: ApplicationCommandType.Message, name: "Quote it" },
] as never[];

beforeAll(async () => {
  // A small file limit, so a file past it is cheap to choose.
  b = await bench(COMMANDS, undefined, { media: { ...testConfig().media, maxFileBytes: 64 * 1024 } });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await b?.bot.destroy();
  await b?.s.p.stop();
});

/** The ids of the slash commands (named `name`, or any) that reach the bot from now until `stop`. */
function commandsReaching(name?: string): { ids: string[]; stop(): void } {
  const ids: string[] = [];
  const seen = (i: { isChatInputCommand(): boolean; commandName?: string; id: string }) => {
    if (i.isChatInputCommand() && (name === undefined || i.commandName === name)) ids.push(i.id);
  };
  b.bot.on("interactionCreate", seen as never);
  return { ids, stop: () => b.bot.off("interactionCreate", seen as never) };
}

describe("slash commands from the composer", () => {
  test("every option type reaches the bot as the type it declared", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/or");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).click();
      await a.getByRole("combobox", { name: "flavour" }).selectOption({ label: "Mint chip" });
      await a.getByRole("spinbutton", { name: "scoops" }).fill("2");
      await a.getByRole("spinbutton", { name: "tip" }).fill("1.5");
      await a.getByRole("combobox", { name: "cone" }).selectOption({ label: "True" });
      await a.getByRole("combobox", { name: "for" }).selectOption({ label: "Bob" });
      await a.getByRole("combobox", { name: "where" }).selectOption({ label: "#widgets" });
      // Roles as the reference names them: @everyone once, not "@@everyone".
      expect(await a.getByRole("combobox", { name: "team" }).getByRole("option").allTextContents()).toEqual([
        "(none)",
        "@everyone",
        "@Helpers",
      ]);
      await a.getByRole("combobox", { name: "team" }).selectOption({ label: "@Helpers" });
      await a.getByRole("combobox", { name: "tell" }).selectOption({ label: "Bob" });
      // Autocomplete is stored but never asked (spec 2.4): the person writes the value.
      await a.getByRole("textbox", { name: "note" }).fill("no nuts");
      const got = next<[ChatInputCommandInteraction]>(
        b.bot,
        "interactionCreate",
        (i) => i.isChatInputCommand() && i.commandName === "order",
      );
      await a.getByRole("button", { name: "Send" }).click();
      const [i] = await got;
      const lab = b.s.world.guilds.Lab;
      expect({
        flavour: i.options.getString("flavour"),
        scoops: i.options.getInteger("scoops"),
        tip: i.options.getNumber("tip"),
        cone: i.options.getBoolean("cone"),
        for: i.options.getUser("for")?.id,
        where: i.options.getChannel("where")?.id,
        team: i.options.getRole("team")?.id,
        tell: i.options.getMentionable("tell") && i.options.get("tell")?.value,
        note: i.options.getString("note"),
      }).toEqual({
        flavour: "mint",
        scoops: 2,
        tip: 1.5,
        cone: true,
        for: b.s.world.users.bob.id,
        where: lab.channels.widgets,
        team: lab.roles.Helpers,
        tell: b.s.world.users.bob.id,
        note: "no nuts",
      });
      await i.reply("one mint chip, coming up");
      await message(a, /^Gizmo one mint chip/).waitFor();
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a value out of bounds or a missing required one is said beside its field, and nothing runs", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    const ran = commandsReaching();
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/order");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).click();
      await a.getByRole("button", { name: "Send" }).click();
      expect(await a.getByRole("alert").textContent()).toBe("flavour is required.");
      await a.getByRole("combobox", { name: "flavour" }).selectOption({ label: "Plum" });
      await a.getByRole("spinbutton", { name: "scoops" }).fill("7");
      await a.getByRole("textbox", { name: "note" }).fill("x");
      await a.getByRole("button", { name: "Send" }).click();
      const scoops = a.getByRole("spinbutton", { name: "scoops" });
      expect(await scoops.evaluate((e: HTMLInputElement) => e.validity.rangeOverflow)).toBe(true);
      expect(await a.getByRole("textbox", { name: "note" }).evaluate((e: HTMLInputElement) => e.validity.tooShort)).toBe(true);
      await Bun.sleep(300);
      expect(ran.ids).toEqual([]);
      w.clean();
    } finally {
      ran.stop();
      await alice.context.close();
    }
  }, 30_000);

  test("each subcommand is an entry of the picker, matched by its whole path; the bot gets the group, the subcommand and its option", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      const box = a.getByRole("textbox", { name: "Message #general" });
      const list = a.getByRole("listbox", { name: "Commands" });
      await box.fill("/con");
      await list.getByRole("option", { name: /^\/config show / }).waitFor();
      expect(await list.getByRole("option").allTextContents()).toEqual([
        "/config set name Rename Gizmo",
        "/config set level Loudness Gizmo",
        "/config show Show the settings Gizmo",
      ]);
      await box.fill("/config set l");
      await list.getByRole("option", { name: /^\/config set level / }).waitFor();
      expect(await list.getByRole("option").count()).toBe(1);
      await box.press("Enter");
      // The leaf's own form: its name and description, its own options, no choice of subcommand.
      await a.getByText("/config set level").waitFor();
      expect(await a.getByRole("combobox").count()).toBe(0);
      await a.getByRole("spinbutton", { name: "value" }).fill("4");
      const got = next<[ChatInputCommandInteraction]>(
        b.bot,
        "interactionCreate",
        (i) => i.isChatInputCommand() && i.commandName === "config",
      );
      await a.getByRole("button", { name: "Send" }).click();
      const [i] = await got;
      expect([i.options.getSubcommandGroup(), i.options.getSubcommand(), i.options.getInteger("value")]).toEqual(["set", "level", 4]);
      await i.reply({ content: "level 4", flags: MessageFlags.Ephemeral });
      await message(a, /^Gizmo level 4/).waitFor();

      // A subcommand outside any group.
      await box.fill("/config sh");
      await list.getByRole("option", { name: /^\/config show / }).click();
      const shown = next<[ChatInputCommandInteraction]>(
        b.bot,
        "interactionCreate",
        (x) => x.isChatInputCommand() && x.commandName === "config",
      );
      await a.getByRole("button", { name: "Send" }).click();
      const [s] = await shown;
      expect([s.options.getSubcommandGroup(), s.options.getSubcommand()]).toEqual([null, "show"]);
      await s.reply({ content: "all settings", flags: MessageFlags.Ephemeral });
      await message(a, /^Gizmo all settings/).waitFor();

      // A whole path typed and a space chooses it, as on the reference.
      await box.fill("");
      await box.pressSequentially("/config set name ");
      await a.getByRole("textbox", { name: "value" }).waitFor();
      expect(await a.getByText("/config set name").count()).toBe(1);
      // The third form this page showed: its field has the focus too, so the value is typed on.
      expect(await a.getByRole("textbox", { name: "value" }).evaluate((e) => e === document.activeElement)).toBe(true);
      await a.keyboard.press("Escape");
      await a.getByRole("textbox", { name: "value" }).waitFor({ state: "detached" });
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a file for an attachment option: uploaded, required, and read by the bot through getAttachment()", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/sc");
      await a
        .getByRole("listbox", { name: "Commands" })
        .getByRole("option", { name: /^\/scan / })
        .click();
      await a.getByRole("button", { name: "Send" }).click();
      expect(await a.getByRole("alert").textContent()).toBe("file is required.");
      const image = png(9, 7, 3);
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Choose a file for file" }).click();
      await (await chooser).setFiles({ name: "shot.png", mimeType: "image/png", buffer: Buffer.from(image) });
      await a.getByRole("button", { name: "Remove shot.png" }).waitFor();
      await a.getByRole("progressbar", { name: "Uploading shot.png" }).waitFor({ state: "detached" });
      await a.getByRole("textbox", { name: "note" }).fill("is it a cat");
      const got = next<[ChatInputCommandInteraction]>(
        b.bot,
        "interactionCreate",
        (i) => i.isChatInputCommand() && i.commandName === "scan",
      );
      await a.getByRole("button", { name: "Send" }).click();
      const [i] = await got;
      const file = i.options.getAttachment("file", true);
      expect({
        name: file.name,
        size: file.size,
        type: file.contentType,
        w: file.width,
        h: file.height,
        note: i.options.getString("note"),
      }).toEqual({
        name: "shot.png",
        size: image.byteLength,
        type: "image/png",
        w: 9,
        h: 7,
        note: "is it a cat",
      });
      // The bot fetches it as a bot does: the link alone, no header.
      const bytes = new Uint8Array(await (await fetch(file.url)).arrayBuffer());
      expect(bytes).toEqual(image);
      await i.reply(`scanned ${file.name}`);
      await message(a, /^Gizmo scanned shot\.png/).waitFor();
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a file over the limit is said beside its field, and the command is not sent with it", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    const ran = commandsReaching();
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/scan");
      await a
        .getByRole("listbox", { name: "Commands" })
        .getByRole("option", { name: /^\/scan / })
        .click();
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Choose a file for file" }).click();
      const max = b.s.p.config.media.maxFileBytes;
      await (await chooser).setFiles({ name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(max + 1) });
      expect(await a.getByRole("alert").textContent()).toStartWith("huge.bin could not be uploaded:");
      await a.getByRole("button", { name: "Send" }).click();
      expect(await a.getByRole("alert").filter({ hasText: "file is required." }).count()).toBe(1);
      await Bun.sleep(300);
      expect(ran.ids).toEqual([]);
      // The refusal itself (413) is the browser's console line "Failed to load resource"; nothing else went wrong.
      expect(w.problems.filter((x) => !x.includes("status of 413"))).toEqual([]);
    } finally {
      ran.stop();
      await alice.context.close();
    }
  }, 30_000);

  test("Send pressed twice runs the command once", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    const seen = commandsReaching("config");
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/config sh");
      await a
        .getByRole("listbox", { name: "Commands" })
        .getByRole("option", { name: /^\/config show / })
        .click();
      await a.getByRole("button", { name: "Send" }).dblclick();
      await a.getByRole("button", { name: "Cancel" }).waitFor({ state: "detached" });
      await Bun.sleep(500);
      expect(seen.ids.length).toBe(1);
      w.clean();
    } finally {
      seen.stop();
      await alice.context.close();
    }
  }, 30_000);

  test("the picker by keyboard: arrows move, Enter picks, the first field has focus, Escape backs out", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      const box = a.getByRole("textbox", { name: "Message #general" });
      await box.focus();
      await a.keyboard.type("/");
      const list = a.getByRole("listbox", { name: "Commands" });
      await list.getByRole("option", { name: "/purge" }).waitFor();
      expect(await list.getByRole("option").allTextContents()).toEqual([
        expect.stringContaining("/config set name "),
        expect.stringContaining("/config set level "),
        expect.stringContaining("/config show "),
        expect.stringContaining("/order "),
        expect.stringContaining("/purge "),
        expect.stringContaining("/scan "),
      ]);
      expect(await list.getByRole("option", { selected: true }).textContent()).toStartWith("/config set name ");
      await a.keyboard.press("ArrowDown");
      expect(await list.getByRole("option", { selected: true }).textContent()).toStartWith("/config set level ");
      await a.keyboard.press("ArrowUp");
      await a.keyboard.press("ArrowUp");
      expect(await list.getByRole("option", { selected: true }).textContent()).toStartWith("/scan ");
      // Escape closes the list and leaves what was typed.
      await a.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });
      expect(await box.inputValue()).toBe("/");
      await a.keyboard.type("o");
      await list.getByRole("option", { name: "/order" }).waitFor();
      await a.keyboard.press("Enter");
      // The first field takes focus; Escape leaves the form for the composer.
      const focused = (e: Element) => e === document.activeElement;
      expect(await a.getByRole("combobox", { name: "flavour" }).evaluate(focused)).toBe(true);
      await a.keyboard.press("Escape");
      await a.getByRole("combobox", { name: "flavour" }).waitFor({ state: "detached" });
      expect(await box.evaluate(focused)).toBe(true);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a command needing Manage Messages is not offered to a member without it", async () => {
    const bob = await signIn(browser, b.s.base, "bob");
    const w = watch(bob.page);
    try {
      const p = bob.page;
      await p.getByRole("textbox", { name: "Message #general" }).fill("/");
      const list = p.getByRole("listbox", { name: "Commands" });
      await list.getByRole("option", { name: "/order" }).waitFor();
      expect(await list.getByRole("option", { name: "/purge" }).count()).toBe(0);
      await p.getByRole("textbox", { name: "Message #general" }).fill("/pu");
      await p.getByText("No command starts with “/pu” here.").waitFor();
      w.clean();
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});

describe("commands in a direct message with the bot", () => {
  test("only the commands allowed in DMs are offered there, and one runs", async () => {
    await b.bot.application!.commands.set([
      { name: "ping", description: "Anywhere" },
      { name: "serveronly", description: "Not in DMs", dmPermission: false },
      { name: "guildctx", description: "Servers only, by contexts", contexts: [0] },
    ] as never[]);
    await (await b.bot.users.fetch(b.s.world.users.alice.id)).send("hello from Gizmo");
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).click();
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^Gizmo/ })
        .click();
      const box = a.getByRole("textbox", { name: "Message @Gizmo" });
      await box.fill("/");
      const list = a.getByRole("listbox", { name: "Commands" });
      await list.getByRole("option", { name: "/ping" }).waitFor();
      expect(await list.getByRole("option").allTextContents()).toEqual([expect.stringContaining("/ping")]);
      await box.press("Enter");
      const got = next<[ChatInputCommandInteraction]>(
        b.bot,
        "interactionCreate",
        (i) => i.isChatInputCommand() && i.commandName === "ping",
      );
      await a.getByRole("button", { name: "Send" }).click();
      const [i] = await got;
      expect([i.inGuild(), i.user.id]).toEqual([false, b.s.world.users.alice.id]);
      await i.reply("pong, privately");
      await message(a, /^Gizmo pong, privately/).waitFor();
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("context-menu commands", () => {
  test("Apps on a message and on a member run the bot's message and user commands", async () => {
    const general = await b.bot.channels.fetch(b.s.world.guilds.Lab.channels.general);
    if (!general?.isSendable()) throw new Error("general is not a text channel");
    await general.send("quote me, please");
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      const m = message(a, /^Gizmo quote me, please/);
      await m.hover();
      const gotMessage = next<[MessageContextMenuCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isMessageContextMenuCommand());
      await m.getByRole("button", { name: "Apps", exact: true }).click();
      await m.getByRole("menu", { name: /^Apps/ }).getByRole("menuitem", { name: "Quote it" }).click();
      const [mi] = await gotMessage;
      expect(mi.targetMessage.content).toBe("quote me, please");
      await mi.reply(`> ${mi.targetMessage.content}`);
      const quote = message(a, /^Gizmo quote me, please$/).filter({ has: a.getByRole("blockquote") });
      await quote.waitFor();
      // A context-menu command is named as the menu names it, with no slash (the reference's "used Quote it").
      expect(await quote.textContent()).toContain("Alice used Quote it");

      const members = a.getByRole("complementary", { name: "Members" });
      const gotUser = next<[UserContextMenuCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isUserContextMenuCommand());
      await members.getByRole("button", { name: "Apps for Bob" }).click();
      await members.getByRole("menu", { name: "Apps for Bob" }).getByRole("menuitem", { name: "High five" }).click();
      const [ui] = await gotUser;
      expect(ui.targetUser.id).toBe(b.s.world.users.bob.id);
      await ui.reply({ content: "high five sent", flags: MessageFlags.Ephemeral });
      await message(a, /^Gizmo high five sent/).waitFor();
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

// Last: it signs the bot out for good.
describe("with the bot offline", () => {
  test("a file chosen for a command nobody got is given back, not left counting against the person", async () => {
    const botUser = b.s.id(b.s.world.applications.Gizmo.bot_user_id);
    await b.bot.destroy();
    for (let i = 0; i < 100 && b.s.p.gateway.hasLiveSession(botUser); i++) await Bun.sleep(50);
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    const pending = () =>
      (
        b.s.p.store.db.query("SELECT count(*) AS n FROM uploads WHERE owner_id = ?").get(b.s.id(b.s.world.users.alice.id)) as {
          n: number;
        }
      ).n;
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/scan");
      await a
        .getByRole("listbox", { name: "Commands" })
        .getByRole("option", { name: /^\/scan / })
        .click();
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Choose a file for file" }).click();
      await (await chooser).setFiles({ name: "late.png", mimeType: "image/png", buffer: Buffer.from(png(2, 2, 9)) });
      await a.getByRole("button", { name: "Remove late.png" }).waitFor();
      await a.getByRole("progressbar", { name: "Uploading late.png" }).waitFor({ state: "detached" });
      expect(pending()).toBe(1);
      await a.getByRole("button", { name: "Send" }).click();
      await a.getByText("Gizmo is not connected, so nobody answered.").waitFor();
      for (let i = 0; i < 100 && pending() > 0; i++) await Bun.sleep(50);
      expect(pending()).toBe(0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
