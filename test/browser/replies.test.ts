/**
 * A reply's quote of what it answers: a control named by the quote ("Replying to Alice:
 * …") that shows the original in the log, scrolled to, focused and marked; when the
 * original is older than what is loaded, the history is read back to it; a deleted
 * original reads "Original message was deleted" and is no control.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { count, launch, message, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;
let general: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  });
  general = s.id(s.world.guilds.Lab.channels.general);
  const alice = s.id(s.world.users.alice.id);
  const bob = s.id(s.world.users.bob.id);
  s.p.core.transaction(() => {
    // Two originals far back (older than the first page of 50), one of them deleted later.
    ids.old = s.p.core.people.send(alice, general, { content: "the old plan" }).id;
    ids.oldGone = s.p.core.people.send(alice, general, { content: "an old slip" }).id;
    for (let i = 0; i < 70; i++) s.p.core.people.send(bob, general, { content: `filler ${i}` });
    ids.recent = s.p.core.people.send(alice, general, { content: "the new plan" }).id;
    ids.recentGone = s.p.core.people.send(alice, general, { content: "a typo" }).id;
    for (let i = 0; i < 5; i++) s.p.core.people.send(bob, general, { content: `more ${i}` });
    s.p.core.people.send(bob, general, { content: "answering the old", replyTo: ids.old });
    s.p.core.people.send(bob, general, { content: "answering the slip", replyTo: ids.oldGone });
    s.p.core.people.send(bob, general, { content: "answering the new", replyTo: ids.recent });
    s.p.core.people.send(bob, general, { content: "answering the typo", replyTo: ids.recentGone });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

function hasFocus(l: Locator): Promise<boolean> {
  return l.evaluate((el) => el === document.activeElement).catch(() => false);
}

describe("a reply's quote", () => {
  test("a loaded original: the quote is a control that shows it, focused and marked", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const reply = message(a, /answering the new$/);
      await reply.getByRole("button", { name: "Replying to Alice: the new plan" }).click();
      const original = message(a, /^Alice the new plan$/);
      await until("original focused", () => hasFocus(original));
      expect(await original.getAttribute("aria-current")).toBe("true");
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("an original older than the loaded history: the history is read back to it", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const reply = message(a, /answering the old$/);
      await reply.waitFor();
      expect(await message(a, /the old plan$/).count()).toBe(0);
      await reply.getByRole("button", { name: "Replying to an earlier message" }).click();
      const original = message(a, /^Alice the old plan$/);
      await until("original focused", () => hasFocus(original));
      expect(await original.getAttribute("aria-current")).toBe("true");
      // Now loaded, the quote names it.
      await reply.getByRole("button", { name: "Replying to Alice: the old plan" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a deleted original: 'Original message was deleted', no control, loaded or not", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const typo = message(a, /answering the typo$/);
      await typo.getByRole("button", { name: "Replying to Alice: a typo" }).waitFor();
      await s.as("alice", "DELETE", `/channels/${general}/messages/${ids.recentGone}`);
      await typo.getByText("Original message was deleted").waitFor();
      await count(typo.getByRole("button", { name: /Replying to/ }), 0);

      await s.as("alice", "DELETE", `/channels/${general}/messages/${ids.oldGone}`);
      const slip = message(a, /answering the slip$/);
      await slip.getByRole("button", { name: "Replying to an earlier message" }).click();
      await slip.getByText("Original message was deleted").waitFor();
      await count(slip.getByRole("button", { name: /Replying to/ }), 0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("the original deleted while a reply to it is being written: the reply lets go of it and says so, the text kept", async () => {
    const latest = await s.as("alice", "POST", `/channels/${general}/messages`, { content: "soon to be gone" });
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await message(b, /soon to be gone$/)
        .getByRole("button", { name: "More" })
        .click();
      await b.getByRole("menuitem", { name: "Reply", exact: true }).click();
      await b.getByRole("button", { name: "Cancel reply" }).waitFor();
      await b.keyboard.type("still worth saying");
      await s.as("alice", "DELETE", `/channels/${general}/messages/${latest.id}`);
      await b.getByRole("status").filter({ hasText: "The message you were replying to was deleted." }).waitFor();
      await count(b.getByRole("button", { name: "Cancel reply" }), 0);
      const box = b.getByRole("textbox", { name: "Message #general" });
      expect(await box.inputValue()).toBe("still worth saying");
      await box.press("Enter");
      await message(b, /still worth saying$/).waitFor();
      await until("the box is empty", async () => (await box.inputValue()) === "");
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
