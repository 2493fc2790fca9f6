/**
 * The discord.js guide's deploy-commands.js, run as a hobby developer would: its
 * `clientId` is the Application ID copied from the portal (not the bot user's id, which
 * the token starts with); the command it registers is then in the chat's command list.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { REST, Routes } from "discord.js";
import { launch, openAs, serve, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "dana" }],
    guilds: [{ name: "Den", owner: "dana", channels: [{ name: "general" }] }],
    applications: [{ name: "Deployer", owner: "dana", install: ["Den"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("the Application ID in the portal", () => {
  test("copied from the page, it is the clientId deploy-commands.js registers a slash command under", async () => {
    const app = s.world.applications.Deployer;
    const dana = await openAs(browser, s.base, `/developers/applications/${s.id(app.id)}`, "dana");
    await dana.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.base });
    try {
      const page = dana.page;
      const keys = page.getByRole("region", { name: "Keys and links" });
      await keys.getByRole("button", { name: "Copy application ID" }).click();
      await keys.getByRole("status").filter({ hasText: "Copied." }).waitFor();
      const clientId = await page.evaluate(() => navigator.clipboard.readText());
      expect(clientId).toMatch(/^[0-9]{17,20}$/);
      expect(await keys.getByRole("textbox", { name: "Application ID" }).inputValue()).toBe(clientId);

      const rest = new REST({ api: `${s.base}/api` }).setToken(app.token);
      await rest.put(Routes.applicationCommands(clientId), { body: [{ name: "ping", description: "Replies with pong" }] });

      await page.goto(`${s.base}/channels/${s.id(s.world.guilds.Den.id)}`);
      await page.getByRole("textbox", { name: "Message #general" }).fill("/ping");
      await page.getByRole("listbox", { name: "Commands" }).getByRole("option", { name: "/ping" }).waitFor();
    } finally {
      await dana.context.close();
    }
  }, 30_000);
});
