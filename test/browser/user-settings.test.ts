/**
 * User settings in the web client (docs/security.md, Finding 6): a dialog opened from
 * the person's panel, with a section navigation; its Account section changes the
 * password (the current one first; other sessions end) and lists the sessions, each
 * with what signed in and when it was last used, "Revoke <label>", this one marked, and
 * "Sign out everywhere", asked once first. A browser signed out so closes its live connection at once and
 * says why: revoked, or the password changed. Its Notifications section asks for the
 * browser's permission and sets each server's level and mute (the people's API's
 * notification settings, which the chat's own dialog also writes).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { count, launch, PASSWORD, serve, signIn, type Person, type Served } from "./support";
import { liveConnections } from "../http/live-client";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bea", global_name: "Bea" },
    ],
    guilds: [
      { name: "Lab", owner: "alice", members: ["bea"], channels: [{ name: "general" }] },
      { name: "Club", owner: "alice", members: ["bea"], channels: [{ name: "lobby" }] },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

async function openUserSettings(page: Page) {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "User settings" }).click();
  const dialog = page.getByRole("dialog", { name: "User settings" });
  await dialog.waitFor();
  return dialog;
}

/** The seeded session of alice (the harness's), as the people's API answers for it. */
async function seededSessionWorks(): Promise<boolean> {
  const res = await fetch(`${s.base}/api/client/v1/users/@me`, { headers: { Authorization: `Session ${s.world.users.alice.token}` } });
  return res.ok;
}

test("Account: revoke another browser, change the password, sign out everywhere", async () => {
  const here = await signIn(browser, s.base, "alice");
  const there = await signIn(browser, s.base, "alice");
  let third: Person | null = null;
  try {
    const page = here.page;
    const dialog = await openUserSettings(page);
    const nav = dialog.getByRole("navigation", { name: "User settings" });
    expect(await nav.getByRole("button", { name: "Account" }).getAttribute("aria-current")).toBe("page");
    const account = dialog.getByRole("region", { name: "Account" });
    const sessions = account.getByRole("list", { name: "Sessions" }).getByRole("listitem");
    // This browser, the other one, and the session the harness opened for alice.
    await count(sessions, 3);
    const mine = sessions.filter({ hasText: "This session" });
    await count(mine, 1);
    expect(await mine.textContent()).toContain("Chromium on Linux");
    expect(await mine.textContent()).toMatch(/Last used/);

    // The other browser: its live connection closes at once and it is told.
    const other = sessions.filter({ hasText: "Chromium on Linux" }).filter({ hasNotText: "This session" });
    await other.getByRole("button", { name: "Revoke Chromium on Linux" }).click();
    await count(sessions, 2);
    await there.page.getByRole("status").filter({ hasText: "This session was revoked from another of your sessions." }).waitFor();

    // A third browser, connected (with this one) before the password changes.
    third = await signIn(browser, s.base, "alice");
    await liveConnections(s.p, 2);

    // A wrong current password is refused beside its field; the right one ends the other sessions.
    const form = account.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password").fill("a brand new secret phrase");
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("alert").filter({ hasText: "Password does not match" }).waitFor();
    expect(await seededSessionWorks()).toBe(true);
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("status").filter({ hasText: "Password changed" }).waitFor();
    expect(await seededSessionWorks()).toBe(false);
    await count(sessions, 1);
    await third.page.getByRole("status").filter({ hasText: "Your password was changed, which signed out your other sessions." }).waitFor();

    // Signing out everywhere signs this browser out too: asked once, focus on Cancel, which keeps every session.
    const everywhere = account.getByRole("button", { name: "Sign out everywhere" });
    await everywhere.click();
    const confirm = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await confirm.waitFor();
    const cancel = confirm.getByRole("button", { name: "Cancel" });
    expect(await cancel.evaluate((el) => el === document.activeElement)).toBe(true);
    await cancel.click();
    await count(confirm, 0);
    expect(await everywhere.evaluate((el) => el === document.activeElement)).toBe(true);
    await count(sessions, 1);
    expect(await page.getByRole("textbox", { name: "Username" }).count()).toBe(0);
    await everywhere.click();
    await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("textbox", { name: "Username" }).waitFor();
    expect(await page.getByRole("dialog", { name: "User settings" }).count()).toBe(0);
  } finally {
    await here.context.close();
    await there.context.close();
    await third?.context.close();
  }
}, 60_000);

/** Bea's setting for `scope` as the server has it, once `ok` says it is there (the page writes it). */
async function settingOf(scope: string, ok: (x: { level: number | null; muted_until: string | null }) => boolean) {
  for (let i = 0; ; i++) {
    const x = await s.as("bea", "GET", `/users/@me/notification-settings/${scope}`);
    if (ok(x) || i === 100) return x;
    await Bun.sleep(50);
  }
}

