/**
 * A phone-width screen (390 px, issue 28): one drawer open at a time, Escape or a tap
 * beside the drawer closes it, and the settings fit without sideways scrolling.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launch, serve, signIn, type Served } from "./support";

const PHONE = { width: 390, height: 844 };

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
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const nav = (p: Page) => p.getByRole("navigation", { name: "Channels" });
const members = (p: Page) => p.getByRole("complementary", { name: "Members" });

/** How far the page (and the settings pane) can scroll sideways, in pixels. */
function sideways(page: Page): Promise<number> {
  return page.evaluate(() => {
    const doc = document.scrollingElement!;
    return doc.scrollWidth - doc.clientWidth;
  });
}

describe("a phone-width screen", () => {
  test("one drawer at a time; Escape or a tap beside it closes it", async () => {
    const bob = await signIn(browser, s.base, "bob", { viewport: PHONE });
    try {
      const b = bob.page;
      await b.getByRole("button", { name: "Menu" }).click();
      await nav(b).waitFor();
      // Opening the members closes the navigation.
      await b.getByRole("button", { name: "Members" }).click();
      await members(b).waitFor();
      expect(await nav(b).isVisible()).toBe(false);
      expect(await b.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
      // And the other way round.
      await b.getByRole("button", { name: "Menu" }).click();
      await nav(b).waitFor();
      expect(await members(b).isVisible()).toBe(false);
      await b.keyboard.press("Escape");
      await nav(b).waitFor({ state: "hidden" });
      // A tap beside the members drawer (its left quarter shows the page behind) closes it.
      await b.getByRole("button", { name: "Members" }).click();
      await members(b).waitFor();
      await b.mouse.click(20, 400);
      await members(b).waitFor({ state: "hidden" });
      // A tap beside the navigation closes it too.
      await b.getByRole("button", { name: "Menu" }).click();
      await nav(b).waitFor();
      await b.mouse.click(PHONE.width - 10, 400);
      await nav(b).waitFor({ state: "hidden" });
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("server and user settings fit 390 px without sideways scrolling", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE });
    try {
      const a = alice.page;
      expect(await sideways(a)).toBeLessThanOrEqual(0);
      await a.getByRole("button", { name: "Menu" }).click();
      await nav(a).getByRole("button", { name: "Server settings" }).click();
      await a.getByRole("heading", { name: "Server settings" }).waitFor();
      for (const section of ["Overview", "Roles", "Emoji"]) {
        const entry = a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true });
        if (await entry.count()) await entry.click();
        expect(await sideways(a)).toBeLessThanOrEqual(0);
      }
      await a.getByRole("button", { name: "Menu" }).click();
      await nav(a).getByRole("button", { name: "User settings" }).click();
      await a
        .getByRole("dialog", { name: "User settings" })
        .or(a.getByRole("heading", { name: "User settings" }))
        .first()
        .waitFor();
      expect(await sideways(a)).toBeLessThanOrEqual(0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
