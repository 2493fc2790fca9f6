/**
 * Mentions and notifications in the web client (issue 28), two people: `@` opens the
 * "Mentions" listbox and the chosen name is sent as a mention; the mention counts in the
 * channel's and server's marks and the tab title, and is in the "Mentions" inbox with
 * "Jump"; a desktop notification (permission granted, the page's Notification recorded)
 * fires for it, and "Notification settings" → "Nothing" silences the channel.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { act, channelEntry, launch, message, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      // Enough people that `@` alone fills the list.
      ...["cara", "dan", "fay", "gus", "ivy", "jo", "kit"].map((name) => ({ name })),
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "cara", "dan", "fay", "gus", "ivy", "jo", "kit"],
        channels: [{ name: "general" }, { name: "random" }, { name: "news" }, { name: "quiet" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Notifications allowed, and each one the page makes recorded (the browser's own may not show headless). */
async function recordNotifications(c: BrowserContext): Promise<void> {
  await c.grantPermissions(["notifications"], { origin: s.base });
  await c.addInitScript(() => {
    const Real = window.Notification;
    const w = window as unknown as { __notes: { title: string; body?: string }[] };
    w.__notes = [];
    function Recorded(title: string, opts?: NotificationOptions) {
      w.__notes.push({ title, body: opts?.body });
      try {
        return new Real(title, opts);
      } catch {
        return {};
      }
    }
    Recorded.requestPermission = (...a: []) => Real.requestPermission(...a);
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    (window as unknown as { Notification: unknown }).Notification = Recorded;
  });
}

const notes = (p: Page) => p.evaluate(() => (window as unknown as { __notes: { title: string; body?: string }[] }).__notes);

