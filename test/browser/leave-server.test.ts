/**
 * Leaving a server from its channel list: the page says so ("You left Lab."), shows the
 * next server as a reload would, keeps keyboard focus in the page, and the confirmation
 * asked for the server left never stays open for the server shown next.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { count, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      { name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] },
      { name: "Club", owner: "alice", members: ["bob"], channels: [{ name: "lobby" }] },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("leaving a server", () => {
  test("says so, shows the next server, and asks nothing about it", async () => {
    const { context, page } = await signIn(browser, s.base, "bob");
    try {
      await page.getByRole("textbox", { name: "Message #general" }).waitFor();
      await page.getByRole("button", { name: "Leave server" }).focus();
      await page.keyboard.press("Enter");
      const ask = page.getByRole("dialog", { name: "Leave Lab?" });
      await ask.getByRole("button", { name: "Leave server" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "You left Lab." }).waitFor();
      await page.getByRole("textbox", { name: "Message #lobby" }).waitFor();
      await count(page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab" }), 0);
      expect(await page.getByRole("dialog", { name: "Leave Club?" }).count()).toBe(0);
      await until("focus is on a control", () => page.evaluate(() => !!document.activeElement && document.activeElement !== document.body));
      expect(s.p.core.guilds.isMember(s.id(s.world.guilds.Lab.id), s.id(s.world.users.bob.id))).toBe(false);
    } finally {
      await context.close();
    }
  }, 30_000);
});
