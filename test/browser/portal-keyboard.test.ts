/**
 * The application page by keyboard and by name: a reset token takes focus once the
 * confirmation closes (a cancel gives it back to "Reset token"); each server's Remove
 * says which server; the fields say their limits; the install page says what the bot
 * may do where it joins, on the Install button itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { launch, openAs, serve, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [{ name: "dana" }],
    guilds: [
      { name: "Den", owner: "dana", channels: [{ name: "general" }] },
      { name: "Attic", owner: "dana", channels: [{ name: "general" }] },
    ],
    applications: [{ name: "Keys", owner: "dana", install: ["Den", "Attic"] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const hasFocus = (l: Locator) => l.evaluate((el) => el === document.activeElement).catch(() => false);

describe("the application page by keyboard", () => {
  test("Reset token: Cancel gives focus back; Reset puts it on the new token", async () => {
    const dana = await openAs(browser, s.base, `/developers/applications/${s.id(s.world.applications.Keys.id)}`, "dana");
    try {
      const page = dana.page;
      const opener = page.getByRole("button", { name: "Reset token" });
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Reset the token?" });
      await until("focus on Cancel", () => hasFocus(dialog.getByRole("button", { name: "Cancel" })));
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await until("focus back on Reset token", () => hasFocus(opener));

      await page.keyboard.press("Enter");
      await until("focus on Cancel again", () => hasFocus(dialog.getByRole("button", { name: "Cancel" })));
      await page.keyboard.press("Shift+Tab");
      await until("focus on Reset", () => hasFocus(dialog.getByRole("button", { name: "Reset", exact: true })));
      await page.keyboard.press("Enter");
      const token = page.getByRole("region", { name: "Bot token" }).getByRole("textbox", { name: "Token" });
      await token.waitFor();
      await until("focus on the new token", () => hasFocus(token));
      // The token box selects itself when focused: Ctrl+C copies it.
      expect(
        await page.evaluate(() => String(window.getSelection()) || (document.activeElement as HTMLInputElement).selectionEnd),
      ).toBeTruthy();
    } finally {
      await dana.context.close();
    }
  }, 30_000);

  test("each Remove names its server; the fields say their limits; Install says what the bot may do", async () => {
    const appId = s.id(s.world.applications.Keys.id);
    const dana = await openAs(browser, s.base, `/developers/applications/${appId}`, "dana");
    try {
      const page = dana.page;
      const servers = page.getByRole("list", { name: "Servers the bot is in" });
      await servers.getByRole("button", { name: "Remove from Den" }).waitFor();
      await servers.getByRole("button", { name: "Remove from Attic" }).waitFor();
      // Each server's ID, as the bot knows it, for registering that server's commands.
      const denId = servers.getByRole("textbox", { name: "Server ID of Den" });
      await denId.waitFor();
      expect(await denId.inputValue()).toBe(s.world.guilds.Den.id);
      await servers.getByRole("button", { name: "Copy server ID of Den" }).waitFor();
      const general = page.getByRole("form", { name: "General information" });
      const describedBy = async (l: Locator) =>
        page.evaluate(
          (ids) =>
            (ids ?? "")
              .split(" ")
              .map((id) => document.getElementById(id)?.textContent ?? "")
              .join(" "),
          await l.getAttribute("aria-describedby"),
        );
      expect(await describedBy(general.getByRole("textbox", { name: "Name" }))).toContain("2 to 32 characters");
      expect(await describedBy(general.getByRole("textbox", { name: "Description" }))).toContain("Up to 400 characters");

      await servers.getByRole("button", { name: "Remove from Attic" }).click();
      await servers.getByRole("button", { name: "Remove from Attic" }).waitFor({ state: "detached" });
      await page.goto(`${s.base}/developers/install/${appId}`);
      const install = page.getByRole("button", { name: "Install", exact: true });
      await install.waitFor();
      expect(await describedBy(install)).toContain(
        "No permissions are asked for here: Keys joins as a member, with what everyone in the server may do.",
      );
    } finally {
      await dana.context.close();
    }
  }, 30_000);
});