test("Notifications: desktop permission, and each server's level and mute, read and written", async () => {
  const lab = s.id(s.world.guilds.Lab.id);
  const club = s.id(s.world.guilds.Club.id);
  // Set elsewhere (another session): the section reads it.
  await s.as("bea", "PUT", `/users/@me/notification-settings/${club}`, { level: 2 });
  const here = await signIn(browser, s.base, "bea");
  try {
    const page = here.page;
    const dialog = await openUserSettings(page);
    await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Notifications" }).click();
    const section = dialog.getByRole("region", { name: "Notifications" });

    // The browser has not been asked: a click asks it (allowed here), and the section says so.
    expect(await page.evaluate(() => Notification.permission)).toBe("default");
    await here.context.grantPermissions(["notifications"], { origin: s.base });
    await section.getByRole("button", { name: "Enable desktop notifications" }).click();
    await section.getByText("Desktop notifications are on in this browser.").waitFor();
    expect(await section.getByRole("button", { name: "Enable desktop notifications" }).count()).toBe(0);

    const labLevels = section.getByRole("group", { name: "Lab" });
    const clubLevels = section.getByRole("group", { name: "Club" });
    expect(await labLevels.getByRole("radio", { name: "Server default (all messages)" }).isChecked()).toBe(true);
    await clubLevels.getByRole("radio", { name: "Nothing" }).and(page.locator(":checked")).waitFor();

    await labLevels.getByRole("radio", { name: "Only @mentions" }).check();
    expect((await settingOf(lab, (x) => x.level === 1)).level).toBe(1);
    await clubLevels.getByRole("radio", { name: "All messages", exact: true }).check();
    expect((await settingOf(club, (x) => x.level === 0)).level).toBe(0);

    await section.getByRole("combobox", { name: "Mute Lab for" }).selectOption({ label: "1 hour" });
    const muted = await settingOf(lab, (x) => x.muted_until !== null);
    expect(Date.parse(muted.muted_until!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(muted.level).toBe(1);
    await section
      .getByRole("combobox", { name: "Mute Lab for" })
      .getByRole("option", { name: /^Muted until / })
      .waitFor({ state: "attached" });
    await section.getByRole("combobox", { name: "Mute Lab for" }).selectOption({ label: "Not muted" });
    expect((await settingOf(lab, (x) => x.muted_until === null)).muted_until).toBeNull();

    // Opened again after a reload, the section shows what was chosen.
    await page.reload();
    await page.getByRole("textbox", { name: /^Message / }).waitFor();
    const again = await openUserSettings(page);
    await again.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Notifications" }).click();
    const reread = again.getByRole("region", { name: "Notifications" });
    await reread.getByRole("group", { name: "Lab" }).getByRole("radio", { name: "Only @mentions" }).and(page.locator(":checked")).waitFor();
    await reread
      .getByRole("group", { name: "Club" })
      .getByRole("radio", { name: "All messages", exact: true })
      .and(page.locator(":checked"))
      .waitFor();
    await reread.getByText("Desktop notifications are on in this browser.").waitFor();
  } finally {
    await here.context.close();
  }
}, 60_000);

test("Profile: a new display name is one's own at once in one's other browser, not after a reload", async () => {
  const here = await signIn(browser, s.base, "bea");
  const there = await signIn(browser, s.base, "bea");
  try {
    const profile = async (page: Page) => {
      const dialog = await openUserSettings(page);
      await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Profile" }).click();
      return dialog.getByRole("region", { name: "Profile" });
    };
    const mine = await profile(here.page);
    await mine.getByRole("textbox", { name: "Display name" }).fill("Beatrix");
    await mine.getByRole("button", { name: "Save display name" }).click();
    await mine.getByRole("status").filter({ hasText: "Your display name is Beatrix." }).waitFor();

    // The other browser heard of it (its member list says so): its own settings start from the new name.
    await there.page.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Beatrix" }).waitFor();
    const theirs = await profile(there.page);
    expect(await theirs.getByRole("textbox", { name: "Display name" }).inputValue()).toBe("Beatrix");
  } finally {
    await here.context.close();
    await there.context.close();
    await s.as("bea", "PATCH", "/users/@me", { global_name: "Bea" });
  }
}, 30_000);

test("Refusals read as sentences: a picture that is not one, and an edit past the limit, without the API's wrapper", async () => {
  const bea = await signIn(browser, s.base, "bea");
  try {
    const page = bea.page;
    const dialog = await openUserSettings(page);
    await dialog.getByRole("navigation", { name: "User settings" }).getByRole("button", { name: "Profile" }).click();
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Avatar", exact: true }).click();
    await (await chooser).setFiles({ name: "not-a-picture.png", mimeType: "image/png", buffer: Buffer.from("only words in here") });
    const refused = dialog.getByRole("alert").filter({ hasText: "Invalid image: a PNG, JPEG, GIF, WebP or AVIF picture is needed" });
    await refused.waitFor();
    expect(await refused.textContent()).not.toContain("Invalid Form Body");
    await dialog.getByRole("button", { name: "Close" }).click();

    const box = page.getByRole("textbox", { name: /^Message #/ });
    await box.fill("short for now");
    await box.press("Enter");
    const mine = page.getByRole("log").getByRole("article", { name: /short for now$/ });
    await mine.getByRole("button", { name: "More" }).click();
    await page.getByRole("menuitem", { name: "Edit", exact: true }).click();
    await page.getByRole("textbox", { name: "Edit message" }).fill("x".repeat(2001));
    await page.getByRole("textbox", { name: "Edit message" }).press("Enter");
    const notice = page.getByRole("status").filter({ hasText: "The message was not edited:" });
    await notice.waitFor();
    expect(await notice.textContent()).toBe("The message was not edited: Must be 2000 or fewer in length.");
  } finally {
    await bea.context.close();
  }
}, 30_000);
