/**
 * The accessibility sweep of end-to-end encrypted DMs (axe-support.ts, e2e-support.ts):
 * the list of conversations, a DM both people wrote in, its safety number open, and the
 * same on a phone. Checked at 1280 and 390 px with axe's WCAG 2.1 A and AA rules.
 */
import { afterAll, beforeAll, describe, test } from "bun:test";
import type { Browser } from "playwright-core";
import { channelEntry, launch, message, signIn } from "./support";
import { devicesOf, serveChild, type ChildServer } from "./e2e-support";
import { sweep } from "./axe-support";

let browser: Browser;
let s: ChildServer;

beforeAll(async () => {
  s = await serveChild({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.stop();
  s?.remove();
});

describe("accessibility: end-to-end encrypted DMs", () => {
  test("the conversations, a DM with messages both ways, its safety number", async () => {
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      await devicesOf(s, "alice", 1);
      await devicesOf(s, "bob", 1);
      const bobId = (await s.as("bob", "GET", "/users/@me")).id;
      await s.as("alice", "POST", "/users/@me/dms", { recipient_id: bobId });
      for (const [p, other] of [
        [alice.page, "Bob"],
        [bob.page, "Alice"],
      ] as const) {
        await p.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Direct messages" }).click();
        await channelEntry(p, other).waitFor();
        if (p === alice.page) await a11y.check(p, "the conversations");
        await channelEntry(p, other).click();
        const box = p.getByRole("textbox", { name: `Message @${other}` });
        await box.fill(`hello ${other}`);
        await box.press("Enter");
        await message(p, new RegExp(`hello ${other}$`)).waitFor();
      }
      const a = alice.page;
      await message(a, /^Bob hello Alice$/).waitFor();
      await a11y.check(a, "a DM with messages both ways");
      await a.getByRole("region", { name: "Encryption" }).getByRole("button", { name: "Safety number" }).click();
      await a.getByRole("region", { name: "Safety number" }).waitFor();
      await a11y.check(a, "a DM's safety number");
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
    a11y.clean();
  }, 60_000);
});
