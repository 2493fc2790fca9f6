/**
 * The developer portal, the install page and administration in Debian's chromium against
 * a real server, with real discord.js bots: a developer signs up, creates an application,
 * copies its token, runs a bot with it, installs it through the install page, sees it
 * in the member list and talks to it, then resets the token and the old one is refused
 * at once. A privileged intent requested in the portal and approved at /admin reaches
 * the bot after a token reset. Nobody installs where they do not manage, nor opens
 * another person's application.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { Client, Events, GatewayIntentBits as I, Routes } from "discord.js";
import { next } from "../compat/support";
import { count, launch, message, openAs, PASSWORD, serve, until, type Served } from "./support";

let browser: Browser;
let s: Served;
const bots: Client[] = [];

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice", admin: true },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Workshop", owner: "bob", members: ["carol"], channels: [{ name: "general" }] }],
    applications: [{ name: "Echo", owner: "bob", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Workshop"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  for (const b of bots) await Promise.race([b.destroy(), Bun.sleep(2000)]);
  await s?.p.stop();
});

const hasFocus = (l: Locator) => l.evaluate((el) => el === document.activeElement).catch(() => false);

/** A real discord.js bot: it answers every person's message, with their words when it may read them. */
async function startBot(token: string, intents: number[]): Promise<{ bot: Client; seen: string[] }> {
  const bot = new Client({ intents, rest: { api: `${s.base}/api` } });
  bots.push(bot);
  // The text as it arrived (the cached message object may learn more later).
  const seen: string[] = [];
  bot.on(Events.MessageCreate, async (m) => {
    if (m.author.id === bot.user?.id || m.author.bot) return;
    seen.push(m.content);
    await m.reply(m.content ? `You said: ${m.content}` : `Hello, ${m.author.username}! I cannot read your words.`).catch(() => undefined);
  });
  // A reset token ends the session; the library reports it here rather than throwing.
  bot.on(Events.Error, () => undefined);
  const ready = next(bot, Events.ClientReady, () => true, 10_000);
  await bot.login(token);
  await ready;
  return { bot, seen };
}

async function say(page: Page, channel: string, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: `Message #${channel}` });
  await box.fill(text);
  await box.press("Enter");
}

