/**
 * What a person may do with someone else's message, and how messages are drawn: an owner
 * or a member with Manage Messages deletes another's message through "More", "Delete"
 * and a confirmation, a plain member is never offered it, and a channel's overwrites
 * take that right away or give it, there alone, for Delete and Pin; a message deleted
 * while its author edits it ends the edit, saying so, focus back in the composer; a pin's notice is the notice
 * alone, with no "Replying to"; on a phone a picture is never wider than the log. Found
 * by role and accessible name only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { act, actionsOf, channelEntry, count, launch, message, serve, signIn, until, type Served } from "./support";
import { png } from "../support/png";

const PHONE = { width: 390, height: 844 };

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "mo", global_name: "Mo" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "mo", "carol"],
        roles: [{ name: "Mods", permissions: ["MANAGE_MESSAGES"], members: ["mo"] }],
        channels: [
          { name: "general" },
          { name: "pins" },
          { name: "pictures" },
          // Manage Messages taken from the Mods here, and given to carol alone there.
          { name: "archive", overwrites: [{ role: "Mods", deny: ["MANAGE_MESSAGES"] }] },
          { name: "desk", overwrites: [{ user: "carol", allow: ["MANAGE_MESSAGES"] }] },
        ],
      },
    ],
  });
  const alice = s.id(s.world.users.alice.id);
  const bob = s.id(s.world.users.bob.id);
  const lab = s.world.guilds.Lab.channels;
  s.p.core.transaction(() => {
    s.p.core.people.send(bob, s.id(lab.general), { content: "bob says something rude" });
    s.p.core.people.send(bob, s.id(lab.general), { content: "bob says something kind" });
    const pinned = s.p.core.people.send(bob, s.id(lab.pins), { content: "the plan for monday" });
    s.p.core.pins.pin(alice, s.id(lab.pins), pinned.id);
    s.p.core.people.send(bob, s.id(lab.archive), { content: "bob files a record" });
    s.p.core.people.send(bob, s.id(lab.desk), { content: "bob leaves a note" });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("someone else's message", () => {
  test("the owner deletes another's message after a confirmation; it goes for both", async () => {
    const alice = await signIn(browser, s.base, "alice");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const a = alice.page;
      const rude = message(a, /bob says something rude/);
      await rude.getByRole("button", { name: "More" }).click();
      await rude.getByRole("menu", { name: "More" }).getByRole("menuitem", { name: "Delete", exact: true }).click();
      // Nothing goes by one slip: a confirmation first, focus on Cancel.
      const confirm = a.getByRole("dialog", { name: "Delete message?" });
      await confirm.waitFor();
      expect(await confirm.getByRole("button", { name: "Cancel" }).evaluate((el) => el === document.activeElement)).toBe(true);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await count(confirm, 0);
      expect(await rude.count()).toBe(1);
      await until("focus back on More", () => rude.getByRole("button", { name: "More" }).evaluate((el) => el === document.activeElement));

      await rude.getByRole("button", { name: "More" }).click();
      await rude.getByRole("menu", { name: "More" }).getByRole("menuitem", { name: "Delete", exact: true }).click();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await count(confirm, 0);
      await count(rude, 0);
      await count(message(bob.page, /bob says something rude/), 0);
      await message(bob.page, /bob says something kind/).waitFor();
      // Focus goes on in the log, not to the top of the page.
      await until("focus in the log", () => a.getByRole("log").evaluate((log) => log.contains(document.activeElement)));
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 30_000);

  test("Manage Messages offers Delete on another's message; a plain member is never offered it", async () => {
    const mo = await signIn(browser, s.base, "mo");
    const carol = await signIn(browser, s.base, "carol");
    try {
      expect(await actionsOf(message(mo.page, /bob says something kind/))).toContain("Delete");
      const items = await actionsOf(message(carol.page, /bob says something kind/));
      expect(items).toContain("Reply");
      expect(items).not.toContain("Delete");
    } finally {
      await mo.context.close();
      await carol.context.close();
    }
  }, 30_000);
});

describe("a message deleted by someone else", () => {
  test("while its author edits it: the edit ends, the page says why, and focus is back in the composer", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    const sent = await s.as("bob", "POST", `/channels/${general}/messages`, { content: "bob edits this" });
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await act(message(b, /bob edits this/), "Edit");
      await b.getByRole("textbox", { name: "Edit message" }).pressSequentially(" and more");
      await s.as("alice", "DELETE", `/channels/${general}/messages/${sent.id}`);
      await b.getByRole("status").filter({ hasText: "The message you were editing was deleted." }).waitFor();
      await count(b.getByRole("textbox", { name: "Edit message" }), 0);
      const box = b.getByRole("textbox", { name: "Message #general" });
      await until("the composer has focus", () => box.evaluate((el) => el === document.activeElement));
      await b.keyboard.type("typed on");
      expect(await box.inputValue()).toBe("typed on");
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});

describe("a channel's overwrites", () => {
  test("Delete and Pin on another's message follow Manage Messages as the channel's overwrites leave it", async () => {
    const mo = await signIn(browser, s.base, "mo");
    const carol = await signIn(browser, s.base, "carol");
    try {
      // Mo's role manages messages, but not in #archive: the server refuses there, so the menu does not offer.
      await channelEntry(mo.page, "archive").click();
      const moItems = await actionsOf(message(mo.page, /bob files a record/));
      expect(moItems).toContain("Reply");
      expect(moItems).not.toContain("Delete");
      expect(moItems).not.toContain("Pin");
      // Carol manages messages in #desk alone, and is offered both there.
      await channelEntry(carol.page, "desk").click();
      const note = message(carol.page, /bob leaves a note/);
      expect(await actionsOf(note)).toEqual(expect.arrayContaining(["Delete", "Pin"]));
      await act(note, "Pin");
      await until("the note is pinned", async () => (await actionsOf(note)).includes("Unpin"));
    } finally {
      await mo.context.close();
      await carol.context.close();
    }
  }, 30_000);
});

describe("how messages are drawn", () => {
  test("a pin's notice is the notice alone, with no Replying to", async () => {
    const carol = await signIn(browser, s.base, "carol");
    try {
      const c = carol.page;
      await channelEntry(c, "pins").click();
      const notice = message(c, /Alice pinned a message/);
      await notice.waitFor();
      await notice.getByRole("button", { name: "Jump" }).waitFor();
      expect(await notice.textContent()).not.toContain("Replying to");
      // Nor in any article's accessible name.
      await count(message(c, /Replying to/), 0);
    } finally {
      await carol.context.close();
    }
  }, 30_000);

  test("on a phone a picture is never wider than the log, keeps its shape, and the log never scrolls sideways", async () => {
    const alice = await signIn(browser, s.base, "alice", { viewport: PHONE });
    try {
      const a = alice.page;
      await a.getByRole("button", { name: "Menu" }).click();
      await channelEntry(a, "pictures").click();
      const box = a.getByRole("textbox", { name: "Message #pictures" });
      await box.waitFor();
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Attach files" }).click();
      await (await chooser).setFiles({ name: "wide.png", mimeType: "image/png", buffer: Buffer.from(png(400, 300)) });
      await a.getByRole("textbox", { name: "Description for wide.png" }).fill("a wide grey box");
      await count(a.getByRole("progressbar", { name: "Uploading wide.png" }), 0);
      await box.fill("wide picture");
      await a.keyboard.press("Enter");
      const img = message(a, /wide picture/).getByRole("img", { name: "a wide grey box" });
      await img.waitFor();
      await until("the picture loaded", () =>
        img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0),
      );
      const log = a.getByRole("log");
      const pic = (await img.boundingBox())!;
      const frame = (await log.boundingBox())!;
      expect(pic.x).toBeGreaterThanOrEqual(frame.x);
      expect(pic.x + pic.width).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
      // Narrower than its 400 px, and as tall in proportion (4:3).
      expect(pic.width).toBeLessThan(400);
      expect(Math.abs(pic.width / pic.height - 4 / 3)).toBeLessThan(0.02);
      expect(await log.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
