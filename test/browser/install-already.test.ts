/**
 * The install page does not offer, as new, a server that already holds the bot: it is
 * named "(already added)" and cannot be picked, so Install never claims to have added
 * a bot that was there all along; when every server one manages holds it, the page says so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, openAs, serve, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      { name: "Lab", owner: "bob", channels: [{ name: "general" }] },
      { name: "Den", owner: "bob", channels: [{ name: "general" }] },
    ],
    applications: [{ name: "Helper", owner: "alice", intents: ["GUILDS"], install: ["Lab"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("a server holding the bot is marked and not offered; once it is everywhere, the page says so", async () => {
  const path = `/developers/install/${s.world.applications.Helper.id}`;
  const { context, page } = await openAs(browser, s.base, path, "bob");
  try {
    const server = page.getByRole("combobox", { name: "Server" });
    await server.waitFor();
    expect(await server.getByRole("option", { name: "Lab (already added)" }).isDisabled()).toBe(true);
    expect(await server.inputValue()).toBe(s.id(s.world.guilds.Den.id));
    await page.getByRole("button", { name: "Install", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Helper is now a member of Den." }).waitFor();

    await page.goto(`${s.base}${path}`);
    await page.getByText("Helper is already in every server you manage.").waitFor();
    expect(await page.getByRole("button", { name: "Install", exact: true }).isDisabled()).toBe(true);
  } finally {
    await context.close();
  }
}, 30_000);
