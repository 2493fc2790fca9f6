/**
 * Developer mode (User settings → Advanced): "Copy server ID", "Copy channel ID", "Copy
 * message ID" and "Copy user ID" put on the clipboard the very ids a bot meets for them
 * (read here through the bot API with the bot's own token). Off by default, and one
 * person's choice is theirs alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { act, actionsOf, launch, message, PASSWORD, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
    applications: [{ name: "Helper", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** What the page said it copied, and what the clipboard holds. */
async function copied(page: Page, what: string): Promise<string> {
  const status = page.getByRole("status").filter({ hasText: `${what} ID copied: ` });
  await status.waitFor();
  const said = /copied: (\d+)/.exec((await status.textContent()) ?? "")?.[1];
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(said!);
  return said!;
}

async function setDeveloperMode(page: Page, on: boolean): Promise<void> {
  await page.getByRole("button", { name: "User settings" }).click();
  const dialog = page.getByRole("dialog", { name: "User settings" });
  await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Advanced" }).click();
  const box = dialog.getByRole("checkbox", { name: "Developer mode" });
  expect(await box.isChecked()).toBe(!on);
  await box.setChecked(on);
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("developer mode", () => {
  test("Copy ID gives the ids a bot sees for the server, the channel, a message and a person", async () => {
    const alice = await signIn(browser, s.base, "alice", {
      prepare: (c) => c.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.base }),
    });
    try {
      const a = alice.page;
      const nav = a.getByRole("navigation", { name: "Channels" });
      // Off by default: nothing to copy.
      expect(await nav.getByRole("button", { name: "Copy server ID" }).count()).toBe(0);
      await a.getByRole("textbox", { name: "Message #general" }).fill("which one is this?");
      await a.keyboard.press("Enter");
      expect(await actionsOf(message(a, /which one is this/))).not.toContain("Copy message ID");

      await setDeveloperMode(a, true);
      await nav.getByRole("button", { name: "Copy server ID" }).click();
      expect(await copied(a, "Server")).toBe(s.world.guilds.Lab.id);
      await a.getByRole("button", { name: "Copy channel ID" }).click();
      expect(await copied(a, "Channel")).toBe(s.world.guilds.Lab.channels.general);

      await act(message(a, /which one is this/), "Copy message ID");
      const messageId = await copied(a, "Message");
      const bot = await fetch(`${s.base}/api/v10/channels/${s.world.guilds.Lab.channels.general}/messages?limit=1`, {
        headers: { Authorization: `Bot ${s.world.applications.Helper.token}` },
      });
      expect(((await bot.json()) as { id: string }[])[0].id).toBe(messageId);

      await a.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Bob", exact: true }).click();
      const card = a.getByRole("dialog", { name: "Bob" });
      await card.getByRole("button", { name: "Copy user ID" }).click();
      expect(await copied(a, "User")).toBe(s.world.users.bob.id);
      await card.getByRole("button", { name: "Close" }).click();

      // Kept through a reload; off again, the buttons go.
      await a.reload();
      await nav.getByRole("button", { name: "Copy server ID" }).waitFor();
      await setDeveloperMode(a, false);
      await until("Copy server ID gone", async () => (await nav.getByRole("button", { name: "Copy server ID" }).count()) === 0);
      expect(await a.getByRole("button", { name: "Copy channel ID" }).count()).toBe(0);
    } finally {
      await alice.context.close();
    }
  }, 60_000);

  test("one person's developer mode is not another's in the same browser", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const page = alice.page;
      await setDeveloperMode(page, true);
      await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Copy server ID" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("textbox", { name: "Username" }).fill("bob");
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("textbox", { name: "Message #general" }).waitFor();
      expect(await page.getByRole("button", { name: "Copy server ID" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Copy channel ID" }).count()).toBe(0);
    } finally {
      await alice.context.close();
    }
  }, 60_000);
});
