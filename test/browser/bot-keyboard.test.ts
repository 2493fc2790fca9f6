/**
 * A real discord.js bot used by keyboard alone, and on a phone-width screen (390 px):
 * a command with options run from the composer, its answer dismissed, a button pressed
 * and a select of several filled in (focus kept in the message when the bot's answer takes
 * its components away), all without a pointer; and the same commands,
 * components and embeds fitting a phone without sideways scrolling.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  ApplicationCommandOptionType as O,
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type MessageContextMenuCommandInteraction,
  type StringSelectMenuInteraction,
  type TextChannel,
} from "discord.js";
import { next } from "../compat/support";
import { count, launch, message, signIn, until } from "./support";
import { bench, watch, type Bench } from "./bot-support";

let browser: Browser;
let b: Bench;
let general: TextChannel;

const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  b = await bench([
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
        { type: O.String, name: "note", description: "A note" },
      ],
    },
    { type: 3, name: "Quote it" },
  ] as never[]);
  general = (await b.bot.channels.fetch(b.s.world.guilds.Lab.channels.general)) as TextChannel;
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await b?.bot.destroy();
  await b?.s.p.stop();
});

/** The focused element's accessible name, roughly: its label, or its text. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const e = document.activeElement;
    return e ? (e.getAttribute("aria-label") ?? e.textContent ?? "").trim() : "";
  });
}

/** Presses `key` until the focused element is named `name` (at most `max` presses). */
async function tabTo(page: Page, name: string, key = "Shift+Tab", max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached "${name}" (focus on "${await focusedName(page)}")`);
}

/** How far the page can scroll sideways, in pixels. */
function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
}

describe("a bot by keyboard alone", () => {
  test("a command filled in and sent without a pointer; its answer dismissed by keyboard", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).focus();
      await a.keyboard.type("/ord");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).waitFor();
      await a.keyboard.press("Enter");
      await a.getByRole("combobox", { name: "flavour" }).waitFor();
      await a.keyboard.press("ArrowDown");
      await a.keyboard.press("ArrowDown");
      await a.keyboard.press("Tab");
      expect(await a.getByRole("spinbutton", { name: "scoops" }).evaluate((e) => e === document.activeElement)).toBe(true);
      await a.keyboard.type("2");
      await a.keyboard.press("Tab");
      await a.keyboard.type("extra cold");
      const got = next<[ChatInputCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isChatInputCommand());
      await a.keyboard.press("Enter");
      const [i] = await got;
      expect([i.options.getString("flavour"), i.options.getInteger("scoops"), i.options.getString("note")]).toEqual([
        "plum",
        2,
        "extra cold",
      ]);
      await i.reply({ content: "plum it is", flags: MessageFlags.Ephemeral });
      await message(a, /^Gizmo plum it is/).waitFor();
      // Back in the composer after sending, Shift+Tab reaches the answer's own controls.
      expect(await focusedName(a)).toBe("Message #general");
      await tabTo(a, "Dismiss message");
      await a.keyboard.press("Enter");
      await count(message(a, /plum it is/), 0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a button pressed and a select of several filled in, by keyboard", async () => {
    await general.send({
      content: "pick and press",
      components: [
        { type: 1, components: [{ type: 2, style: 1, label: "Press", custom_id: "press" }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: "many",
              placeholder: "Pick two",
              min_values: 2,
              max_values: 2,
              options: ["Red", "Green", "Blue"].map((label) => ({ label, value: label.toLowerCase() })),
            },
          ],
        },
      ] as never,
    });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await message(a, /^Gizmo pick and press/).waitFor();
      await a.getByRole("textbox", { name: "Message #general" }).focus();
      await tabTo(a, "Press");
      const pressed = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton());
      await a.keyboard.press("Enter");
      await (await pressed)[0].deferUpdate();

      await tabTo(a, "Pick two", "Tab");
      await a.keyboard.press("Enter");
      await message(a, /^Gizmo pick and press/)
        .getByRole("listbox", { name: "Pick two" })
        .waitFor();
      await tabTo(a, "Red", "Tab", 3);
      await a.keyboard.press(" ");
      await tabTo(a, "Blue", "Tab", 3);
      await a.keyboard.press(" ");
      await tabTo(a, "Choose", "Tab", 3);
      const chose = next<[StringSelectMenuInteraction]>(b.bot, "interactionCreate", (i) => i.isStringSelectMenu());
      await a.keyboard.press("Enter");
      const [s] = await chose;
      expect(s.values).toEqual(["red", "blue"]);
      // Choose leaves with its list: focus is back on the menu.
      expect(await focusedName(a)).toBe("Pick two");
      await s.update({ content: "red and blue", components: [] });
      // The answer took every component away: focus stays on the message, not the page's body.
      const answered = message(a, /^Gizmo red and blue/);
      await answered.waitFor();
      await until("focus on the answered message", () => answered.evaluate((el) => el === document.activeElement));
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("a bot on a phone-width screen", () => {
  test("the command form, components and embeds fit 390 px; a tap runs the command", async () => {
    await general.send({
      content: "wide things",
      embeds: [
        {
          title: "A fairly long embed title that has to wrap on a phone screen",
          description: "`a_very_long_identifier_without_any_spaces_in_it_at_all_for_wrapping`",
          fields: [1, 2, 3].map((n) => ({ name: `Field ${n}`, value: `value ${n}`, inline: true })),
        },
      ],
      components: [
        {
          type: 1,
          components: ["First", "Second", "Third", "Fourth", "Fifth"].map((label, n) => ({ type: 2, style: 2, label, custom_id: `w${n}` })),
        },
      ] as never,
    });
    const alice = await signIn(browser, b.s.base, "alice", { viewport: PHONE, touch: true });
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await message(a, /^Gizmo wide things/).waitFor();
      expect(await sideways(a)).toBe(0);
      const fifth = message(a, /^Gizmo wide things/).getByRole("button", { name: "Fifth" });
      const box = await fifth.boundingBox();
      expect(box && box.x + box.width <= PHONE.width).toBe(true);

      await a.getByRole("textbox", { name: "Message #general" }).fill("/");
      await a.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/order" }).tap();
      await a.getByRole("combobox", { name: "flavour" }).selectOption({ label: "Mint chip" });
      await a.getByRole("spinbutton", { name: "scoops" }).fill("1");
      expect(await sideways(a)).toBe(0);
      const send = await a.getByRole("button", { name: "Send" }).boundingBox();
      expect(send && send.x + send.width <= PHONE.width).toBe(true);
      const got = next<[ChatInputCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isChatInputCommand());
      await a.getByRole("button", { name: "Send" }).tap();
      await (await got)[0].reply("one scoop of mint chip");
      await message(a, /^Gizmo one scoop/).waitFor();
      expect(await sideways(a)).toBe(0);

      // A press and hold on the answer shows its actions, Apps among them, and a tap runs a message command.
      const held = message(a, /^Gizmo one scoop/);
      const touch = await a.context().newCDPSession(a);
      const at = await held.boundingBox().then((r) => ({ x: Math.round(r!.x + 40), y: Math.round(r!.y + r!.height / 2) }));
      await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at] });
      await held.getByRole("menu", { name: "More" }).waitFor();
      await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await held.getByRole("button", { name: "Apps", exact: true }).tap();
      const quoted = next<[MessageContextMenuCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isMessageContextMenuCommand());
      await held.getByRole("menu", { name: "Apps for this message" }).getByRole("menuitem", { name: "Quote it" }).tap();
      const [q] = await quoted;
      expect(q.targetMessage.content).toBe("one scoop of mint chip");
      await q.reply({ content: "quoted", flags: MessageFlags.Ephemeral });
      await message(a, /^Gizmo quoted/).waitFor();
      expect(await sideways(a)).toBe(0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
