/**
 * Administration's privileged intents by keyboard: Approve, Deny and Revoke each take their
 * own row off its list, so focus goes on to the row that takes its place, and when the list
 * empties to a control still near, never to the page's body.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { count, launch, openAs, serve, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice", admin: true },
      { name: "bob", global_name: "Bob" },
    ],
    applications: [
      { name: "Echo", owner: "bob", intents: ["GUILDS"] },
      { name: "Greeter", owner: "bob", intents: ["GUILDS"] },
    ],
  });
  for (const app of ["Echo", "Greeter"])
    await s.as("bob", "POST", `/applications/${s.id(s.world.applications[app].id)}/privileged-requests`, { intents: ["MESSAGE_CONTENT"] });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const onBody = (page: Page) => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);
const focused = (l: Locator) => until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));

test("Approve and Revoke pressed by keyboard keep focus in the lists", async () => {
  const { context, page } = await openAs(browser, s.base, "/admin", "alice");
  try {
    await page.getByRole("navigation", { name: "Administration" }).getByRole("button", { name: "Privileged intents" }).click();
    const pending = page.getByRole("list", { name: "Pending requests" });
    await count(pending.getByRole("listitem"), 2);
    await pending.getByRole("listitem").first().getByRole("button", { name: "Approve" }).focus();
    await page.keyboard.press("Enter");
    await count(pending.getByRole("listitem"), 1);
    await focused(pending.getByRole("listitem").getByRole("button", { name: "Approve" }));
    await page.keyboard.press("Enter");
    await page.getByText("No request is waiting.").waitFor();
    await until("focus on a control again", async () => !(await onBody(page)));

    const approved = page.getByRole("list", { name: "Approved" });
    await count(approved.getByRole("listitem"), 2);
    await approved.getByRole("listitem").first().getByRole("button", { name: "Revoke" }).focus();
    await page.keyboard.press("Enter");
    await count(approved.getByRole("listitem"), 1);
    await focused(approved.getByRole("listitem").getByRole("button", { name: "Revoke" }));
    expect(await onBody(page)).toBe(false);
  } finally {
    await context.close();
  }
}, 30_000);
