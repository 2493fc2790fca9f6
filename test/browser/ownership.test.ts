/**
 * Giving a server away from Server settings: the owner confirms, then reads who owns it
 * now (the Ownership card, theirs no more, stays to say so) and keeps a focused control;
 * the new owner's open page offers them Transfer ownership and Delete server at once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launch, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["carol"],
        // Alice keeps Manage Server once the server is Carol's, so Overview stays hers to see.
        roles: [{ name: "Admins", permissions: ["MANAGE_GUILD", "SEND_MESSAGES"], members: ["alice"] }],
        channels: [{ name: "general" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

async function openOverview(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Overview", exact: true }).click();
}

test("the owner who gives the server away is told who owns it now; the new owner is offered its deletion live", async () => {
  const alice = await signIn(browser, s.base, "alice");
  const carol = await signIn(browser, s.base, "carol");
  try {
    const a = alice.page;
    const c = carol.page;
    await openOverview(a);
    await c.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
    await a.getByRole("combobox", { name: "New owner" }).selectOption({ label: "Carol" });
    await a.getByRole("button", { name: "Transfer ownership" }).click();
    await a.getByRole("dialog", { name: "Give Lab to Carol?" }).getByRole("button", { name: "Transfer ownership" }).click();
    await a.getByRole("status").filter({ hasText: "Carol now owns Lab." }).waitFor();
    expect(await a.getByRole("button", { name: "Delete server" }).count()).toBe(0);
    expect(await a.evaluate(() => document.activeElement !== document.body)).toBe(true);
    await c.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Overview", exact: true }).click();
    await c.getByRole("button", { name: "Delete server" }).waitFor();
  } finally {
    await alice.context.close();
    await carol.context.close();
  }
}, 30_000);
