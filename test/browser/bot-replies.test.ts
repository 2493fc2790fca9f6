/**
 * How a real discord.js bot's answers to a slash command look to the person who ran it
 * and to others: at once, only to them, "thinking" then the answer, follow-ups, the
 * answer edited and deleted, and no answer at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import { next } from "../compat/support";
import { count, launch, message, signIn, type Person } from "./support";
import { bench, watch, type Bench } from "./bot-support";

let browser: Browser;
let b: Bench;

beforeAll(async () => {
  b = await bench(
    ["now", "whisper", "ponder", "chain", "retract", "silent", "secretly", "later", "unsay"].map((name) => ({
      name,
      description: `The ${name} answer`,
    })),
  );
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await b?.bot.destroy();
  await b?.s.p.stop();
});

/** Runs `/name` from the composer of #general; resolves with the bot's interaction. */
async function run(p: Person, name: string): Promise<ChatInputCommandInteraction> {
  const got = next<[ChatInputCommandInteraction]>(b.bot, "interactionCreate", (i) => i.isChatInputCommand() && i.commandName === name);
  const box = p.page.getByRole("textbox", { name: "Message #general" });
  await box.fill(`/${name}`);
  await p.page
    .getByRole("listbox", { name: "Commands" })
    .getByRole("option", { name: `/${name}` })
    .waitFor();
  await box.press("Enter");
  await p.page.getByRole("button", { name: "Send" }).click();
  return (await got)[0];
}

describe("answers to a command", () => {
  test("at once: everyone sees it under 'Alice used /now'", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const bob = await signIn(browser, b.s.base, "bob");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "now");
      await i.reply("right away");
      for (const p of [alice.page, bob.page]) {
        const m = message(p, /^Gizmo right away/);
        await m.waitFor();
        expect(await m.textContent()).toContain("Alice used /now");
      }
      w.clean();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("only to the person: 'Only you can see this', and 'Dismiss message' puts it away", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const bob = await signIn(browser, b.s.base, "bob");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "whisper");
      await i.reply({ content: "just between us", flags: MessageFlags.Ephemeral });
      const m = message(alice.page, /^Gizmo just between us/);
      await m.waitFor();
      expect(await m.textContent()).toContain("Only you can see this");
      await alice.page.getByRole("textbox", { name: "Message #general" }).fill("after the whisper");
      await alice.page.keyboard.press("Enter");
      await message(bob.page, /after the whisper/).waitFor();
      expect(await message(bob.page, /just between us/).count()).toBe(0);
      await m.getByRole("button", { name: "Dismiss message", exact: true }).click();
      await count(message(alice.page, /just between us/), 0);
      w.clean();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("deferred: 'Gizmo is thinking…' until the edit, which takes its place", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "ponder");
      await i.deferReply();
      const thinking = message(alice.page, /^Gizmo/).filter({ hasText: "Gizmo is thinking…" });
      await thinking.waitFor();
      await i.editReply("pondered: 42");
      await message(alice.page, /^Gizmo pondered: 42$/).waitFor();
      await count(thinking, 0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("deferred only to the person: the thinking and the answer are theirs alone", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const bob = await signIn(browser, b.s.base, "bob");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "secretly");
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await message(alice.page, /^Gizmo/)
        .filter({ hasText: "Gizmo is thinking…" })
        .waitFor();
      await i.editReply("a secret answer");
      const m = message(alice.page, /^Gizmo a secret answer/);
      await m.waitFor();
      expect(await m.textContent()).toContain("Only you can see this");
      await alice.page.getByRole("textbox", { name: "Message #general" }).fill("after the secret");
      await alice.page.keyboard.press("Enter");
      await message(bob.page, /after the secret/).waitFor();
      expect(
        await message(bob.page, /^Gizmo/)
          .filter({ hasText: /thinking|secret answer/ })
          .count(),
      ).toBe(0);
      w.clean();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("deferred, then a follow-up: the follow-up fills the thinking message, no second one", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "later");
      await i.deferReply();
      await message(alice.page, /^Gizmo/)
        .filter({ hasText: "Gizmo is thinking…" })
        .waitFor();
      await i.followUp("done thinking");
      await message(alice.page, /^Gizmo done thinking/).waitFor();
      await count(message(alice.page, /^Gizmo/).filter({ hasText: "is thinking" }), 0);
      expect(await message(alice.page, /^Gizmo done thinking/).textContent()).toContain("Alice used /later");
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("an answer only the person sees, edited and then deleted by the bot, changes and goes for them", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "unsay");
      await i.reply({ content: "draft answer", flags: MessageFlags.Ephemeral });
      await message(alice.page, /^Gizmo draft answer/).waitFor();
      await i.editReply("final answer");
      await message(alice.page, /^Gizmo final answer/).waitFor();
      await i.deleteReply();
      await count(message(alice.page, /final answer/), 0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("follow-ups come after the answer; an edit of the answer shows in place", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "chain");
      await i.reply("first");
      await i.followUp("second");
      await i.followUp("third");
      await message(alice.page, /^Gizmo third/).waitFor();
      const texts = await message(alice.page, /^Gizmo (first|second|third)/).allTextContents();
      expect(texts.map((t) => /first|second|third/.exec(t)?.[0])).toEqual(["first", "second", "third"]);
      await i.editReply("first, edited");
      await message(alice.page, /^Gizmo first, edited/).waitFor();
      await count(message(alice.page, /^Gizmo first$/), 0);
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("the answer deleted by the bot goes for everyone", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const bob = await signIn(browser, b.s.base, "bob");
    const w = watch(alice.page);
    try {
      const i = await run(alice, "retract");
      await i.reply("I take it back");
      await message(bob.page, /^Gizmo I take it back/).waitFor();
      await i.deleteReply();
      await count(message(alice.page, /I take it back/), 0);
      await count(message(bob.page, /I take it back/), 0);
      w.clean();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("no answer: after three seconds the person reads that the application did not respond", async () => {
    const alice = await signIn(browser, b.s.base, "alice");
    const w = watch(alice.page);
    try {
      await run(alice, "silent");
      const status = alice.page.getByRole("status").filter({ hasText: "The application did not respond" });
      await status.waitFor({ timeout: 4500 });
      w.clean();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
