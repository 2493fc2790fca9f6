/**
 * The chat by keyboard alone (issue 28): from the top of the page in a 50-message
 * channel, Tab reaches the composer in under 10 presses, because the log is one tab stop;
 * arrow keys, Home, End and Page Up/Down move between messages, Up past the first loaded
 * message loads older ones; a message's actions are in its "More" menu (menu button
 * pattern), which Enter opens on a focused message; E edits one's own. A spoiler is a
 * button that Enter opens, its words then read in its place.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { channelEntry, launch, message, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "archive" }, { name: "spoilers" }] }],
  });
  const alice = s.id(s.world.users.alice.id);
  const bob = s.id(s.world.users.bob.id);
  const general = s.id(s.world.guilds.Lab.channels.general);
  const archive = s.id(s.world.guilds.Lab.channels.archive);
  const spoilers = s.id(s.world.guilds.Lab.channels.spoilers);
  s.p.core.transaction(() => {
    // Fifty messages, each with a link of its own (a control inside the message), and a reaction on some.
    for (let i = 0; i < 50; i++) {
      const m = s.p.core.people.send(i % 2 ? bob : alice, general, { content: `note ${i} see https://example.test/${i}` });
      if (i % 5 === 0) s.p.core.reactions.add(bob, m.id, { name: "👍", id: null });
    }
    // More than one page (50), so Up past the top has older messages to load.
    for (let i = 0; i < 60; i++) s.p.core.people.send(bob, archive, { content: `old ${i}` });
    s.p.core.people.send(bob, spoilers, { content: "it was ||the butler|| all along" });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Whether the element is the one with focus. */
function hasFocus(l: Locator): Promise<boolean> {
  return l.evaluate((el) => el === document.activeElement).catch(() => false);
}

/** The focused element's tag and name. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return `${el?.tagName} ${el?.getAttribute("aria-label") ?? el?.textContent?.slice(0, 40) ?? ""}`;
  });
}

/** The focused message in the log must be the one whose name matches. */
async function onMessage(page: Page, text: RegExp): Promise<void> {
  await until(`focus on ${text}`, () => hasFocus(message(page, text)));
}

/** Shift+Tab from the composer, past "Attach files" and the message's own controls, into the log. */
async function backIntoLog(page: Page, composer: string): Promise<void> {
  await page.getByRole("textbox", { name: composer }).focus();
  for (let i = 0; i < 5 && !(await focusedText(page)).startsWith("ARTICLE"); i++) await page.keyboard.press("Shift+Tab");
}

/** Focus at the very start of the document, as after loading it, so the next Tab goes to its first control. */
async function fromTheTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const body = document.body;
    body.setAttribute("tabindex", "-1");
    body.focus();
    body.removeAttribute("tabindex");
  });
}

