/**
 * The application page on a phone (360 px wide): nothing pushes it sideways, not even the
 * intents the current token carries, whose longest names are one unbreakable word wider
 * than the card.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, PASSWORD, serve, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "bob", global_name: "Bob" }],
    applications: [{ name: "Greeter", owner: "bob", intents: ["GUILDS", "AUTO_MODERATION_CONFIGURATION"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("the application page fits a 360 px screen", async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  context.setDefaultTimeout(8000);
  try {
    const page = await context.newPage();
    await page.goto(`${s.base}/developers`);
    await page.getByRole("textbox", { name: "Username" }).fill("bob");
    await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Greeter", exact: true }).click();
    await page.getByRole("heading", { name: "Greeter", level: 1 }).waitFor();
    await page.getByText("The current token carries GUILDS, AUTO_MODERATION_CONFIGURATION.").waitFor();
    const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
    expect(sideways).toBe(0);
  } finally {
    await context.close();
  }
}, 30_000);
