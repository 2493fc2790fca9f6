/**
 * Following a conversation in the web client (issue 28), two people in two browsers:
 * pins ("Pin", the notice, "Pinned messages" with "Jump"), search ("Search", the region
 * "Search results", "Jump", which shows the message found, in another channel too), links ("Copy link", opening one marks the message), a draft
 * per channel through a switch and a reload, and the tab title's mention count.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { act, actionsOf, channelEntry, count, launch, message, serve, signIn, until, type Served } from "./support";

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
  // History enough that a linked or found message is out of the first page.
  const general = s.id(s.world.guilds.Lab.channels.general);
  const bob = s.id(s.world.users.bob.id);
  s.p.core.transaction(() => {
    s.p.core.people.send(bob, general, { content: "the old walrus remark" });
    for (let i = 0; i < 80; i++) s.p.core.people.send(bob, general, { content: `filler ${i}` });
    const random = s.id(s.world.guilds.Lab.channels.random);
    s.p.core.people.send(bob, random, { content: "the ancient needle" });
    for (let i = 0; i < 80; i++) s.p.core.people.send(bob, random, { content: `hay ${i}` });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("following a conversation", () => {
  test("pin a message: the other person sees the notice and finds it under Pinned messages, and Jump shows it", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const b = bob.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("meeting notes: keep these");
      await a.keyboard.press("Enter");
      await act(message(a, /meeting notes/), "Pin");
      await message(b, /Alice pinned a message/).waitFor();
      await until("Pin turns to Unpin", async () => (await actionsOf(message(a, /meeting notes/))).includes("Unpin"));
      // Bob may not pin here: no Pin for him.
      expect(await actionsOf(message(b, /meeting notes/))).not.toContain("Pin");
      await b.getByRole("button", { name: "Pinned messages" }).click();
      const dialog = b.getByRole("dialog", { name: "Pinned messages" });
      await dialog.getByRole("article", { name: /Alice meeting notes/ }).waitFor();
      await dialog.getByRole("button", { name: "Jump" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await message(b, /meeting notes/).getAttribute("aria-current")).toBe("true");
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("search finds an old message by words and from:, in a region of results, and Jump loads history back to it", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("searchbox", { name: "Search" });
      await box.fill("walrus from:bob");
      await box.press("Enter");
      const results = b.getByRole("region", { name: "Search results" });
      const hit = results.getByRole("article", { name: /Bob the old walrus remark/ });
      await hit.waitFor();
      expect(await results.getByRole("article").count()).toBe(1);
      await box.fill("walrus from:alice");
      await box.press("Enter");
      await results.getByText("No results.").waitFor();
      await box.fill("walrus");
      await box.press("Enter");
      await hit.getByRole("button", { name: "Jump" }).click();
      const found = message(b, /the old walrus remark/);
      await found.waitFor();
      expect(await found.getAttribute("aria-current")).toBe("true");
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Jump to a found message in another channel shows it, and keeps it in sight as new messages come", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("searchbox", { name: "Search" });
      await box.fill("needle");
      await box.press("Enter");
      await b.getByRole("region", { name: "Search results" }).getByRole("button", { name: "Jump" }).click();
      const found = message(b, /the ancient needle$/);
      await found.waitFor();
      const inSight = () =>
        found.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const log = el.closest("[role=log]")!.getBoundingClientRect();
          return r.top >= log.top - 1 && r.bottom <= log.bottom + 1;
        });
      await until("the found message is in sight", inSight);
      await s.as("alice", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.random)}/messages`, { content: "something new" });
      await b.getByRole("button", { name: "Jump to present" }).waitFor();
      expect(await inSight()).toBe(true);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("more results than a page: More results shows the next ones, focus on the first of them, until all are shown", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const box = b.getByRole("searchbox", { name: "Search" });
      await box.fill("filler");
      await box.press("Enter");
      const results = b.getByRole("region", { name: "Search results" });
      await results.getByText("80 results").waitFor();
      await count(results.getByRole("article"), 25);
      const more = results.getByRole("button", { name: "More results" });
      await more.press("Enter");
      await count(results.getByRole("article"), 50);
      // Newest first: the 26th is "filler 54", and the keyboard goes on from it.
      await until("focus on the first new result", () =>
        results
          .getByRole("article", { name: "Bob filler 54" })
          .getByRole("button", { name: "Jump" })
          .evaluate((el) => el === document.activeElement),
      );
      await more.click();
      await count(results.getByRole("article"), 75);
      await more.click();
      await count(results.getByRole("article"), 80);
      await results.getByRole("article", { name: "Bob filler 0" }).waitFor();
      expect(await more.count()).toBe(0);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("Copy link copies the message's address; opening it elsewhere loads the channel around it and marks it", async () => {
    const alice = await signIn(browser, s.base, "alice", {
      prepare: (c) => c.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.base }),
    });
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).fill("link to me");
      await a.keyboard.press("Enter");
      await act(message(a, /link to me/), "Copy link");
      await a.getByRole("status").filter({ hasText: "Link copied." }).waitFor();
      const link = await a.evaluate(() => navigator.clipboard.readText());
      const sent = (await s.as("alice", "GET", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages?limit=1`))[0];
      expect(new URL(link).pathname).toBe(`/channels/${s.id(s.world.guilds.Lab.id)}/${sent.channel_id}/${sent.id}`);
      const old = (await s.as("alice", "GET", `/guilds/${s.id(s.world.guilds.Lab.id)}/messages/search?content=walrus`)).messages[0];
      const other = await alice.context.newPage();
      await other.goto(`${s.base}/channels/${s.id(s.world.guilds.Lab.id)}/${old.channel_id}/${old.id}`);
      const marked = message(other, /the old walrus remark/);
      await marked.waitFor();
      expect(await marked.getAttribute("aria-current")).toBe("true");
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a half-typed message stays with its channel through a switch and a reload; sending clears it", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await b.getByRole("textbox", { name: "Message #general" }).fill("half a thought");
      await channelEntry(b, "random").click();
      const random = b.getByRole("textbox", { name: "Message #random" });
      await random.waitFor();
      expect(await random.inputValue()).toBe("");
      await channelEntry(b, "general").click();
      expect(await b.getByRole("textbox", { name: "Message #general" }).inputValue()).toBe("half a thought");
      await b.reload();
      const general = b.getByRole("textbox", { name: "Message #general" });
      await general.waitFor();
      await b.waitForFunction(() => (document.querySelector("textarea") as HTMLTextAreaElement | null)?.value === "half a thought");
      await b.keyboard.press("End");
      await general.press("Enter");
      await message(b, /half a thought/).waitFor();
      await b.reload();
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
      expect(await b.getByRole("textbox", { name: "Message #general" }).inputValue()).toBe("");
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("the tab title starts with the unread mention count", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "random").click();
      await b.getByRole("textbox", { name: "Message #random" }).waitFor();
      await b.waitForFunction(() => document.title === "#random · Parley");
      await s.as("alice", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages`, {
        content: `<@${s.id(s.world.users.bob.id)}> look`,
      });
      await b.waitForFunction(() => document.title === "(1) #random · Parley");
      await channelEntry(b, "general").click();
      await b.waitForFunction(() => document.title === "#general · Parley");
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
