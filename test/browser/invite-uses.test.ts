/**
 * The invite list in Server settings follows the people who join while it is open: an
 * invite's uses count up without reloading the page.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "dave", global_name: "Dave" },
    ],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("someone joining through a listed invite counts it up in the open list", async () => {
  const alice = await signIn(browser, s.base, "alice");
  try {
    const a = alice.page;
    await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
    await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Invites", exact: true }).click();
    await a.getByRole("combobox", { name: "Max uses" }).selectOption({ label: "5 uses" });
    await a.getByRole("button", { name: "Create invite" }).click();
    const code = new URL(await a.getByRole("textbox", { name: "Invite link" }).inputValue()).pathname.split("/").pop()!;
    const row = a.getByRole("table", { name: "Invite links" }).getByRole("row").filter({ hasText: code });
    await row.getByRole("cell", { name: "0 of 5", exact: true }).waitFor();
    await s.as("dave", "POST", `/invites/${code}`);
    await row.getByRole("cell", { name: "1 of 5", exact: true }).waitFor();
    expect(await row.getByRole("button", { name: `Revoke ${code}` }).count()).toBe(1);
  } finally {
    await alice.context.close();
  }
}, 30_000);
