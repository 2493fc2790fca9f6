/**
 * User settings in the web client (docs/security.md, Finding 6): a dialog opened from
 * the person's panel, with a section navigation; its Account section changes the
 * password (the current one first; other sessions end) and lists the sessions, each
 * with what signed in and when it was last used, "Revoke <label>", this one marked, and
 * "Sign out everywhere". A browser signed out so closes its live connection at once and
 * says why: revoked, or the password changed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { count, launch, PASSWORD, serve, signIn, type Person, type Served } from "./support";
import { liveConnections } from "../http/live-client";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
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

    await account.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("textbox", { name: "Username" }).waitFor();
    expect(await page.getByRole("dialog", { name: "User settings" }).count()).toBe(0);
  } finally {
    await here.context.close();
    await there.context.close();
    await third?.context.close();
  }
}, 60_000);
