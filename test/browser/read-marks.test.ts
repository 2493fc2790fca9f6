/**
 * What marks a channel read: only what the person had on screen. A message that arrives
 * while the tab is hidden stays unread (and counted in the tab's title) until the person
 * comes back to the tab, and then it is read at once; a message that arrives in a
 * channel the person has just left stays unread, even when the mark of what they saw
 * there is still waiting for its turn. "Mark unread" on someone's message moves the mark
 * back to just before it, and nothing reads the channel again until it is opened anew.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { act, actionsOf, channelEntry, launch, message, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "random" }] }],
  });
  // Something to have read in #general before each test's messages arrive.
  await s.as("alice", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages`, { content: "hello" });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const general = () => s.id(s.world.guilds.Lab.channels.general);
const say = (content: string) => s.as("alice", "POST", `/channels/${general()}/messages`, { content });
const readState = async (user: string) =>
  ((await s.as(user, "GET", "/users/@me/read-states")) as { channel_id: string; unread: boolean; mention_count: number }[]).find(
    (r) => r.channel_id === general(),
  )!;

/**
 * A headless tab is always shown: this one is told it was hidden (another tab in front)
 * or shown again, as the browser tells a page when its tab changes.
 */
async function tabShown(page: Page, shown: boolean): Promise<void> {
  await page.evaluate((shown) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (shown ? "visible" : "hidden") });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => !shown });
    document.dispatchEvent(new Event("visibilitychange"));
  }, shown);
}

