/**
 * Privileged intents as a developer meets them: saving MESSAGE_CONTENT asks for it, and
 * the page says it waits for an administrator and what a bot asking for it meets (4014,
 * which a real discord.js bot does meet); once approved, the page says the current token
 * lacks it until a reset, and after the reset it says nothing more.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { Client, GatewayIntentBits as I } from "discord.js";
import { launch, openAs, serve, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", admin: true }, { name: "dana" }],
    applications: [{ name: "Reader", owner: "dana", intents: ["GUILDS", "GUILD_MESSAGES"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("privileged intents in the portal", () => {
  test("saved but not approved: the page says so and names 4014; approved: reset the token; reset: settled", async () => {
    const appId = s.id(s.world.applications.Reader.id);
    const dana = await openAs(browser, s.base, `/developers/applications/${appId}`, "dana");
    try {
      const page = dana.page;
      const intents = page.getByRole("region", { name: "Gateway intents" });
      expect(await intents.getByText("not approved").count()).toBe(0);
      await intents.getByRole("checkbox", { name: "MESSAGE_CONTENT" }).check();
      await intents.getByRole("button", { name: "Save intents" }).click();
      const status = intents.getByRole("status");
      await status.filter({ hasText: "Intents saved." }).waitFor();
      expect(await status.textContent()).toBe(
        "Intents saved. MESSAGE_CONTENT waits for an administrator's approval; reset the token to use the others.",
      );
      const warning = intents.getByText(/^MESSAGE_CONTENT is not approved: no token carries it yet\./);
      await warning.waitFor();
      expect(await warning.textContent()).toContain("close code 4014");

      // What the page warns of is what a bot meets, even with a fresh token.
      const fresh = (await s.as("dana", "POST", `/applications/${appId}/token`)).token as string;
      const bot = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent], rest: { api: `${s.base}/api` } });
      const refused = await bot.login(fresh).then(
        () => "connected",
        (e: Error) => e.message,
      );
      await bot.destroy();
      expect(refused).toBe("Used disallowed intents");

      await s.as("alice", "POST", `/admin/applications/${appId}/privileged`, { intents: ["MESSAGE_CONTENT"] });
      await page.reload();
      const stale = intents.getByText("Not in the current token yet: MESSAGE_CONTENT. Reset the token (below) to use it.");
      await stale.waitFor();
      expect(await intents.getByText("not approved").count()).toBe(0);

      await page.getByRole("button", { name: "Reset token" }).click();
      await page.getByRole("dialog", { name: "Reset the token?" }).getByRole("button", { name: "Reset", exact: true }).click();
      await page.getByRole("textbox", { name: "Token" }).waitFor();
      await stale.waitFor({ state: "detached" });
    } finally {
      await dana.context.close();
    }
  }, 40_000);
});
