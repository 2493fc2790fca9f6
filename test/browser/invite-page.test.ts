/**
 * An invite page left open while the invite runs out: someone else used its last use (or
 * it expired, or was revoked), and "Accept invite" then says in words that the invite no
 * longer works, as the page does for a dead link, instead of the server's "Unknown
 * invite" under a server one can no longer accept; focus goes to the page's heading.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { count, launch, openAs, serve, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }, { name: "erin" }, { name: "frank" }],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("an invite page", () => {
  test("its invite used up meanwhile: Accept says it no longer works, in words, and offers nothing more", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    const invite = await s.as("alice", "POST", `/channels/${general}/invites`, { max_uses: 1 });
    const erin = await openAs(browser, s.base, `/invite/${invite.code}`, "erin");
    try {
      const page = erin.page;
      await page.getByRole("heading", { name: "You are invited to Lab" }).waitFor();
      await s.as("frank", "POST", `/invites/${invite.code}`);
      await page.getByRole("button", { name: "Accept invite" }).click();
      await page.getByRole("alert").filter({ hasText: "This invite is invalid or has expired." }).waitFor();
      await count(page.getByRole("button", { name: "Accept invite" }), 0);
      const heading = page.getByRole("heading", { name: "Invite", exact: true });
      await until("focus is on the heading", () => heading.evaluate((el) => el === document.activeElement));
      expect(await page.getByText("Unknown invite").count()).toBe(0);
    } finally {
      await erin.context.close();
    }
  }, 30_000);
});