describe("read marks", () => {
  test("a mention that arrives in the open channel while the tab is hidden is read once the tab shows again", async () => {
    // The page's clock: a mark waiting its turn (at most one every 2 s) comes when the test says.
    const bob = await signIn(browser, s.base, "bob", { prepare: (c) => c.clock.install() });
    try {
      const b = bob.page;
      await b.waitForFunction(() => document.title === "#general · Parley");
      await b.clock.runFor(3000);
      await tabShown(b, false);
      await say(`are you there, <@${s.id(s.world.users.bob.id)}>?`);
      await message(b, /are you there, @Bob\?/).waitFor();
      await b.waitForFunction(() => document.title === "(1) #general · Parley");
      // Unseen, it stays unread, whatever mark comes meanwhile.
      await b.clock.runFor(3000);
      expect((await readState("bob")).mention_count).toBe(1);

      await tabShown(b, true);
      // Back on the tab, looking at the message: nothing is waiting anywhere.
      await b.waitForFunction(() => document.title === "#general · Parley");
      await b.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab", exact: true }).waitFor();
      expect(await readState("bob")).toMatchObject({ unread: false, mention_count: 0 });
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a message that arrives after the person left the channel stays unread, though the mark of what they saw comes later", async () => {
    const bob = await signIn(browser, s.base, "bob", { prepare: (c) => c.clock.install() });
    try {
      const b = bob.page;
      await b.waitForFunction(() => document.title === "#general · Parley");
      const marked = () => b.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`/channels/${general()}/read`));
      // Time stands still from here but for the test's steps, each well inside the 2 s between marks.
      await b.clock.pauseAt(await b.evaluate(() => Date.now() + 100));
      await b.clock.runFor(3000);
      let mark = marked();
      await say("the first news");
      await message(b, /the first news/).waitFor();
      await b.clock.runFor(200);
      await mark;
      // Seen too, but marked only after its turn comes.
      await say("the second news");
      await message(b, /the second news/).waitFor();
      await b.clock.runFor(200);

      await channelEntry(b, "random").click();
      await b.getByRole("textbox", { name: "Message #random" }).waitFor();
      await b.clock.runFor(200);
      await say("the third news");
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /unread/ }))
        .waitFor();

      // The waiting mark comes: it covers "the second news", which Bob saw, and not "the third news".
      mark = marked();
      await b.clock.runFor(3000);
      await mark;
      await b.clock.resume();
      expect(await readState("bob")).toMatchObject({ unread: true });
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /unread/ }))
        .waitFor();
      await channelEntry(b, "general").click();
      await b.getByRole("log").getByRole("separator", { name: "New messages" }).waitFor();
      const after = await b.getByRole("log").getByRole("article").allTextContents();
      expect(after.findIndex((t) => t.includes("the third news"))).toBe(after.length - 1);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Mark unread on someone's message: unread from there, in the channel list too, until the channel is opened again", async () => {
    const first = await say("the plan, part one");
    await say(`part two, <@${s.id(s.world.users.bob.id)}>`);
    await say("part three");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await message(b, /part three/).waitFor();
      await until("all read", async () => !(await readState("bob")).unread);
      // One's own messages offer no Mark unread.
      await b.getByRole("textbox", { name: "Message #general" }).fill("noted");
      await b.keyboard.press("Enter");
      expect(await actionsOf(message(b, /^Bob noted/))).not.toContain("Mark unread");

      await act(message(b, /part two/), "Mark unread");
      const log = b.getByRole("log");
      await log.getByRole("separator", { name: "New messages" }).waitFor();
      // The line sits right above the message marked, and the channel is unread, its mention counted.
      // (The line may first stand where the channel's opening put it, above part one: it moves.)
      const after = () =>
        log.getByRole("separator", { name: "New messages" }).evaluate((sep) => {
          const articles = Array.from(sep.closest("[role=log]")?.querySelectorAll("article") ?? []);
          return articles.find((a) => sep.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING)?.textContent ?? "";
        });
      await until("New messages above part two", async () => (await after()).includes("part two"));
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /unread, 1 mention/ }))
        .waitFor();
      expect(await readState("bob")).toMatchObject({ unread: true, mention_count: 1 });
      expect((await readState("bob")) as unknown).toMatchObject({ last_read_id: first.id });
      // Still looking at it: a new message does not mark it read again.
      await say("part four");
      await message(b, /part four/).waitFor();
      await Bun.sleep(300);
      expect(await readState("bob")).toMatchObject({ unread: true });
      // Nor does a click on the channel one is in (past the 2 s a mark may wait for its turn).
      await channelEntry(b, "general").click();
      await Bun.sleep(2500);
      expect(await readState("bob")).toMatchObject({ unread: true });

      // Another channel, then back: read again, as opening a channel reads it.
      await channelEntry(b, "random").click();
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /unread/ }))
        .waitFor();
      await channelEntry(b, "general").click();
      await until("read on opening", async () => !(await readState("bob")).unread);

      // The server's Mark as read reads it too, and from then on the open channel reads what comes.
      await act(message(b, /part three/), "Mark unread");
      await b.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Mark as read" }).click();
      await until("read by Mark as read", async () => !(await readState("bob")).unread);
      await say("part five");
      await message(b, /part five/).waitFor();
      await until("part five read where it shows", async () => !(await readState("bob")).unread);
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});

describe("a server's Mark as read", () => {
  test("offered while channels of the server are marked; it clears them all, the server's entry and the tab's title too", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "random").click();
      await b.getByRole("textbox", { name: "Message #random" }).waitFor();
      const channels = b.getByRole("navigation", { name: "Channels" });
      const markAll = channels.getByRole("button", { name: "Mark as read" });
      expect(await markAll.count()).toBe(0);
      const bobId = s.world.users.bob.id;
      await say(`<@${s.id(bobId)}> look at this`);
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /unread, 1 mention/ }))
        .waitFor();
      await b.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab, 1 mention" }).waitFor();

      // By keyboard: the button goes with the marks, and focus stays beside it.
      await markAll.focus();
      await b.keyboard.press("Enter");
      await channelEntry(b, "general")
        .and(b.getByRole("button", { name: /^general$/ }))
        .waitFor();
      await b.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab", exact: true }).waitFor();
      await b.waitForFunction(() => document.title === "#random · Parley");
      await markAll.waitFor({ state: "detached" });
      await b.waitForFunction(() => document.activeElement?.textContent === "Change nickname");
      expect(await readState("bob")).toMatchObject({ unread: false, mention_count: 0 });
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
