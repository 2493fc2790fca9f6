/**
 * Components on a real discord.js bot's messages, used by a person: buttons of every
 * style, the message updated at once (type 7) or later (type 6), selects with their
 * bounds and defaults, a modal the service refuses, and a button nobody answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type StringSelectMenuInteraction,
  type TextChannel,
} from "discord.js";
import { next } from "../compat/support";
import { channelEntry, count, launch, message, signIn } from "./support";
import { bench, watch, type Bench } from "./bot-support";

let browser: Browser;
let b: Bench;
let widgets: TextChannel;

beforeAll(async () => {
  b = await bench();
  widgets = (await b.bot.channels.fetch(b.s.world.guilds.Lab.channels.widgets)) as TextChannel;
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await b?.bot.destroy();
  await b?.s.p.stop();
});

const row = (...c: (ButtonBuilder | StringSelectMenuBuilder)[]) =>
  new ActionRowBuilder<ButtonBuilder | StringSelectMenuBuilder>().addComponents(...c);
const button = (id: string, label: string, style: ButtonStyle) => new ButtonBuilder().setCustomId(id).setLabel(label).setStyle(style);

async function open(p: Page): Promise<void> {
  await channelEntry(p, "widgets").click();
  await p.getByRole("textbox", { name: "Message #widgets" }).waitFor();
}

describe("buttons", () => {
  test("a click updates the message at once (type 7), another later (type 6); link and disabled buttons are not clicked", async () => {
    await widgets.send({
      content: "counter: 0",
      components: [
        row(
          button("plus", "Plus", ButtonStyle.Primary),
          button("later", "Later", ButtonStyle.Secondary),
          button("ok", "OK", ButtonStyle.Success),
          button("no", "No", ButtonStyle.Danger),
        ),
        row(
          new ButtonBuilder().setURL("https://example.com/help").setLabel("Help").setStyle(ButtonStyle.Link),
          button("off", "Off", ButtonStyle.Primary).setDisabled(true),
        ),
      ],
    });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      const m = message(a, /^Gizmo counter/);
      expect(await m.getByRole("link", { name: /Help/ }).getAttribute("href")).toBe("https://example.com/help");
      expect(await m.getByRole("button", { name: "Off" }).isDisabled()).toBe(true);

      let got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "plus");
      await m.getByRole("button", { name: "Plus" }).click();
      const [plus] = await got;
      await plus.update({ content: "counter: 1" });
      await message(a, /^Gizmo counter: 1/).waitFor();

      got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "later");
      await m.getByRole("button", { name: "Later" }).click();
      const [later] = await got;
      await later.deferUpdate();
      await later.editReply({ content: "counter: 2", components: [] });
      await message(a, /^Gizmo counter: 2/).waitFor();
      await count(m.getByRole("button", { name: "Later" }), 0);
      // Nothing was left waiting: no "Waiting for…", no failure.
      await Bun.sleep(3500);
      expect(
        await a
          .getByRole("status")
          .filter({ hasText: /Waiting for|did not respond|interaction failed/ })
          .count(),
      ).toBe(0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a deferred update (type 6) only acknowledges: nothing thinks, nothing fails", async () => {
    await widgets.send({ content: "quiet ack", components: [row(button("ack", "Ack", ButtonStyle.Secondary))] });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      const got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "ack");
      await message(a, /^Gizmo quiet ack/)
        .getByRole("button", { name: "Ack" })
        .click();
      await (await got)[0].deferUpdate();
      await Bun.sleep(3500);
      expect(await a.getByRole("status").filter({ hasText: /\S/ }).allTextContents()).toEqual([]);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a button on an answer only the person sees: the click reaches the bot, the update shows to them", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      await widgets.send({ content: "start", components: [row(button("start", "Start", ButtonStyle.Primary))] });
      let got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "start");
      await message(a, /^Gizmo start/)
        .getByRole("button", { name: "Start" })
        .click();
      const [start] = await got;
      await start.reply({ content: "step 1", components: [row(button("step", "Next step", ButtonStyle.Success))], flags: 64 });
      const mine = message(a, /^Gizmo step/);
      got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "step");
      await mine.getByRole("button", { name: "Next step" }).click();
      const [step] = await got;
      await step.update({ content: "step 2", components: [] });
      await message(a, /^Gizmo step 2/).waitFor();
      expect(await message(a, /^Gizmo step 2/).textContent()).toContain("Only you can see this");
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a button nobody answers: after three seconds 'This interaction failed'", async () => {
    await widgets.send({ content: "unanswered", components: [row(button("void", "Press", ButtonStyle.Primary))] });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      await message(a, /^Gizmo unanswered/)
        .getByRole("button", { name: "Press" })
        .click();
      await a.getByRole("status").filter({ hasText: "This interaction failed" }).waitFor({ timeout: 4500 });
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a modal is refused by the service (spec 1.5), so the person is told the interaction failed", async () => {
    await widgets.send({ content: "feedback form", components: [row(button("form", "Give feedback", ButtonStyle.Primary))] });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      const got = next<[ButtonInteraction]>(b.bot, "interactionCreate", (i) => i.isButton() && i.customId === "form");
      await message(a, /^Gizmo feedback form/)
        .getByRole("button", { name: "Give feedback" })
        .click();
      const [i] = await got;
      const modal = new ModalBuilder()
        .setCustomId("fb")
        .setTitle("Feedback")
        .addComponents(
          new ActionRowBuilder<TextInputBuilder>().addComponents(
            new TextInputBuilder().setCustomId("t").setLabel("Title").setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(40),
          ),
        );
      const refused = await i.showModal(modal).then(
        () => null,
        (e: { status?: number }) => e.status,
      );
      // discord.js retries a 5xx and then throws its HTTPError, which keeps the status only.
      expect(refused).toBe(501);
      await a.getByRole("status").filter({ hasText: "This interaction failed" }).waitFor({ timeout: 4500 });
      expect(await a.getByRole("dialog").count()).toBe(0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("selects", () => {
  test("a select shows its default; one of several starts with the defaults picked and holds to min and max", async () => {
    await widgets.send({
      content: "preferences",
      components: [
        row(
          new StringSelectMenuBuilder()
            .setCustomId("size")
            .setPlaceholder("Pick a size")
            .addOptions({ label: "Small", value: "s" }, { label: "Medium", value: "m", default: true }, { label: "Large", value: "l" }),
        ),
        row(
          new StringSelectMenuBuilder()
            .setCustomId("toppings")
            .setPlaceholder("Pick toppings")
            .setMinValues(2)
            .setMaxValues(3)
            .addOptions(
              { label: "Nuts", value: "nuts", default: true },
              { label: "Fudge", value: "fudge" },
              { label: "Berries", value: "berries" },
              { label: "Sprinkles", value: "sprinkles" },
            ),
        ),
      ],
    });
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const a = alice.page;
      await open(a);
      const m = message(a, /^Gizmo preferences/);
      const size = m.getByRole("combobox", { name: "Pick a size" });
      expect(await size.evaluate((e: HTMLSelectElement) => e.selectedOptions[0]?.textContent)).toBe("Medium");
      let got = next<[StringSelectMenuInteraction]>(b.bot, "interactionCreate", (i) => i.isStringSelectMenu() && i.customId === "size");
      await size.selectOption({ label: "Large" });
      const [sizeI] = await got;
      expect(sizeI.values).toEqual(["l"]);
      await sizeI.deferUpdate();

      await m.getByRole("combobox", { name: "Pick toppings" }).click();
      const list = m.getByRole("listbox", { name: "Pick toppings" });
      expect(await list.getByRole("option", { selected: true }).allTextContents()).toEqual(["Nuts"]);
      const choose = m.getByRole("button", { name: "Choose" });
      expect(await choose.isDisabled()).toBe(true);
      for (const name of ["Fudge", "Berries", "Sprinkles"]) await list.getByRole("option", { name }).click();
      // A fourth is not taken: at most three.
      expect(await list.getByRole("option", { selected: true }).allTextContents()).toEqual(["Nuts", "Fudge", "Berries"]);
      got = next<[StringSelectMenuInteraction]>(b.bot, "interactionCreate", (i) => i.isStringSelectMenu() && i.customId === "toppings");
      await choose.click();
      const [tops] = await got;
      expect(tops.values).toEqual(["nuts", "fudge", "berries"]);
      await tops.update({ content: "preferences saved", components: [] });
      await message(a, /^Gizmo preferences saved/).waitFor();
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