async function resetToken(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Reset token" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset the token?" });
  await dialog.getByRole("button", { name: "Reset", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  return page.getByRole("textbox", { name: "Token" }).inputValue();
}

describe("the developer portal", () => {
  test("sign up, create an application, copy its token, run a discord.js bot, install it, talk to it; a reset refuses the old token at once", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(8000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.base });
    const page = await context.newPage();
    try {
      // Sign up, and make a server of one's own.
      await page.goto(`${s.base}/`);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("textbox", { name: "Username" }).fill("dana");
      await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      // A new account is welcomed with the two ways in.
      await page.getByRole("region", { name: "Welcome to Parley" }).getByRole("button", { name: "Create a server" }).click();
      const create = page.getByRole("dialog", { name: "Create a server" });
      await create.getByRole("textbox", { name: "Server name" }).fill("Dana's Den");
      await create.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("textbox", { name: "Message #general" }).waitFor();

      // The portal: a new application; its token is shown once, with Copy.
      await page.getByRole("link", { name: "Developer portal" }).click();
      await page.getByRole("heading", { name: "Applications" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/developers");
      await page.getByRole("button", { name: "New application" }).click();
      await page.getByRole("textbox", { name: "Name" }).fill("x");
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("alert").filter({ hasText: "Must be 2 or more in length." }).waitFor();
      await page.getByRole("textbox", { name: "Name" }).fill("Greeter");
      await page.getByRole("button", { name: "Create" }).click();
      const tokenBox = page.getByRole("textbox", { name: "Token" });
      expect(await tokenBox.getAttribute("readonly")).not.toBeNull();
      expect(await page.getByText("shown only once").count()).toBe(1);
      await page.getByRole("button", { name: "Copy", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Copied." }).waitFor();
      const token = await page.evaluate(() => navigator.clipboard.readText());
      expect(token).toBe(await tokenBox.inputValue());

      // A real discord.js bot runs with it.
      const { bot, seen } = await startBot(token, [I.Guilds, I.GuildMessages]);
      expect(bot.user!.username).toBe("Greeter");
      const joined = next(bot, Events.GuildCreate, (g) => g.name === "Dana's Den");

      // The application's page shows its install link; the install page adds the bot.
      await page.getByRole("link", { name: "Open Greeter" }).click();
      await page.getByRole("heading", { name: "Greeter", level: 1 }).waitFor();
      const link = await page.getByRole("textbox", { name: "Install link" }).inputValue();
      expect(link).toStartWith(`${s.base}/developers/install/`);
      await page.getByRole("link", { name: "Open the install page" }).click();
      await page.getByRole("heading", { name: "Greeter" }).waitFor();
      expect(await page.getByRole("combobox", { name: "Server" }).locator("option").allTextContents()).toEqual(["Dana's Den"]);
      await page.getByRole("button", { name: "Install", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Greeter is now a member of Dana's Den." }).waitFor();
      await joined; // GUILD_CREATE at once

      // In the server: the bot in the member list, and it answers.
      await page.getByRole("link", { name: "Open Dana's Den" }).click();
      await page
        .getByRole("complementary", { name: "Members" })
        .getByRole("listitem", { name: "Greeter, bot, online", exact: true })
        .waitFor();
      await say(page, "general", "hello there");
      await message(page, /^Greeter Hello, dana! I cannot read your words\.$/).waitFor();
      expect(seen).toEqual([""]);

      // Reset the token: the old one is refused at once, on REST and on the gateway.
      await page.goto(link.replace("/install/", "/applications/"));
      const fresh = await resetToken(page);
      expect(fresh).not.toBe(token);
      const old = await fetch(`${s.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${token}` } });
      expect([old.status, ((await old.json()) as { code: number }).code]).toEqual([401, 0]);
      const err = (await bot.rest.get(Routes.user("@me")).catch((e) => e)) as { status?: number };
      expect(err.status).toBe(401);
      const appId = new URL(page.url()).pathname.split("/").pop()!;
      for (let i = 0; i < 100 && s.p.gateway.sessionsOf(appId).length; i++) await Bun.sleep(20);
      expect(s.p.gateway.sessionsOf(appId)).toEqual([]);
      const me = await fetch(`${s.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${fresh}` } });
      expect(me.status).toBe(200);
      // The servers the bot is in, with Remove.
      const servers = page.getByRole("list", { name: "Servers the bot is in" });
      await servers.getByRole("listitem").filter({ hasText: "Dana's Den" }).getByRole("button", { name: "Remove" }).click();
      await count(servers.getByRole("listitem"), 0);
    } finally {
      await context.close();
    }
  }, 40_000);

  test("MESSAGE_CONTENT: requested in the portal, approved at /admin, and after a token reset the bot reads messages", async () => {
    const echo = s.world.applications.Echo;
    const appId = s.id(echo.id);
    const before = await startBot(echo.token, [I.Guilds, I.GuildMessages]);
    const bob = await openAs(browser, s.base, `/developers/applications/${appId}`, "bob");
    const alice = await openAs(browser, s.base, "/admin", "alice");
    await alice.page.getByRole("navigation", { name: "Administration" }).getByRole("button", { name: "Privileged intents" }).click();
    try {
      const b = bob.page;
      const content = b.getByRole("checkbox", { name: "MESSAGE_CONTENT" });
      expect(await content.isChecked()).toBe(false);
      expect(await content.getAttribute("aria-describedby").then((id) => b.locator(`#${id}`).textContent())).toBe(
        "Requires approval Not requested",
      );
      expect(await b.getByText("Intent changes apply to the next token").count()).toBe(1);
      await content.check();
      await b.getByRole("button", { name: "Request approval" }).click();
      await b.getByText("Waiting for an administrator").waitFor();

      const a = alice.page;
      await a.reload();
      const pending = a.getByRole("list", { name: "Pending requests" }).getByRole("listitem").filter({ hasText: "Echo" });
      expect(await pending.textContent()).toContain("MESSAGE_CONTENT");
      await pending.getByRole("button", { name: "Approve" }).click();
      await a
        .getByRole("list", { name: "Approved" })
        .getByRole("listitem")
        .filter({ hasText: /Echo.*MESSAGE_CONTENT/ })
        .getByRole("button", { name: "Revoke" })
        .waitFor();

      await b.reload();
      await b.getByText("Approved", { exact: true }).waitFor();
      // The old token still carries no content; after a reset the bot reads it.
      await b.goto(`${s.base}/channels/${s.id(s.world.guilds.Workshop.id)}`);
      await say(b, "general", "before the reset");
      await message(b, /^Echo Hello, bob! I cannot read your words\.$/).waitFor();
      await b.goto(`${s.base}/developers/applications/${appId}`);
      const fresh = await resetToken(b);
      const after = await startBot(fresh, [I.Guilds, I.GuildMessages, I.MessageContent]);
      await b.goto(`${s.base}/channels/${s.id(s.world.guilds.Workshop.id)}`);
      await say(b, "general", "can you read me now");
      await message(b, /^Echo You said: can you read me now$/).waitFor();
      expect(after.seen).toEqual(["can you read me now"]);
      expect(before.seen).toEqual([""]);
    } finally {
      await bob.context.close();
      await alice.context.close();
    }
  }, 40_000);

  test("without Manage Server there is no server to install into; another person's application is not found; only administrators administer; an ended session signs in again", async () => {
    const appId = s.id(s.world.applications.Echo.id);
    const carol = await openAs(browser, s.base, `/developers/install/${appId}`, "carol");
    try {
      const c = carol.page;
      await c.getByRole("heading", { name: "Echo" }).waitFor();
      const server = c.getByRole("combobox", { name: "Server" });
      expect(await server.locator("option").count()).toBe(0);
      expect(await server.isDisabled()).toBe(true);
      expect(await c.getByRole("button", { name: "Install", exact: true }).isDisabled()).toBe(true);
      expect(await c.getByText("You manage no server").count()).toBe(1);

      await c.goto(`${s.base}/developers/applications/${appId}`);
      await c.getByRole("heading", { name: "Application not found" }).waitFor();
      expect(await c.getByText("404").count()).toBe(1);
      expect(await c.getByRole("textbox", { name: "Token" }).count()).toBe(0);
      expect(await c.getByRole("button", { name: "Reset token" }).count()).toBe(0);

      await c.goto(`${s.base}/admin`);
      await c.getByText("Only administrators can see this page.").waitFor();
      expect(await c.getByRole("button", { name: "Approve" }).count()).toBe(0);
      // Not a dead end for whoever runs the server and signed up first: how to become one.
      await c.getByRole("paragraph").filter({ hasText: "parley user admin carol" }).waitFor();

      // A session that ended elsewhere: the page asks to sign in again and stays where it is.
      await c.evaluate(() => localStorage.setItem("parley.session", "ps_a-session-that-ended"));
      await c.goto(`${s.base}/developers`);
      await c.getByRole("button", { name: "Sign in" }).waitFor();
      expect(new URL(c.url()).pathname).toBe("/developers");
    } finally {
      await carol.context.close();
    }
  }, 20_000);

  test("signing in on the portal starts focus in the page, not on its body", async () => {
    const context = await browser.newContext();
    try {
      const c = await context.newPage();
      await c.goto(`${s.base}/developers`);
      await c.getByRole("textbox", { name: "Username" }).fill("carol");
      await c.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await c.getByRole("button", { name: "Sign in" }).click();
      await c.getByRole("button", { name: "New application" }).waitFor();
      await until("focus in the page", () => hasFocus(c.getByRole("main")));
      await c.keyboard.press("Tab");
      expect(await c.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
    } finally {
      await context.close();
    }
  }, 20_000);

  test("by keyboard: New application puts focus in Name, Cancel back on the button, Create on the token to copy", async () => {
    const carol = await openAs(browser, s.base, "/developers", "carol");
    try {
      const c = carol.page;
      const opener = c.getByRole("button", { name: "New application" });
      await opener.press("Enter");
      await until("focus in Name", () => hasFocus(c.getByRole("textbox", { name: "Name" })));
      await c.getByRole("button", { name: "Cancel" }).press("Enter");
      await until("focus back on New application", () => hasFocus(opener));
      await opener.press("Enter");
      await until("focus in Name again", () => hasFocus(c.getByRole("textbox", { name: "Name" })));
      await c.keyboard.type("Keyboard Bot");
      await c.keyboard.press("Enter");
      const token = c.getByRole("region", { name: "Keyboard Bot is ready" }).getByRole("textbox", { name: "Token" });
      await token.waitFor();
      await until("focus on the new token", () => hasFocus(token));
    } finally {
      await carol.context.close();
    }
  }, 20_000);

  test("by keyboard: Install says what was added, and focus is there, not on the page's body", async () => {
    const app = await s.as("bob", "POST", "/applications", { name: "Keys" });
    const bob = await openAs(browser, s.base, `/developers/install/${app.application.id}`, "bob");
    try {
      const b = bob.page;
      await b.getByRole("combobox", { name: "Server" }).press("Tab");
      await b.keyboard.press("Enter");
      const added = b.getByRole("heading", { name: "Keys was added" });
      await added.waitFor();
      await until("focus on what was added", () => hasFocus(added));
      await b.keyboard.press("Tab");
      await until("Tab goes on to the server", () => hasFocus(b.getByRole("link", { name: "Open Workshop" })));
    } finally {
      await bob.context.close();
    }
  }, 20_000);

  test("an administrator denies a request: it leaves the pending list and its owner sees it denied", async () => {
    const appId = s.id(s.world.applications.Echo.id);
    const bob = await openAs(browser, s.base, `/developers/applications/${appId}`, "bob");
    const alice = await openAs(browser, s.base, "/admin", "alice");
    await alice.page.getByRole("navigation", { name: "Administration" }).getByRole("button", { name: "Privileged intents" }).click();
    try {
      await bob.page.getByRole("checkbox", { name: "GUILD_PRESENCES" }).check();
      await bob.page.getByRole("button", { name: "Request approval" }).click();
      await bob.page.getByRole("status").filter({ hasText: "Approval requested" }).waitFor();
      await alice.page.reload();
      const row = alice.page
        .getByRole("list", { name: "Pending requests" })
        .getByRole("listitem")
        .filter({ hasText: /Echo.*GUILD_PRESENCES/ });
      await row.getByRole("button", { name: "Deny" }).click();
      await alice.page.getByRole("status").filter({ hasText: "Echo: GUILD_PRESENCES denied." }).waitFor();
      await alice.page.getByText("No request is waiting.").waitFor();
      await bob.page.reload();
      await bob.page.getByText("Denied by an administrator").waitFor();
      // Asking again is possible, and is pending once more.
      await bob.page.getByRole("button", { name: "Request approval" }).click();
      await bob.page.getByText("Waiting for an administrator").waitFor();
    } finally {
      await bob.context.close();
      await alice.context.close();
    }
  }, 20_000);
});
