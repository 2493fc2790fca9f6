/**
 * The end of an evening: a person signs out everywhere from one browser, and their other
 * browser, still showing the chat, is taken to the sign-in form with the reason, rather
 * than left on a chat that can no longer do anything; signing in there again works and
 * the old reason goes. A refused sign-in, pressed by keyboard, keeps focus on its button.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, PASSWORD, serve, signIn, until, type Served } from "./support";

let s: Served;
let browser: Browser;

beforeAll(async () => {
  s = serve({
    users: [{ name: "olive", global_name: "Olive" }],
    guilds: [{ name: "Club", owner: "olive", channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("sessions ended elsewhere", () => {
  test("signing out everywhere takes the other browser to the sign-in form, saying why", async () => {
    const here = await signIn(browser, s.base, "olive");
    const there = await signIn(browser, s.base, "olive");
    try {
      await here.page.getByRole("button", { name: "User settings" }).click();
      await here.page.getByRole("dialog", { name: "User settings" }).getByRole("button", { name: "Sign out everywhere" }).click();
      await here.page.getByRole("dialog", { name: "Sign out everywhere?" }).getByRole("button", { name: "Sign out everywhere" }).click();
      await here.page.getByRole("textbox", { name: "Username" }).waitFor();

      const b = there.page;
      await b.getByRole("textbox", { name: "Username" }).waitFor();
      await b.getByRole("status").filter({ hasText: "You signed out everywhere. Sign in again." }).waitFor();
      expect(await b.getByRole("navigation", { name: "Servers" }).count()).toBe(0);

      await b.getByRole("textbox", { name: "Username" }).fill("olive");
      await b.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
      await b.getByRole("button", { name: "Sign in" }).click();
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
      expect(await b.getByText("You signed out everywhere").count()).toBe(0);
    } finally {
      await here.context.close();
      await there.context.close();
    }
  }, 30_000);
});

describe("signing in by keyboard", () => {
  test("a refused sign-in leaves focus on Sign in, where the keyboard pressed it", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${s.base}/`);
      await page.getByRole("textbox", { name: "Username" }).fill("olive");
      await page.getByRole("textbox", { name: "Password" }).fill("not the password at all");
      const button = page.getByRole("button", { name: "Sign in" });
      await button.focus();
      await page.keyboard.press("Enter");
      await page.getByRole("alert").filter({ hasText: "Invalid username or password" }).waitFor();
      await until("focus is on Sign in", () => button.evaluate((el) => el === document.activeElement));
    } finally {
      await context.close();
    }
  }, 30_000);
});