describe("the chat by keyboard", () => {
  test("from the top of a 50-message channel, one Tab and Enter reach the composer; Tab alone passes the log as one stop", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /note 49/).waitFor();
      const composer = a.getByRole("textbox", { name: "Message #general" });
      // The first stop skips the navigation and the channel's tools.
      await fromTheTop(a);
      await a.keyboard.press("Tab");
      const skip = a.getByRole("button", { name: "Skip to the composer" });
      expect(await hasFocus(skip)).toBe(true);
      await a.keyboard.press("Enter");
      await until("composer focused", () => hasFocus(composer));

      // Without the skip button, Tab alone: the 50 messages are one stop (the newest), plus that one message's own controls.
      await fromTheTop(a);
      const path: { text: string; inLog: boolean }[] = [];
      while (!(await hasFocus(composer)) && path.length < 40) {
        await a.keyboard.press("Tab");
        path.push(
          await a.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            return {
              text: `${el.tagName} ${el.getAttribute("aria-label") ?? el.textContent?.slice(0, 30)}`,
              inLog: !!el.closest('[role="log"]'),
            };
          }),
        );
      }
      const inLog = path.filter((p) => p.inLog).map((p) => p.text);
      expect(inLog.filter((t) => t.startsWith("ARTICLE"))).toHaveLength(1);
      expect(inLog[0]).toMatch(/note 49/);
      // Its author's name (their card), its link and its "More" button, nothing of the other 49 messages.
      expect(inLog.slice(1)).toEqual(["BUTTON Bob", "A https://example.test/49", "BUTTON More"]);
      expect(await hasFocus(composer)).toBe(true);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("signing in starts in the open channel's message box, not on the page's body", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      await until("composer focused", () => hasFocus(alice.page.getByRole("textbox", { name: "Message #general" })));
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("arrow keys, Home, End and Page Up/Down move between messages; Up past the top loads older ones", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /note 49/).waitFor();
      // Back from the composer, the log's one stop is the newest message.
      await backIntoLog(a, "Message #general");
      await onMessage(a, /note 49/);
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /note 48/);
      await a.keyboard.press("ArrowDown");
      await onMessage(a, /note 49/);
      await a.keyboard.press("Home");
      await onMessage(a, /note 0 /);
      await a.keyboard.press("PageDown");
      const below = await focusedText(a);
      expect(await hasFocus(message(a, /note 0 /))).toBe(false);
      expect(await hasFocus(message(a, /note 49/))).toBe(false);
      await a.keyboard.press("PageUp");
      await onMessage(a, /note 0 /);
      await a.keyboard.press("End");
      await onMessage(a, /note 49/);
      expect(below).toMatch(/^ARTICLE/);

      // Tab leaves the log for the composer, and Shift+Tab comes back to the message last focused.
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /note 48/);
      const composer = a.getByRole("textbox", { name: "Message #general" });
      for (let i = 0; i < 5 && !(await hasFocus(composer)); i++) await a.keyboard.press("Tab");
      expect(await hasFocus(composer)).toBe(true);
      for (let i = 0; i < 5 && !(await focusedText(a)).startsWith("ARTICLE"); i++) await a.keyboard.press("Shift+Tab");
      await onMessage(a, /note 48/);

      // In a channel longer than a page, Up past the first loaded message loads older ones and goes on.
      await channelEntry(a, "archive").click();
      await message(a, /old 59/).waitFor();
      expect(await message(a, /^Bob old 9$/).count()).toBe(0);
      await backIntoLog(a, "Message #archive");
      await onMessage(a, /old 59/);
      await a.keyboard.press("Home");
      await onMessage(a, /^Bob old 10$/);
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /^Bob old 9$/);
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /^Bob old 8$/);
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test("Up at the top while the older page the scroll asked for is on its way goes on into it once it is in", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "archive").click();
      await message(a, /old 59/).waitFor();
      await backIntoLog(a, "Message #archive");
      // The older page comes late: Home scrolls the log to its top, which asks for it first.
      let asked = 0;
      await a.route(/\/channels\/[^/]+\/messages\?.*before=/, async (route) => {
        asked++;
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await a.keyboard.press("Home");
      await onMessage(a, /^Bob old 10$/);
      await until("the scroll to ask for the older page", async () => asked > 0);
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /^Bob old 9$/);
      expect(asked).toBe(1);
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test("a message the arrow keys reach is scrolled into view and stays there, the log no longer held at the bottom", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /note 49/).waitFor();
      await backIntoLog(a, "Message #general");
      await onMessage(a, /note 49/);
      for (let i = 0; i < 15; i++) await a.keyboard.press("ArrowUp");
      await onMessage(a, /note 34/);
      // Given time to settle: the log once scrolled to the message, then straight back to the bottom.
      await a.waitForTimeout(400);
      const shown = await message(a, /note 34/).evaluate((el) => {
        const log = el.closest("[role=log]")!.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return r.bottom > log.top && r.top < log.bottom;
      });
      expect(shown).toBe(true);
      await a.getByRole("button", { name: "Jump to present" }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test("a click on a message a little above the bottom leaves the log where it is", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /note 49/).waitFor();
      const log = a.getByRole("log");
      // Within a line of the bottom, which still counts as at the bottom (follow.tsx).
      const at = await log.evaluate(async (el) => {
        el.scrollTop = el.scrollHeight - el.clientHeight - 20;
        await new Promise((r) => setTimeout(r, 200));
        return el.scrollTop;
      });
      await message(a, /note 48/).click();
      await onMessage(a, /note 48/);
      await a.waitForTimeout(300);
      // The click's re-render once took the log to the very bottom, moving what was under the pointer.
      expect(await log.evaluate((el) => el.scrollTop)).toBe(at);
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test("a click on a message, then typing: the words go to the composer, not to the message's shortcuts", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const own = message(a, /note 48/);
      await own.waitFor();
      const composer = a.getByRole("textbox", { name: "Message #general" });
      // A click on the message's text (not a control in it): it takes focus, as any focusable element does.
      await own.getByText(/note 48 see/).click({ position: { x: 2, y: 2 } });
      await until("the message focused by the click", () => hasFocus(own));
      // "e" would edit one's own message from the keyboard; after a click it is the start of a word.
      await a.keyboard.type("eh");
      await until("composer focused", () => hasFocus(composer));
      expect(await composer.inputValue()).toBe("eh");
      expect(await own.getByRole("textbox", { name: "Edit message" }).count()).toBe(0);
      // Reached by the keyboard, the same message keeps its letter keys.
      await composer.fill("");
      // Back into the log by Shift+Tab: the message last focused, the clicked one.
      await backIntoLog(a, "Message #general");
      await onMessage(a, /note 48/);
      await a.keyboard.press("e");
      await until("edit box open", async () => (await own.getByRole("textbox", { name: "Edit message" }).count()) === 1);
      await a.keyboard.press("Escape");
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a message's \"More\" menu: Enter opens it, arrows move, Escape returns; E edits one's own", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const own = message(a, /note 48/);
      await own.waitFor();
      await backIntoLog(a, "Message #general");
      await a.keyboard.press("ArrowUp");
      await onMessage(a, /note 48/);

      await a.keyboard.press("Enter");
      const menu = own.getByRole("menu", { name: "More" });
      await menu.waitFor();
      expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["Reply", "Add reaction", "Edit", "Delete", "Pin", "Copy link"]);
      const more = own.getByRole("button", { name: "More" });
      expect(await more.getAttribute("aria-haspopup")).toBe("menu");
      expect(await more.getAttribute("aria-expanded")).toBe("true");
      await until("first item focused", () => hasFocus(menu.getByRole("menuitem", { name: "Reply" })));
      await a.keyboard.press("ArrowDown");
      await until("Add reaction focused", () => hasFocus(menu.getByRole("menuitem", { name: "Add reaction" })));
      await a.keyboard.press("End");
      await until("last item focused", () => hasFocus(menu.getByRole("menuitem", { name: "Copy link" })));
      await a.keyboard.press("ArrowDown");
      await until("wraps to the first", () => hasFocus(menu.getByRole("menuitem", { name: "Reply" })));
      await a.keyboard.press("Escape");
      await menu.waitFor({ state: "detached" });
      expect(await hasFocus(more)).toBe(true);
      expect(await more.getAttribute("aria-expanded")).toBe("false");

      // From the button: Enter opens it again; Edit from the menu opens the edit box; Escape cancels.
      await a.keyboard.press("Enter");
      await until("menu open", () => hasFocus(menu.getByRole("menuitem", { name: "Reply" })));
      await a.keyboard.press("ArrowDown");
      await a.keyboard.press("ArrowDown");
      await until("Edit focused", () => hasFocus(menu.getByRole("menuitem", { name: "Edit" })));
      await a.keyboard.press("Enter");
      const edit = a.getByRole("textbox", { name: "Edit message" });
      await until("edit box focused", () => hasFocus(edit));
      await a.keyboard.press("Escape");
      await edit.waitFor({ state: "detached" });

      // Someone else's message offers no Edit (its owner may Delete it, once confirmed); E on one's own opens the edit box.
      const bobs = message(a, /note 47/);
      await bobs.focus();
      await a.keyboard.press("Enter");
      expect(await bobs.getByRole("menu", { name: "More" }).getByRole("menuitem").allTextContents()).toEqual([
        "Reply",
        "Add reaction",
        "Delete",
        "Pin",
        "Mark unread",
        "Copy link",
      ]);
      await a.keyboard.press("Escape");
      await bobs.getByRole("menu", { name: "More" }).waitFor({ state: "detached" });
      await own.focus();
      await onMessage(a, /note 48/);
      await a.keyboard.press("e");
      await until("edit box focused", () => hasFocus(edit));
      await edit.fill("note 48 edited by keyboard");
      await a.keyboard.press("Enter");
      await message(a, /note 48 edited by keyboard/).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 40_000);

  test('a spoiler: a button "Spoiler" that Enter opens; its words are then read in its place, focused', async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await channelEntry(a, "spoilers").click();
      const msg = message(a, /it was/);
      await msg.waitFor();
      // Hidden, the words are in no name: the message reads "it was Spoiler all along".
      await message(a, /it was Spoiler all along/).waitFor();
      expect(await message(a, /the butler/).count()).toBe(0);
      const spoiler = msg.getByRole("button", { name: "Spoiler" });
      await spoiler.focus();
      await a.keyboard.press("Enter");
      await message(a, /it was the butler all along/).waitFor();
      expect(await spoiler.count()).toBe(0);
      await until("the words focused", async () => (await a.evaluate(() => document.activeElement?.textContent)) === "the butler");
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
