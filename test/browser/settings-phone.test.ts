/**
 * Server settings on a phone (360 px): a select is as wide as its longest option, so a
 * long channel name once widened the Roles, Channels and Invites sections past the
 * pane, whose right edge (buttons included) was then cut off. Every section fits.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }],
    guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }, { name: "a-really-long-channel-name-for-testing" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("every section of Server settings fits a 360 px screen despite a long channel name", async () => {
  const { context, page } = await signIn(browser, s.base, "alice", { viewport: { width: 360, height: 740 } });
  try {
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
    const settings = page.getByRole("region", { name: "Server settings" });
    const wider: Record<string, number> = {};
    for (const section of ["Roles", "Channels", "Invites"]) {
      await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
      await page
        .getByRole("heading", { name: section === "Roles" ? "Channel permissions" : section === "Channels" ? "Edit a channel" : "Invites" })
        .waitFor();
      wider[section] = await settings.evaluate((el) => el.scrollWidth - el.clientWidth);
    }
    expect(wider).toEqual({ Roles: 0, Channels: 0, Invites: 0 });
  } finally {
    await context.close();
  }
}, 30_000);
