/**
 * People chatting in the web client: two people in two browser profiles see each
 * other's messages, replies, edits, deletions, reactions, typing and presence live;
 * unread channels and mentions are marked; history loads on scroll; accounts; a phone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { act, actionsOf, channelEntry, count, launch, message, PASSWORD, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }, { name: "bob", global_name: "Bob" }, { name: "carol" }],
    guilds: [
      { name: "Lab", owner: "alice", members: ["bob", "carol"], channels: [{ name: "general" }, { name: "random" }, { name: "history" }] },
    ],
  });
  // A long history to scroll back through, written through the core: 120 messages.
  const history = s.id(s.world.guilds.Lab.channels.history);
  const carol = s.id(s.world.users.carol.id);
  s.p.core.transaction(() => {
    for (let i = 0; i < 120; i++) s.p.core.people.send(carol, history, { content: `history line ${i}` });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("two people in two browsers", () => {
  test("see each other's messages, replies, edits, deletions, reactions and typing live", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const b = bob.page;
      // Enter sends; the other person sees it without a reload.
      await a.getByRole("textbox", { name: "Message #general" }).fill("hi bob, **welcome**");
      await a.keyboard.press("Enter");
      await message(b, /^Alice hi bob, welcome$/).waitFor();
      expect(
        await message(b, /hi bob/)
          .getByRole("strong")
          .textContent(),
      ).toBe("welcome");

      // Escape in the message box lets go of a reply, the words kept.
      const bobBox = b.getByRole("textbox", { name: "Message #general" });
      await act(message(b, /hi bob/), "Reply");
      await b.getByRole("button", { name: "Cancel reply" }).waitFor();
      await bobBox.pressSequentially("kept");
      await bobBox.press("Escape");
      await count(b.getByRole("button", { name: "Cancel reply" }), 0);
      expect(await bobBox.inputValue()).toBe("kept");
      await bobBox.fill("");

      // Reply; Shift+Enter is a new line.
      await act(message(b, /hi bob/), "Reply");
      await bobBox.pressSequentially("line one");
      await b.keyboard.press("Shift+Enter");
      await bobBox.pressSequentially("line two");
      await b.keyboard.press("Enter");
      const reply = message(a, /Bob line one\s+line two/);
      await reply.waitFor();
      expect(await reply.textContent()).toContain("Replying to Alice");

      // Typing shows on the other side.
      await bobBox.pressSequentially("typing something");
      await a.getByRole("status").filter({ hasText: "Bob is typing…" }).waitFor();

      // Edit and delete one's own message; only one's own carry Edit and Delete.
      const bobSees = await actionsOf(message(b, /hi bob/));
      expect(bobSees).toContain("Reply");
      expect(bobSees).not.toContain("Edit");
      expect(bobSees).not.toContain("Delete");
      await act(message(a, /hi bob/), "Edit");
      const edit = a.getByRole("textbox", { name: "Edit message" });
      await edit.fill("hi bob, edited");
      await edit.press("Enter");
      await message(b, /^Alice hi bob, edited$/).waitFor();
      expect(await message(b, /hi bob, edited/).textContent()).toContain("(edited)");

      // Reactions: a button with the emoji and count, pressed for one's own.
      await act(message(b, /hi bob, edited/), "Add reaction");
      await b.getByRole("button", { name: "React with 👍" }).click();
      await message(a, /hi bob, edited/)
        .getByRole("button", { name: "👍 1" })
        .waitFor();
      expect(
        await message(a, /hi bob, edited/)
          .getByRole("button", { name: "👍 1" })
          .getAttribute("aria-pressed"),
      ).toBe("false");
      expect(
        await message(b, /hi bob, edited/)
          .getByRole("button", { name: "👍 1" })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      await message(a, /hi bob, edited/)
        .getByRole("button", { name: "👍 1" })
        .click();
      await message(b, /hi bob, edited/)
        .getByRole("button", { name: "👍 2" })
        .waitFor();
      expect(
        await message(a, /hi bob, edited/)
          .getByRole("button", { name: "👍 2" })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      await message(b, /hi bob, edited/)
        .getByRole("button", { name: "👍 2" })
        .click();
      await message(a, /hi bob, edited/)
        .getByRole("button", { name: "👍 1" })
        .waitFor();

      await act(message(a, /hi bob, edited/), "Delete");
      await count(message(b, /hi bob, edited/), 0);
      expect(await message(b, /line one/).count()).toBe(1);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("presence: the member list shows a person online while their client is open, offline once it closes", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const members = alice.page.getByRole("complementary", { name: "Members" });
      await members.getByRole("listitem", { name: "carol, offline", exact: true }).waitFor();
      const carol = await signIn(browser, s.base, "carol");
      await members.getByRole("listitem", { name: "carol, online", exact: true }).waitFor();
      await carol.context.close();
      await members.getByRole("listitem", { name: "carol, offline", exact: true }).waitFor();
      expect(await members.getByRole("listitem", { name: "Alice, owner, online", exact: true }).count()).toBe(1);
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("a person changes their own nickname in the server: the other sees it on their messages and in the member list; empty goes back", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const b = bob.page;
      await channelEntry(b, "random").click();
      await b.getByRole("textbox", { name: "Message #random" }).fill("who am I");
      await b.keyboard.press("Enter");
      await channelEntry(a, "random").click();
      await message(a, /^Bob who am I$/).waitFor();

      await b.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Change nickname" }).click();
      const dialog = b.getByRole("dialog", { name: "Your nickname in Lab" });
      const box = dialog.getByRole("textbox", { name: "Nickname" });
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      await box.fill("Bobby Tables");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await message(a, /^Bobby Tables who am I$/).waitFor();
      const members = a.getByRole("complementary", { name: "Members" });
      await members.getByRole("listitem", { name: /^Bobby Tables\b/ }).waitFor();
      await message(b, /^Bobby Tables who am I$/).waitFor();

      // Opened again, it holds the nickname; emptied, the display name is back.
      await b.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Change nickname" }).click();
      expect(await box.inputValue()).toBe("Bobby Tables");
      await box.fill("");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await message(a, /^Bob who am I$/).waitFor();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("unread channels and mentions are marked, and opening the channel clears them", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).waitFor();
      await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.random)}/messages`, {
        content: `look, <@${s.id(s.world.users.alice.id)}>`,
      });
      // The entry reads as one phrase, as a server's does: no stray space before a comma.
      const channels = a.getByRole("navigation", { name: "Channels" });
      await channels.getByRole("button", { name: "random, unread, 1 mention", exact: true }).waitFor();
      await channelEntry(a, "random").click();
      await message(a, /look, @Alice/).waitFor();
      await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages`, { content: "news" });
      await channels.getByRole("button", { name: "general, unread", exact: true }).waitFor();
      await channelEntry(a, "general").click();
      await channels.getByRole("button", { name: "random", exact: true }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 20_000);

  test("history: the newest page first, older pages as the person scrolls up", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "history").click();
      await message(a, /history line 119$/).waitFor();
      expect(await message(a, /history line 0$/).count()).toBe(0);
      const log = a.getByRole("log");
      for (let i = 0; i < 20 && (await message(a, /history line 0$/).count()) === 0; i++) {
        await log.hover();
        await a.mouse.wheel(0, -20_000);
        await Bun.sleep(100);
      }
      await message(a, /history line 0$/).waitFor();
      expect(await log.getByRole("article").count()).toBe(120);
      await a.getByText("This is the start of #history.").waitFor();
    } finally {
      await alice.context.close();
    }
  }, 20_000);
});

describe("accounts", () => {
  test("create an account, sign out, and sign in again; a wrong password is refused", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${s.base}/`);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("textbox", { name: "Username" }).fill("dave");
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("textbox", { name: "Password" }).fill("not the password");
      await page.getByRole("textbox", { name: "Username" }).fill("dave");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Invalid username or password" }).waitFor();
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("navigation", { name: "Channels" }).waitFor();
    } finally {
      await context.close();
    }
  }, 20_000);
});

describe("a phone-width screen", () => {
  test("one column at a time: the menu opens the navigation, picking a channel shows it", async () => {
    const bob = await signIn(browser, s.base, "bob", { viewport: { width: 390, height: 844 } });
    try {
      const b = bob.page;
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
      expect(await b.getByRole("navigation", { name: "Channels" }).isVisible()).toBe(false);
      await b.getByRole("button", { name: "Menu" }).click();
      await channelEntry(b, "random").click();
      await b.getByRole("textbox", { name: "Message #random" }).waitFor();
      expect(await b.getByRole("navigation", { name: "Channels" }).isVisible()).toBe(false);
      await b.getByRole("button", { name: "Members" }).click();
      await b.getByRole("complementary", { name: "Members" }).waitFor();
    } finally {
      await bob.context.close();
    }
  }, 20_000);
});
