/**
 * A phone-width screen (390 px, issue 28): one drawer open at a time, Escape or a tap
 * beside the drawer closes it, the settings and the portal fit without sideways
 * scrolling, and a message's actions sit behind a press and hold (or its one "More"
 * button), not a row of permanent buttons.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launch, message, openAs, serve, signIn, until, type Served } from "./support";

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
    applications: [{ name: "Echo", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  s.p.core.people.send(s.id(s.world.users.bob.id), s.id(s.world.guilds.Lab.channels.general), { content: "hold me" });
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

  test("Direct messages take the whole width under the bar, as a server's channel does", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE, touch: true });
    try {
      const a = alice.page;
      await a.getByRole("button", { name: "Menu" }).click();
      await a
        .getByRole("navigation", { name: "Servers" })
        .getByRole("button", { name: /^Direct messages/ })
        .click();
      await a.getByRole("heading", { name: "Parley", level: 1 }).waitFor();
      // The drawer that picked it closes (Escape, as a phone's back gesture would).
      await a.keyboard.press("Escape");
      await a.getByRole("navigation", { name: "Servers" }).waitFor({ state: "hidden" });
      const bar = (await a.getByRole("banner").boundingBox())!;
      const main = (await a.getByRole("main").boundingBox())!;
      expect({ x: bar.x, y: bar.y, width: bar.width }).toEqual({ x: 0, y: 0, width: PHONE.width });
      expect({ x: main.x, width: main.width, below: main.y >= bar.y + bar.height }).toEqual({ x: 0, width: PHONE.width, below: true });
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("the Menu button tells of mentions behind it, as the servers' entries do", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE, touch: true });
    try {
      const a = alice.page;
      await a.getByRole("heading", { name: "#general", level: 1 }).waitFor();
      await s.as("bob", "POST", `/channels/${s.id(s.world.guilds.Lab.channels.random)}/messages`, {
        content: `over here, <@${s.id(s.world.users.alice.id)}>`,
      });
      const menu = a.getByRole("banner").getByRole("button", { name: "Menu, 1 mention" });
      await menu.waitFor();
      expect(await menu.textContent()).toContain("1");
      await menu.click();
      await nav(a)
        .getByRole("button", { name: /^random/ })
        .click();
      await message(a, /over here, @Alice/).waitFor();
      await a.getByRole("banner").getByRole("button", { name: "Menu", exact: true }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("every section of Server settings fits 390 px: nothing cut off at the right, a wide table scrolls on its own", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE, touch: true });
    try {
      const a = alice.page;
      await a.getByRole("button", { name: "Menu" }).click();
      await nav(a).getByRole("button", { name: "Server settings" }).click();
      const settings = a.getByRole("region", { name: "Server settings" });
      const sections = settings.getByRole("navigation", { name: "Server settings" });
      for (const name of await sections.getByRole("button").allTextContents()) {
        await sections.getByRole("button", { name, exact: true }).click();
        if (name === "Invites") {
          await settings.getByRole("button", { name: "Create invite" }).click();
          await settings.getByRole("table", { name: "Invite links" }).getByRole("row").nth(1).waitFor();
        }
        // Every control a finger must reach lies on the screen; a table's may scroll with it.
        for (const role of ["button", "textbox", "combobox"] as const)
          for (const control of await settings.getByRole(role).all()) {
            if (!(await control.isVisible()) || (await control.evaluate((el) => !!el.closest("table")))) continue;
            const box = (await control.boundingBox())!;
            const what = `${name}: ${(await control.getAttribute("aria-label")) ?? (await control.textContent())}`;
            expect({ what, right: box.x + box.width <= PHONE.width }).toEqual({ what, right: true });
          }
      }
      // The invite's Revoke is in reach: the table scrolls sideways under the pointer (a swipe, a wheel), the page does not.
      await sections.getByRole("button", { name: "Invites", exact: true }).click();
      const table = settings.getByRole("table", { name: "Invite links" });
      const revoke = table.getByRole("button", { name: /^Revoke / });
      await table.scrollIntoViewIfNeeded();
      const at = (await table.boundingBox())!;
      await a.mouse.move(at.x + 40, at.y + at.height / 2);
      await a.mouse.wheel(600, 0);
      await until("Revoke scrolled into reach", async () => {
        const box = (await revoke.boundingBox())!;
        return box.x + box.width <= PHONE.width;
      });
      expect(await sideways(a)).toBeLessThanOrEqual(0);
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test("the developer portal fits 390 px without sideways scrolling", async () => {
    const alice = await openAs(browser, s.base, "/developers", "alice");
    try {
      const a = alice.page;
      await a.setViewportSize(PHONE);
      await a
        .getByRole("link", { name: "Echo" })
        .or(a.getByRole("button", { name: "Echo" }))
        .first()
        .click();
      await a.getByRole("heading", { name: "Echo" }).first().waitFor();
      expect(await sideways(a)).toBeLessThanOrEqual(0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a message's actions: one More button, and a press and hold opens its menu; a scroll does not", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE, touch: true });
    try {
      const a = alice.page;
      const held = message(a, /^Bob hold me$/);
      await held.waitFor();
      // No row of permanent buttons: beside its author's name (which opens their card), the message's one control is "More".
      expect(await held.getByRole("button").count()).toBe(2);
      expect(await held.getByRole("button", { name: "Bob", exact: true }).count()).toBe(1);
      expect(await held.getByRole("button", { name: "More" }).count()).toBe(1);

      const touch = await a.context().newCDPSession(a);
      const box = (await held.boundingBox())!;
      const at = { x: Math.round(box.x + 40), y: Math.round(box.y + box.height / 2) };
      const finger = (type: "touchStart" | "touchMove" | "touchEnd", p: { x: number; y: number } | null) =>
        touch.send("Input.dispatchTouchEvent", { type, touchPoints: p ? [p] : [] });
      const menu = held.getByRole("menu", { name: "More" });

      // A finger that moves (a scroll) before the hold completes opens nothing.
      await finger("touchStart", at);
      for (let dy = 5; dy <= 60; dy += 5) await finger("touchMove", { x: at.x, y: at.y - dy });
      await Bun.sleep(800);
      await finger("touchEnd", null);
      expect(await menu.count()).toBe(0);

      // A finger that rests opens the menu with the message's actions.
      await finger("touchStart", at);
      await menu.waitFor();
      await finger("touchEnd", null);
      expect(await menu.getByRole("menuitem").allTextContents()).toEqual([
        "Reply",
        "Add reaction",
        "Delete",
        "Pin",
        "Mark unread",
        "Copy link",
      ]);
      await menu.getByRole("menuitem", { name: "Reply" }).tap();
      await menu.waitFor({ state: "detached" });
      await a.getByRole("button", { name: "Cancel reply" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
