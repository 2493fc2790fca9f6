/**
 * A row's own button that takes its row off a list in Server settings (Unban, Revoke),
 * pressed by keyboard: focus goes on to the same button of the row that takes its place,
 * and when the list empties, to a control still near, never to the page's body.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { count, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "erin", global_name: "Erin" },
      { name: "frank", global_name: "Frank" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["erin", "frank"], channels: [{ name: "general" }] }],
  });
  const lab = s.id(s.world.guilds.Lab.id);
  for (const who of ["erin", "frank"]) await s.as("alice", "PUT", `/guilds/${lab}/bans/${s.id(s.world.users[who].id)}`, {});
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

async function openSection(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

function focused(l: Locator): Promise<void> {
  return until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));
}

const onBody = (page: Page) => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);

describe("a row's button that removes its row", () => {
  test("Unban: focus goes on to the next ban, then stays in the settings when none is left", async () => {
    const { context, page } = await signIn(browser, s.base, "alice");
    try {
      await openSection(page, "Bans");
      await page.getByRole("button", { name: "Unban Erin" }).focus();
      await page.keyboard.press("Enter");
      await count(page.getByRole("button", { name: "Unban Erin" }), 0);
      await focused(page.getByRole("button", { name: "Unban Frank" }));
      await page.keyboard.press("Enter");
      await page.getByText("Nobody is banned.").waitFor();
      await until("focus on a control again", async () => !(await onBody(page)));
      expect(await onBody(page)).toBe(false);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("Revoke: focus goes on to the next invite's Revoke", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    const first = await s.as("alice", "POST", `/channels/${general}/invites`, {});
    const second = await s.as("alice", "POST", `/channels/${general}/invites`, {});
    const { context, page } = await signIn(browser, s.base, "alice");
    try {
      await openSection(page, "Invites");
      const table = page.getByRole("table", { name: "Invite links" });
      await count(table.getByRole("button", { name: /^Revoke / }), 2);
      const [top, next] = (await table.getByRole("button", { name: /^Revoke / }).allTextContents()).map((t) => t.trim());
      expect([top, next].sort()).toEqual([`Revoke ${first.code}`, `Revoke ${second.code}`].sort());
      await table.getByRole("button", { name: top }).focus();
      await page.keyboard.press("Enter");
      await count(table.getByRole("button", { name: top }), 0);
      await focused(table.getByRole("button", { name: next }));
    } finally {
      await context.close();
    }
  }, 30_000);
});