describe("mentions", () => {
  test("@ lists people; the chosen name is a mention the other person sees counted, in the title and in the inbox", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const b = bob.page;
      await channelEntry(a, "random").click();
      await a.getByRole("textbox", { name: "Message #random" }).waitFor();
      // Not yet allowed: the page offers to ask the browser.
      expect(await b.evaluate(() => Notification.permission)).toBe("default");
      await b.getByRole("button", { name: "Enable desktop notifications" }).waitFor();
      const box = b.getByRole("textbox", { name: "Message #general" });
      await box.pressSequentially("@al");
      const list = b.getByRole("listbox", { name: "Mentions" });
      await list.getByRole("option", { name: "Alice (alice)" }).waitFor();
      await box.press("Enter");
      expect(await box.inputValue()).toBe("@Alice ");
      await box.pressSequentially("lunch?");
      await box.press("Enter");
      await message(b, /^Bob @Alice lunch\?$/).waitFor();

      await channelEntry(a, "general").filter({ hasText: "1" }).waitFor();
      expect(await channelEntry(a, "general").getAttribute("class")).toContain("unread");
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab, 1 mention" }).waitFor();
      await a.waitForFunction(() => document.title === "(1) #random · Parley");

      await a.getByRole("button", { name: "Mentions", exact: true }).click();
      const inbox = a.getByRole("dialog", { name: "Mentions" });
      await inbox
        .getByRole("article", { name: /Bob @Alice lunch\?/ })
        .getByRole("button", { name: "Jump" })
        .click();
      const shown = message(a, /^Bob @Alice lunch\?$/);
      await shown.waitFor();
      expect(await shown.getAttribute("aria-current")).toBe("true");

      // An edit shows the mention as the name, and keeps it a mention.
      await act(message(b, /^Bob @Alice lunch\?$/), "Edit");
      const edit = b.getByRole("textbox", { name: "Edit message" });
      expect(await edit.inputValue()).toBe("@Alice lunch?");
      await edit.fill("@Alice dinner?");
      await edit.press("Enter");
      await message(a, /^Bob @Alice dinner\?/).waitFor();
      const stored = await s.as("alice", "GET", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages?limit=1`);
      expect(stored[0].mentions.map((u: { username: string }) => u.username)).toEqual(["alice"]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);
  test("@here is offered beside @everyone to whoever may mention everyone, however many people match", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const box = a.getByRole("textbox", { name: "Message #general" });
      const list = a.getByRole("listbox", { name: "Mentions" });
      await box.pressSequentially("@he");
      await list.getByRole("option", { name: "@here" }).waitFor();
      await box.press("Enter");
      expect(await box.inputValue()).toBe("@here ");
      await box.pressSequentially("@e");
      await list.getByRole("option", { name: "@everyone" }).waitFor();
      expect(await list.getByRole("option", { name: "@here" }).count()).toBe(0);
      // Many people match a bare `@`: the two stay offered at the list's end.
      await box.fill("");
      await box.pressSequentially("@");
      await list.getByRole("option", { name: "Bob (bob)" }).waitFor();
      expect((await list.getByRole("option").allTextContents()).slice(-2)).toEqual(["@everyone", "@here"]);

      // Sent by someone who may not mention everyone, @everyone is words, not a mention.
      const general = s.id(s.world.guilds.Lab.channels.general);
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: "@everyone look" });
      await s.as("alice", "POST", `/channels/${general}/messages`, { content: "@here dinner" });
      /** Whether `@token` in the message stands in an element of its own (a mention) or runs on in the text. */
      const apart = (text: RegExp, token: string) =>
        message(a, text).evaluate((el, token) => {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode())
            if (n.textContent!.includes(token)) return n.parentElement!.textContent === `@${token}`;
          throw new Error(`no ${token} in the message`);
        }, token);
      await message(a, /@here dinner$/).waitFor();
      expect(await apart(/@here dinner$/, "here")).toBe(true);
      expect(await apart(/@everyone look$/, "everyone")).toBe(false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("notifications", () => {
  test("a mention elsewhere notifies; Notification settings → Nothing silences that channel", async () => {
    const alice = await signIn(browser, s.base, "alice", { prepare: recordNotifications });
    try {
      const a = alice.page;
      await channelEntry(a, "random").click();
      await a.getByRole("textbox", { name: "Message #random" }).waitFor();
      // Allowed already: nothing to ask.
      expect(await a.getByRole("button", { name: "Enable desktop notifications" }).count()).toBe(0);
      const general = s.id(s.world.guilds.Lab.channels.general);
      const news = s.id(s.world.guilds.Lab.channels.news);
      const aliceId = s.id(s.world.users.alice.id);
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: `<@${aliceId}> are you there?` });
      await a.waitForFunction(() => (window as any).__notes.length === 1);
      expect(await notes(a)).toEqual([{ title: "Bob in #general", body: "@Alice are you there?" }]);

      await channelEntry(a, "general").click();
      await a.getByRole("button", { name: "Notification settings" }).click();
      const dialog = a.getByRole("dialog", { name: "Notification settings" });
      await dialog.getByRole("group", { name: "#general" }).getByRole("radio", { name: "Nothing" }).check();
      await dialog.getByRole("button", { name: "Close" }).click();
      await channelEntry(a, "random").click();
      await a.getByRole("textbox", { name: "Message #random" }).waitFor();
      // Wait until the server has the setting, so the next message is judged by it.
      for (let i = 0; i < 50; i++) {
        const mine = await s.as("alice", "GET", `/users/@me/notification-settings/${general}`);
        if (mine.level === 2) break;
        await Bun.sleep(50);
      }
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: `<@${aliceId}> still there?` });
      await s.as("bob", "POST", `/channels/${news}/messages`, { content: `<@${aliceId}> news!` });
      await a.waitForFunction(() => (window as any).__notes.length >= 2);
      expect((await notes(a)).map((n) => n.title)).toEqual(["Bob in #general", "Bob in #news"]);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
  test("a muted channel shows no unread mark and leaves its server unmarked; a mention in it still counts", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const quiet = s.id(s.world.guilds.Lab.channels.quiet);
      const aliceId = s.id(s.world.users.alice.id);
      await channelEntry(a, "quiet").click();
      await a.getByRole("button", { name: "Notification settings" }).click();
      const dialog = a.getByRole("dialog", { name: "Notification settings" });
      await dialog.getByRole("combobox", { name: "Mute #quiet for" }).selectOption({ label: "Until I turn it back on" });
      await dialog
        .getByRole("combobox", { name: "Mute #quiet for" })
        .getByRole("option", { name: "Muted until I turn it back on" })
        .waitFor({ state: "attached" });
      await dialog.getByRole("button", { name: "Close" }).click();
      await channelEntry(a, "random").click();
      await a.getByRole("textbox", { name: "Message #random" }).waitFor();
      const channels = a.getByRole("navigation", { name: "Channels" });
      const servers = a.getByRole("navigation", { name: "Servers" });
      // Everything else read, so the server's mark can only come from #quiet.
      for (const c of ["general", "news"]) await channelEntry(a, c).click();
      await channelEntry(a, "random").click();
      await servers.getByRole("button", { name: "Lab", exact: true }).waitFor();

      await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: "shh" });
      await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages`, { content: "ping" });
      await channels.getByRole("button", { name: "general, unread", exact: true }).waitFor();
      await channelEntry(a, "general").click();
      await message(a, /^Bob ping$/).waitFor();
      await servers.getByRole("button", { name: "Lab", exact: true }).waitFor();
      await channels.getByRole("button", { name: "quiet, muted", exact: true }).waitFor();
      expect(await channelEntry(a, "quiet").getAttribute("class")).not.toContain("unread");

      await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: `<@${aliceId}> look` });
      await channels.getByRole("button", { name: "quiet, muted, 1 mention", exact: true }).waitFor();
      await servers.getByRole("button", { name: "Lab, 1 mention", exact: true }).waitFor();
      expect(await channelEntry(a, "quiet").getAttribute("class")).not.toContain("unread");
    } finally {
      await alice.context.close();
    }
  }, 40_000);
});
