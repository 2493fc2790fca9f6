/**
 * What one server's search and marks leave behind when the person moves on: the search's
 * words and results stay with the server they were asked in (switching servers does not
 * show Lab's results over Den's log, whose "More results" would have asked Den), and the
 * tab title's mention count forgets a channel deleted with its mention unread; and the
 * count follows edits and deletes of unread messages live, as a reload would count them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { channelEntry, count, launch, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      { name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "random" }, { name: "quiet" }] },
      { name: "Den", owner: "alice", members: ["bob"], channels: [{ name: "lounge" }] },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("moving between servers", () => {
  test("a search's words and results stay with the server they were asked in", async () => {
    await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.general)}/messages`, { content: "apple pie" });
    await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Den.channels.lounge)}/messages`, { content: "apple tart" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const box = a.getByRole("searchbox", { name: "Search" });
      await box.fill("apple");
      await box.press("Enter");
      const results = a.getByRole("region", { name: "Search results" });
      await results.getByRole("article", { name: /Bob apple pie/ }).waitFor();
      await a
        .getByRole("navigation", { name: "Servers" })
        .getByRole("button", { name: /^Den\b/ })
        .click();
      await a.getByRole("textbox", { name: "Message #lounge" }).waitFor();
      await count(a.getByRole("region", { name: "Search results" }), 0);
      expect(await a.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("");
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a channel deleted with a mention unread no longer counts in the tab's title", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).waitFor();
      const random = s.id(s.world.guilds.Lab.channels.random);
      await s.as("bob", "POST", `/channels/${random}/messages`, { content: `<@${s.id(s.world.users.alice.id)}> look` });
      await a.waitForFunction(() => document.title === "(1) #general · Parley");
      await s.as("alice", "DELETE", `/channels/${random}`);
      await count(channelEntry(a, "random"), 0);
      await a.waitForFunction(() => document.title === "#general · Parley");
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("mention counts of unread messages", () => {
  test("follow an edit that adds a mention and a delete of one, live as after a reload", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("textbox", { name: "Message #general" }).waitFor();
      const quiet = s.id(s.world.guilds.Lab.channels.quiet);
      const mention = `<@${s.id(s.world.users.alice.id)}>`;
      const plain = await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: "hello" });
      await channelEntry(a, "quiet").waitFor();
      expect(await a.title()).toBe("#general · Parley");
      await s.as("bob", "PATCH", `/channels/${quiet}/messages/${plain.id}`, { content: `${mention} hello` });
      await a.waitForFunction(() => document.title === "(1) #general · Parley");
      const again = await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: `${mention} again` });
      await a.waitForFunction(() => document.title === "(2) #general · Parley");
      await s.as("bob", "DELETE", `/channels/${quiet}/messages/${again.id}`);
      await a.waitForFunction(() => document.title === "(1) #general · Parley");
      await a.reload();
      await a.getByRole("textbox", { name: "Message #general" }).waitFor();
      await a.waitForFunction(() => document.title === "(1) #general · Parley");
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
