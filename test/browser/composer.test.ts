/**
 * The composer (issue 28): a channel one may not write in says why and offers no live
 * composer; slow mode shows its wait and counts down after a send; a counter near the
 * limit; Up in an empty composer edits one's last message (Enter saves, Escape cancels).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { png } from "../support/png";
import { act, channelEntry, lateFrames, launch, message, serve, signIn, until, WAIT_MS, type Served } from "./support";

let browser: Browser;
let s: Served;

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
        channels: [
          { name: "general" },
          { name: "rules", overwrites: [{ role: "@everyone", deny: ["SEND_MESSAGES"] }] },
          { name: "slow", rate_limit_per_user: 30 },
          { name: "chatter" },
        ],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("the composer", () => {
  test("a channel one may not write in: the composer is disabled and says why", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "rules").click();
      const box = b.getByRole("textbox", { name: "Message #rules" });
      await box.waitFor();
      expect(await box.isDisabled()).toBe(true);
      await b.getByRole("note").filter({ hasText: "You do not have permission to send messages in #rules" }).waitFor();
      expect(await b.getByRole("button", { name: "Send" }).count()).toBe(0);
      // The owner may write there.
      const alice = await signIn(browser, s.base, "alice");
      try {
        await channelEntry(alice.page, "rules").click();
        expect(await alice.page.getByRole("textbox", { name: "Message #rules" }).isEnabled()).toBe(true);
      } finally {
        await alice.context.close();
      }
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("slow mode shows its wait and counts down after a send", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "slow").click();
      const line = b.getByRole("status", { name: "Slow mode" });
      expect(await line.textContent()).toBe("Slow mode: 30 s");
      await b.getByRole("textbox", { name: "Message #slow" }).fill("one");
      await b.keyboard.press("Enter");
      await message(b, /one/).waitFor();
      // Counting: the wait shown goes down from 30, and Send stays off meanwhile.
      const seconds = async () => Number(/(\d+) s/.exec((await line.textContent()) ?? "")?.[1]);
      const first = await seconds();
      expect(first).toBeLessThanOrEqual(30);
      const deadline = Date.now() + WAIT_MS;
      while ((await seconds()) >= first && Date.now() < deadline) await Bun.sleep(100);
      expect(await seconds()).toBeLessThan(first);
      await b.getByRole("textbox", { name: "Message #slow" }).fill("two");
      expect(await b.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a counter shows from 1,800 characters", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("textbox", { name: "Message #general" });
      await box.fill("x".repeat(1799));
      expect(await b.getByRole("status", { name: "Characters" }).count()).toBe(0);
      await box.fill("x".repeat(1950));
      expect(await b.getByRole("status", { name: "Characters" }).textContent()).toBe("1,950 / 2,000");
      await box.fill("x".repeat(2001));
      expect(await b.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Up in an empty composer edits one's last message: Enter saves, Escape cancels", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("textbox", { name: "Message #general" });
      await box.fill("first try");
      await b.keyboard.press("Enter");
      await message(b, /first try/).waitFor();
      await box.press("ArrowUp");
      const edit = b.getByRole("textbox", { name: "Edit message" });
      await edit.fill("second try");
      await edit.press("Enter");
      // The editor closes once the server has the edit (its live event may show the text first).
      await edit.waitFor({ state: "detached" });
      await message(b, /second try/).waitFor();
      expect(await message(b, /first try/).count()).toBe(0);
      // Back in the composer; Up again and Escape leaves the text as it was.
      await box.press("ArrowUp");
      await edit.fill("never saved");
      await edit.press("Escape");
      await edit.waitFor({ state: "detached" });
      expect(await message(b, /second try/).count()).toBe(1);
      expect(await message(b, /never saved/).count()).toBe(0);
      await until("focus back in the composer", () => box.evaluate((el) => el === document.activeElement));
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("what is typed the moment the box shows is kept, even when the page's deferred work lands late", async () => {
    // A busy machine: the page's effects run long after the render that shows the box.
    const bob = await signIn(browser, s.base, "bob", { prepare: (c) => c.addInitScript(lateFrames()) });
    try {
      const b = bob.page;
      await b.getByRole("textbox", { name: "Message #general" }).fill("typed at once");
      await b.keyboard.press("Enter");
      await message(b, /typed at once/).waitFor();
      // A switch, then typing straight away: the new channel's box is not reset under the person.
      await channelEntry(b, "chatter").click();
      await b.getByRole("textbox", { name: "Message #chatter" }).fill("right after the switch");
      await b.keyboard.press("Enter");
      await message(b, /right after the switch/).waitFor();
      // Up edits, Escape cancels, and focus is back in the box the moment the editor goes.
      await channelEntry(b, "general").click();
      const box = b.getByRole("textbox", { name: "Message #general" });
      await box.press("ArrowUp");
      const edit = b.getByRole("textbox", { name: "Edit message" });
      await edit.press("Escape");
      await edit.waitFor({ state: "detached" });
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Emoji: a searchable picker with the server's own first; :sho completes; Add reaction uses the same picker", async () => {
    const lab = s.id(s.world.guilds.Lab.id);
    await s.p.core.emojis.create(s.id(s.world.users.alice.id), lab, { name: "shipit", image: { bytes: png(8, 8, 3) } });
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("textbox", { name: "Message #general" });
      await b.getByRole("button", { name: "Emoji", exact: true }).click();
      const picker = b.getByRole("dialog", { name: "Emoji" });
      const choices = picker.getByRole("button");
      // The server's own come first.
      expect(await choices.first().getAttribute("aria-label")).toBe(":shipit:");
      await picker.getByRole("searchbox", { name: "Search emoji" }).fill("tada");
      await picker.getByRole("button", { name: ":tada:" }).click();
      await picker.waitFor({ state: "detached" });
      expect(await box.inputValue()).toBe("🎉");
      // Enter in the searchbox takes the first match.
      await b.getByRole("button", { name: "Emoji", exact: true }).click();
      await picker.getByRole("searchbox", { name: "Search emoji" }).fill("tada");
      await picker.getByRole("searchbox", { name: "Search emoji" }).press("Enter");
      await picker.waitFor({ state: "detached" });
      expect(await box.inputValue()).toBe("🎉🎉");
      // :sho lists matches in a listbox "Emoji"; Enter takes the first.
      await box.fill("");
      await box.pressSequentially("nice :sh");
      const list = b.getByRole("listbox", { name: "Emoji" });
      await list.waitFor();
      expect(await list.getByRole("option", { name: ":shipit:" }).count()).toBe(1);
      await box.pressSequentially("i");
      await list.getByRole("option").first().waitFor();
      await box.press("Enter");
      await list.waitFor({ state: "detached" });
      // The box shows the server's emoji by name; sent, it is the emoji.
      expect(await box.inputValue()).toBe("nice :shipit: ");
      await box.press("Enter");
      const sent = message(b, /nice/);
      await sent.getByRole("img", { name: ":shipit:" }).waitFor();
      // Typed by hand it is the same; in code it stays as typed.
      await box.fill("by hand :shipit: and `:shipit:` in code");
      await box.press("Enter");
      const typed = message(b, /by hand/);
      await typed.getByRole("img", { name: ":shipit:" }).waitFor();
      expect(await typed.getByRole("img", { name: ":shipit:" }).count()).toBe(1);
      expect(await typed.getByRole("code").textContent()).toBe(":shipit:");
      // Add reaction opens the same picker, searchable.
      await act(sent, "Add reaction");
      await picker.getByRole("searchbox", { name: "Search emoji" }).fill("fire");
      await picker.getByRole("button", { name: "React with 🔥" }).click();
      await sent.getByRole("group", { name: "Reactions" }).getByRole("button", { name: /🔥 1/ }).waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Enter pressed twice, or Send clicked twice, while the message is on its way sends it once", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "chatter").click();
      // A slow network: the server's answer to a post comes late, so the box still holds the text.
      await b.route("**/api/client/v1/channels/*/messages", async (route) => {
        if (route.request().method() === "POST") await Bun.sleep(400);
        await route.continue();
      });
      const box = b.getByRole("textbox", { name: "Message #chatter" });
      await box.fill("only once by key");
      await box.press("Enter");
      await box.press("Enter");
      await message(b, /only once by key/).waitFor();
      await box.fill("only once by click");
      await b.getByRole("button", { name: "Send" }).dblclick();
      await message(b, /only once by click/).waitFor();
      await until("the box is empty", async () => (await box.inputValue()) === "");
      const chatter = s.id(s.world.guilds.Lab.channels.chatter);
      const stored = (await s.as("bob", "GET", `/channels/${chatter}/messages`)).map((m: { content: string }) => m.content);
      expect(stored.filter((c: string) => c.startsWith("only once")).sort()).toEqual(["only once by click", "only once by key"]);
      expect(await message(b, /only once/).count()).toBe(2);
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
