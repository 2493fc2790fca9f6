/**
 * People and a real discord.js bot (examples/demo-bot.ts) in the web client: the bot in
 * the member list, a slash command with options, a button that updates its message in
 * place, a select whose answer only the clicker sees, "thinking" while deferred, and
 * components and Markdown rendered as a person expects.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import {
  ApplicationCommandOptionType as O,
  MessageFlags,
  type Client,
  type ChatInputCommandInteraction,
  type StringSelectMenuInteraction,
  type TextChannel,
} from "discord.js";
import { createDemoBot } from "../../examples/demo-bot";
import { next } from "../compat/support";
import { channelEntry, count, launch, message, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;
let bot: Client;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob"],
        roles: [{ name: "Helpers", members: ["bob"] }],
        channels: [{ name: "general" }, { name: "widgets" }, { name: "forms" }],
      },
    ],
    applications: [
      {
        name: "DemoBot",
        owner: "alice",
        intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
        approved_privileged: ["MESSAGE_CONTENT"],
        install: ["Lab"],
      },
    ],
  });
  bot = createDemoBot({ api: `${s.base}/api`, thinkMs: 800 });
  const ready = new Promise((r) => bot.once("clientReady", r));
  await bot.login(s.world.applications.DemoBot.token);
  await ready;
  const general = s.id(s.world.guilds.Lab.channels.general);
  // The demo bot registers its commands after READY; a loaded machine may take seconds.
  for (let i = 0; (await s.as("alice", "GET", `/channels/${general}/commands`)).length < 2; i++) {
    if (i === 300) throw new Error("the demo bot never registered its commands");
    await Bun.sleep(50);
  }
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await bot?.destroy();
  await s?.p.stop();
});

describe("a discord.js bot in the web client", () => {
  test("the bot is in the member list, tagged BOT and online while it holds a gateway session", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const members = alice.page.getByRole("complementary", { name: "Members" });
      const row = members.getByRole("listitem", { name: "DemoBot, bot, online", exact: true });
      await row.waitFor();
      await row.getByRole("button", { name: "Message DemoBot" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("a slash command with options, a button that updates in place, and a select answered only to the clicker", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("/");
      const list = a.getByRole("listbox", { name: "Commands" });
      await list.getByRole("option", { name: "/think" }).waitFor();
      expect(await list.getByRole("option").allTextContents()).toEqual([
        expect.stringContaining("/roll"),
        expect.stringContaining("/think"),
      ]);
      await list.getByRole("option", { name: "/roll" }).click();
      expect(await a.getByLabel("sides").getAttribute("aria-required")).toBe("true");
      expect(await a.getByRole("combobox", { name: "sides" }).locator("option").allTextContents()).toEqual(["Choose…", "4", "6", "20"]);
      await a.getByRole("combobox", { name: "sides" }).selectOption("20");
      await a.getByRole("spinbutton", { name: "count" }).fill("3");
      await a.getByRole("textbox", { name: "label" }).fill("the final boss");
      await a.getByRole("combobox", { name: "secret" }).selectOption("false");
      await a.getByRole("button", { name: "Send" }).click();

      const roll = message(a, /^DemoBot/).filter({ hasText: "Roll 1 by DemoBot" });
      await roll.waitFor();
      expect(await roll.textContent()).toContain("Alice used /roll");
      expect(await roll.textContent()).toContain("For the final boss: 3 × d20");
      expect(await roll.getByRole("link", { name: /^You rolled \d+$/ }).getAttribute("href")).toBe("https://en.wikipedia.org/wiki/Dice");
      expect(await roll.getByRole("link", { name: /About dice/ }).getAttribute("href")).toBe("https://en.wikipedia.org/wiki/Dice");
      expect(await roll.getByRole("button", { name: "Loaded dice" }).isDisabled()).toBe(true);
      // Bob sees the answer live, too.
      await message(bob.page, /^DemoBot/)
        .filter({ hasText: "Roll 1 by DemoBot" })
        .waitFor();

      await roll.getByRole("button", { name: "Roll again" }).click();
      await message(a, /^DemoBot/)
        .filter({ hasText: "Roll 2 by DemoBot" })
        .waitFor();
      await message(bob.page, /^DemoBot/)
        .filter({ hasText: "Roll 2 by DemoBot" })
        .waitFor();
      await count(message(a, /^DemoBot/), 1);

      await a.getByRole("combobox", { name: "Pick a colour" }).selectOption("green");
      const answer = message(a, /You picked green/);
      await answer.waitFor();
      expect(await answer.textContent()).toContain("Only you can see this");
      // Ordered delivery: once Bob has Alice's next message, he would have had the answer.
      await a.getByRole("textbox", { name: "Message #general" }).fill("after the colour");
      await a.keyboard.press("Enter");
      await message(bob.page, /after the colour/).waitFor();
      expect(await message(bob.page, /You picked/).count()).toBe(0);
      await answer.getByRole("button", { name: "Dismiss" }).click();
      await count(message(a, /You picked green/), 0);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("'<bot> is thinking…' while the answer is deferred, then the answer in its place", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const box = a.getByRole("textbox", { name: "Message #general" });
      await box.fill("/th");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/think" }).waitFor();
      await box.press("Enter");
      await a.getByRole("button", { name: "Send" }).click();
      const thinking = message(a, /^DemoBot/).filter({ hasText: "DemoBot is thinking…" });
      await thinking.waitFor();
      await message(a, /^DemoBot I thought it over: yes\.$/).waitFor();
      await count(thinking, 0);
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("buttons of every style, link buttons as links, selects 5 to 8 greyed; Markdown as a person expects", async () => {
    const widgets = (await bot.channels.fetch(s.world.guilds.Lab.channels.widgets)) as TextChannel;
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^widgets/ })
        .click();
      const button = (style: number, label: string, extra: object = {}) => ({
        type: 2,
        style,
        label,
        custom_id: `b${style}${label}`,
        ...extra,
      });
      await widgets.send({
        content: `**bold** *italic* __under__ ~~strike~~ \`code\` [Parley](https://example.com/parley) <@${bot.user!.id}>\n\`\`\`\nblock\n\`\`\``,
        components: [
          { type: 1, components: [button(1, "Primary"), button(2, "Secondary"), button(3, "Success"), button(4, "Danger")] },
          {
            type: 1,
            components: [{ type: 2, style: 5, label: "Docs", url: "https://example.com/docs" }, button(1, "Off", { disabled: true })],
          },
          { type: 1, components: [{ type: 5, custom_id: "u", placeholder: "Pick a user" }] },
          { type: 1, components: [{ type: 6, custom_id: "r" }] },
          { type: 1, components: [{ type: 7, custom_id: "m", placeholder: "Pick anyone" }] },
        ] as never,
      });
      await widgets.send({
        content: "channels",
        components: [{ type: 1, components: [{ type: 8, custom_id: "c", placeholder: "Pick a channel" }] }] as never,
      });
      const m = message(a, /^DemoBot bold italic/);
      await m.waitFor();
      // Types 5 to 8 are kept as {type, custom_id, disabled} only (spec 4 rule 6): no placeholder to name them by.
      expect(
        await message(a, /^DemoBot channels$/)
          .getByRole("combobox", { name: "Select" })
          .isDisabled(),
      ).toBe(true);
      for (const name of ["Primary", "Secondary", "Success", "Danger"])
        expect(await m.getByRole("button", { name }).isEnabled()).toBe(true);
      expect(await m.getByRole("button", { name: "Off" }).isDisabled()).toBe(true);
      expect(await m.getByRole("link", { name: /Docs/ }).getAttribute("href")).toBe("https://example.com/docs");
      const greyed = m.getByRole("combobox", { name: "Select" });
      expect(await greyed.count()).toBe(3);
      for (let i = 0; i < 3; i++) expect(await greyed.nth(i).isDisabled()).toBe(true);
      expect(await m.getByRole("strong").textContent()).toBe("bold");
      expect(await m.getByRole("emphasis").textContent()).toBe("italic");
      expect(await m.getByRole("deletion").textContent()).toBe("strike");
      expect(await m.getByRole("code").allTextContents()).toEqual(["code", "block"]);
      expect(await m.getByRole("link", { name: "Parley" }).getAttribute("href")).toBe("https://example.com/parley");
      expect(await m.textContent()).toContain("@DemoBot");
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("a select of several: a listbox of its options only; Space picks, Choose sends the values", async () => {
    const forms = (await bot.channels.fetch(s.world.guilds.Lab.channels.forms)) as TextChannel;
    await forms.send({
      content: "flavours",
      components: [
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: "flavours",
              placeholder: "Pick flavours",
              min_values: 1,
              max_values: 2,
              options: ["Mint", "Plum", "Sage"].map((label) => ({ label, value: label.toLowerCase() })),
            },
          ],
        },
      ] as never,
    });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "forms").click();
      const m = message(a, /^DemoBot flavours/);
      await m.getByRole("combobox", { name: "Pick flavours" }).click();
      const list = m.getByRole("listbox", { name: "Pick flavours" });
      expect(await list.getByRole("option").allTextContents()).toEqual(["Mint", "Plum", "Sage"]);
      expect(await list.getByRole("button").count()).toBe(0);
      await list.getByRole("option", { name: "Mint" }).focus();
      await a.keyboard.press(" ");
      await list.getByRole("option", { name: "Sage" }).focus();
      await a.keyboard.press(" ");
      expect(await list.getByRole("option", { selected: true }).allTextContents()).toEqual(["Mint", "Sage"]);
      const got = next<[StringSelectMenuInteraction]>(bot, "interactionCreate", (i) => i.isStringSelectMenu() && i.customId === "flavours");
      await m.getByRole("button", { name: "Choose" }).click();
      const [i] = await got;
      expect(i.values).toEqual(["mint", "sage"]);
      await i.deferUpdate();
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("option fields by type: users, channels, roles and mentionables from lists, numbers as numbers; the bot gets them", async () => {
    const lab = s.world.guilds.Lab;
    await bot.application!.commands.create(
      {
        name: "pick",
        description: "Pick one of each",
        options: [
          { type: O.User, name: "who", description: "A person", required: true },
          { type: O.Channel, name: "where", description: "A channel", required: true },
          { type: O.Role, name: "role", description: "A role" },
          { type: O.Mentionable, name: "anyone", description: "A person or a role" },
          { type: O.Number, name: "amount", description: "Any number" },
        ],
      },
      lab.id,
    );
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "forms").click();
      await a.getByRole("textbox", { name: "Message #forms" }).fill("/pi");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/pick" }).click();
      await a.getByRole("combobox", { name: "who" }).selectOption({ label: "Bob" });
      await a.getByRole("combobox", { name: "where" }).selectOption({ label: "#widgets" });
      await a.getByRole("combobox", { name: "role" }).selectOption({ label: "@Helpers" });
      await a.getByRole("combobox", { name: "anyone" }).selectOption({ label: "@Helpers" });
      await a.getByRole("spinbutton", { name: "amount" }).fill("2.5");
      const got = next<[ChatInputCommandInteraction]>(bot, "interactionCreate", (i) => i.isChatInputCommand() && i.commandName === "pick");
      await a.getByRole("button", { name: "Send" }).click();
      const [i] = await got;
      expect([
        i.options.getUser("who")?.id,
        i.options.getChannel("where")?.id,
        i.options.getRole("role")?.id,
        i.options.getMentionable("anyone") && i.options.get("anyone")?.value,
      ]).toEqual([s.world.users.bob.id, lab.channels.widgets, lab.roles.Helpers, lab.roles.Helpers]);
      expect(i.options.getNumber("amount")).toBe(2.5);
      await i.reply({ content: "picked", flags: MessageFlags.Ephemeral });
      await message(a, /^DemoBot picked$/).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("embed pictures and time; a bot's direct message is listed under Direct messages", async () => {
    const widgets = (await bot.channels.fetch(s.world.guilds.Lab.channels.widgets)) as TextChannel;
    await widgets.send({
      embeds: [
        {
          title: "Pictures",
          image: { url: "https://example.com/a.png" },
          thumbnail: { url: "https://example.com/t.png" },
          timestamp: "2026-01-01T12:00:00.000Z",
        },
      ],
    });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "widgets").click();
      // Pictures from the bot's host wait until the person asks (docs/security.md, finding 10).
      await message(a, /^DemoBot/)
        .filter({ hasText: "Pictures" })
        .getByRole("button", { name: "Load 2 images from example.com" })
        .click();
      const m = message(a, /^DemoBot/).filter({ has: a.getByRole("img", { name: "Image: Pictures" }) });
      expect(await m.getByRole("img", { name: "Image: Pictures" }).getAttribute("src")).toBe("https://example.com/a.png");
      expect(await m.getByRole("img", { name: "Thumbnail" }).getAttribute("src")).toBe("https://example.com/t.png");
      expect(await m.getByRole("time").last().getAttribute("datetime")).toBe("2026-01-01T12:00:00.000Z");

      const user = await bot.users.fetch(s.world.users.alice.id);
      await user.send("a word in private");
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).click();
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^DemoBot/ })
        .click();
      await message(a, /^DemoBot a word in private$/).waitFor();
      await a.getByRole("textbox", { name: "Message @DemoBot" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 20_000);
});
