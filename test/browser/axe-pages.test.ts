/**
 * The accessibility sweep of the pages around the chat (axe-support.ts): signing in and
 * up (by a server's invite link and by an invite-only server's code), the welcome screen
 * and its two dialogs, the developer portal (the application list, an application and
 * its bot, the install page) and every section of administration. Each state is reached
 * by clicking as a person would, and checked at 1280 and 390 px with axe's WCAG 2.1 A/AA
 * rules as they are.
 */
import { afterAll, beforeAll, describe, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launch, openAs, PASSWORD, serve, WAIT_MS, type Served } from "./support";
import { sweep } from "./axe-support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice", admin: true },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Workshop", owner: "bob", channels: [{ name: "general" }], invites: [{}] }],
    applications: [{ name: "Echo", owner: "bob", intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"], install: ["Workshop"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  return { context, page };
}

async function signUp(page: Page, username: string): Promise<void> {
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("textbox", { name: "Username" }).fill(username);
  await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

describe("accessibility: signing in and the welcome", () => {
  test("sign-in, sign-up, an invite link signed out and signing up by it, the welcome and its dialogs", async () => {
    const a11y = sweep();
    const { context, page } = await fresh();
    try {
      await page.goto(`${s.base}/`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await a11y.check(page, "sign-in");
      await page.getByRole("textbox", { name: "Username" }).fill("bob");
      await page.getByRole("textbox", { name: "Password" }).fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      await a11y.check(page, "sign-in refused");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Create your Parley account" }).waitFor();
      await a11y.check(page, "sign-up");

      await page.goto(`${s.base}/invite/${s.world.guilds.Workshop.invites[0]}`);
      await page.getByRole("heading", { name: "You are invited to Workshop" }).waitFor();
      await a11y.check(page, "invite page, signed out");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Create your Parley account" }).waitFor();
      await a11y.check(page, "sign-up by invite link");

      await page.goto(`${s.base}/`);
      await signUp(page, "newbie");
      await page.getByRole("heading", { name: "Welcome to Parley" }).waitFor();
      await a11y.check(page, "welcome");
      await page.goto(`${s.base}/invite/${s.world.guilds.Workshop.invites[0]}`);
      await page.getByRole("button", { name: "Accept invite" }).waitFor();
      await a11y.check(page, "invite page, signed in");
      await page.goto(`${s.base}/`);
      await page.getByRole("heading", { name: "Welcome to Parley" }).waitFor();
      const welcome = page.getByRole("region", { name: "Welcome to Parley" });
      for (const name of ["Join a server", "Create a server"]) {
        await welcome.getByRole("button", { name }).click();
        const dialog = page.getByRole("dialog", { name });
        await dialog.waitFor();
        await a11y.check(page, `${name} dialog`);
        if (name === "Join a server") {
          await dialog.getByRole("textbox", { name: "Invite link or code" }).fill("nope");
          await dialog.getByRole("button", { name: "Join", exact: true }).click();
          await dialog.getByRole("textbox", { name: "Invite link or code" }).and(page.locator("[aria-invalid=true]")).waitFor();
          await a11y.check(page, "Join a server refused");
        }
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await dialog.waitFor({ state: "detached" });
      }
    } finally {
      await context.close();
    }
    a11y.clean();
  }, 60_000);
});

describe("accessibility: the developer portal and administration", () => {
  test("the application list, a new application, an application with its bot, the install page", async () => {
    const a11y = sweep();
    const bob = await openAs(browser, s.base, "/developers", "bob");
    try {
      const page = bob.page;
      await page.getByRole("heading", { name: "Applications" }).waitFor();
      await a11y.check(page, "portal: applications");
      await page.getByRole("button", { name: "New application" }).click();
      await page.getByRole("textbox", { name: "Name" }).fill("x");
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("alert").waitFor();
      await a11y.check(page, "portal: new application refused");
      await page.getByRole("textbox", { name: "Name" }).fill("Greeter");
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("textbox", { name: "Token" }).waitFor();
      await a11y.check(page, "portal: the new application and its token");
      await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Developer portal" }).click();
      await page.getByRole("list", { name: "Your applications" }).getByRole("link", { name: "Echo" }).click();
      await page.getByRole("heading", { name: "Echo", level: 1 }).waitFor();
      await page.getByRole("list", { name: "Servers the bot is in" }).getByRole("listitem").first().waitFor();
      await a11y.check(page, "portal: an application and its bot");
      await page.getByRole("button", { name: "Reset token" }).click();
      await page.getByRole("dialog", { name: "Reset the token?" }).waitFor();
      await a11y.check(page, "portal: reset token confirm");
      await page.getByRole("dialog", { name: "Reset the token?" }).getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("link", { name: "Open the install page" }).click();
      await page.getByRole("button", { name: "Install", exact: true }).waitFor();
      await a11y.check(page, "portal: install page");
      // Bob is no administrator, and is a member of the server an invite names.
      await page.goto(`${s.base}/admin`);
      await page.getByText("Only administrators can see this page.").waitFor();
      await a11y.check(page, "admin, not an administrator");
      await page.goto(`${s.base}/invite/${s.world.guilds.Workshop.invites[0]}`);
      await page.getByRole("heading", { name: "You are already a member of Workshop" }).waitFor();
      await a11y.check(page, "invite page, a member");
    } finally {
      await bob.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("every section of administration, and sign-up by an invite-only server's code", async () => {
    const a11y = sweep();
    const alice = await openAs(browser, s.base, "/admin", "alice");
    try {
      const page = alice.page;
      const nav = page.getByRole("navigation", { name: "Administration" });
      await page.getByRole("img", { name: /^Messages per day/ }).waitFor();
      await a11y.check(page, "admin: Overview");
      await nav.getByRole("button", { name: "Users" }).click();
      await page.getByRole("list", { name: "People" }).getByRole("listitem").first().waitFor();
      await a11y.check(page, "admin: Users");
      await page.getByRole("button", { name: "Disable Bob" }).click();
      await page.getByRole("dialog", { name: "Disable Bob?" }).waitFor();
      await a11y.check(page, "admin: disable confirm");
      await page.getByRole("dialog", { name: "Disable Bob?" }).getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("button", { name: "Reset password for Bob" }).click();
      const resetLink = await page.getByRole("textbox", { name: "Reset link for Bob" }).inputValue();
      await a11y.check(page, "admin: a reset link made");
      await nav.getByRole("button", { name: "Servers" }).click();
      await page.getByText("Workshop").first().waitFor();
      await a11y.check(page, "admin: Servers");
      await nav.getByRole("button", { name: "Privileged intents" }).click();
      await page.getByRole("list", { name: "Pending requests" }).waitFor();
      await a11y.check(page, "admin: Privileged intents");
      await nav.getByRole("button", { name: "Registration" }).click();
      await page.getByRole("radiogroup", { name: "Registration" }).getByRole("radio", { name: "Invite only" }).check();
      await page.getByRole("status").filter({ hasText: "Registration is invite only." }).waitFor();
      await page.getByRole("button", { name: "Create sign-up invite" }).click();
      await page.getByRole("textbox", { name: "Sign-up invite code" }).waitFor();
      await a11y.check(page, "admin: Registration");

      const { context, page: visitor } = await fresh();
      try {
        await visitor.goto(resetLink);
        await visitor.getByRole("textbox", { name: "New password" }).waitFor();
        await a11y.check(visitor, "reset password page");
        await visitor.goto(`${s.base}/no/such/page`);
        await a11y.check(visitor, "page not found");
        await visitor.goto(`${s.base}/`);
        await visitor.getByRole("button", { name: "Create account" }).click();
        await visitor.getByRole("textbox", { name: "Invite code" }).waitFor();
        await a11y.check(visitor, "sign-up by an invite code");
      } finally {
        await context.close();
      }
      await page.getByRole("radiogroup", { name: "Registration" }).getByRole("radio", { name: "Open" }).check();
      await page.getByRole("status").filter({ hasText: "Registration is open." }).waitFor();
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);
});
