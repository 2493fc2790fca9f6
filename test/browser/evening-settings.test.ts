/**
 * An evening of running a server, by keyboard: a form's button (Save, Create channel)
 * keeps focus through its request, though it is disabled meanwhile; reordering channels and roles keeps focus
 * on the control that moved them; closing a role's editor puts focus back on its "Edit"
 * button; a channel picked in the rail while Server settings are open shows that channel;
 * every channel picker lists channels in the rail's order; the audit log names the server
 * for a change to the server, and a category without a "#".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { channelEntry, launch, serve, signIn, until, type Served } from "./support";

let s: Served;
let browser: Browser;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "olive", global_name: "Olive" },
      { name: "mo", global_name: "Mo" },
    ],
    guilds: [
      {
        name: "Club",
        owner: "olive",
        members: ["mo"],
        roles: [
          { name: "Mod", permissions: ["KICK_MEMBERS"], members: ["mo"] },
          { name: "Helpers", permissions: [] },
        ],
        channels: [
          { name: "Info", type: 4 },
          { name: "Talk", type: 4 },
          { name: "rules", parent: "Info" },
          { name: "general", parent: "Talk" },
          { name: "chat", parent: "Talk" },
          { name: "random", parent: "Talk" },
        ],
      },
      { name: "Den", owner: "olive", channels: [{ name: "lounge" }] },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Focus is on what `l` finds (polled, bounded by WAIT_MS). */
function focused(l: Locator): Promise<void> {
  return until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));
}

async function openSettings(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

describe("server settings by keyboard", () => {
  test("a form's button pressed by keyboard keeps focus once its request is done", async () => {
    const { context, page } = await signIn(browser, s.base, "olive");
    try {
      await page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Den" }).click();
      await page.getByRole("textbox", { name: "Message #lounge" }).waitFor();
      await openSettings(page, "Overview");
      await page.getByRole("textbox", { name: "Server name" }).fill("The Den");
      const save = page.getByRole("button", { name: "Save", exact: true });
      await save.focus();
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
      await focused(save);

      await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Channels", exact: true }).click();
      await page.getByRole("textbox", { name: "Channel name" }).fill("by-keys");
      const create = page.getByRole("button", { name: "Create channel" });
      await create.focus();
      await page.keyboard.press("Space");
      await page.getByRole("status").filter({ hasText: "#by-keys created." }).waitFor();
      await focused(create);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("moving a channel, a category and a role keeps focus on the moving control; Done goes back to Edit", async () => {
    const { context, page } = await signIn(browser, s.base, "olive");
    try {
      await openSettings(page, "Channels");
      const order = page.getByRole("region", { name: "Order and categories" });
      const talk = order.getByRole("list", { name: "Category Talk" });
      // In the middle of its list: focus stays on the same button, which is still usable.
      await order.getByRole("button", { name: "Move chat down" }).focus();
      await page.keyboard.press("Enter");
      await order.getByRole("status").filter({ hasText: "#chat moved down." }).waitFor();
      expect(await talk.getByRole("listitem").allTextContents()).toEqual([
        expect.stringContaining("#general"),
        expect.stringContaining("#random"),
        expect.stringContaining("#chat"),
      ]);
      // At the bottom now, "down" is disabled: focus is on "up".
      await focused(order.getByRole("button", { name: "Move chat up" }));
      // Up again by keyboard, twice: in the middle focus stays; at the top "up" is disabled, and focus goes to "down".
      await page.keyboard.press("Enter");
      await order.getByRole("status").filter({ hasText: "#chat moved up." }).waitFor();
      await focused(order.getByRole("button", { name: "Move chat up" }));
      await page.keyboard.press("Enter");
      await until(
        "#chat first in Talk",
        async () => (await talk.getByRole("listitem").first().textContent())?.startsWith("#chat") ?? false,
      );
      await focused(order.getByRole("button", { name: "Move chat down" }));

      // Into another category with the keyboard: focus follows the row to its new list.
      const picker = order.getByRole("combobox", { name: "Category for random" });
      await picker.focus();
      await picker.selectOption({ label: "Info" });
      await order.getByRole("status").filter({ hasText: "#random moved." }).waitFor();
      await order.getByRole("list", { name: "Category Info" }).getByRole("combobox", { name: "Category for random" }).waitFor();
      await focused(order.getByRole("combobox", { name: "Category for random" }));

      // Categories move the same way.
      await order.getByRole("button", { name: "Move category Talk up" }).focus();
      await page.keyboard.press("Enter");
      await order.getByRole("status").filter({ hasText: "Category Talk moved up." }).waitFor();
      await focused(order.getByRole("button", { name: "Move category Talk down" }));

      // Roles: the order comes back through the live connection; focus waits for it.
      await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Roles", exact: true }).click();
      const roles = page.getByRole("region", { name: "Roles here" });
      await roles.getByRole("button", { name: "Move Mod up" }).focus();
      await page.keyboard.press("Enter");
      await roles.getByRole("status").filter({ hasText: "Mod moved up." }).waitFor();
      await until("Mod on top", async () => (await roles.getByRole("listitem").first().textContent())?.includes("Mod") ?? false);
      await focused(roles.getByRole("button", { name: "Move Mod down" }));

      await roles.getByRole("button", { name: "Edit Mod" }).focus();
      await page.keyboard.press("Enter");
      await roles.getByRole("form", { name: "Edit Mod" }).getByRole("button", { name: "Done" }).focus();
      await page.keyboard.press("Enter");
      await roles.getByRole("form", { name: "Edit Mod" }).waitFor({ state: "detached" });
      await focused(roles.getByRole("button", { name: "Edit Mod" }));
    } finally {
      await context.close();
    }
  }, 45_000);

  test("a channel picked in the rail while the settings are open closes them and shows the channel", async () => {
    const { context, page } = await signIn(browser, s.base, "olive");
    try {
      await openSettings(page, "Invites");
      await channelEntry(page, "random").click();
      await page.getByRole("region", { name: "Server settings" }).waitFor({ state: "detached" });
      await page.getByRole("heading", { name: "#random" }).waitFor();
      await page.getByRole("textbox", { name: "Message #random" }).waitFor();
      expect(await page.getByRole("button", { name: "Server settings" }).getAttribute("aria-pressed")).toBe("false");
    } finally {
      await context.close();
    }
  }, 20_000);

  test("the settings' channel pickers list channels in the rail's order, categories and all", async () => {
    const { context, page } = await signIn(browser, s.base, "olive");
    try {
      await openSettings(page, "Invites");
      const rail = await page
        .getByRole("navigation", { name: "Channels" })
        .getByRole("listitem")
        .evaluateAll((items) => items.map((li) => `#${li.querySelector("button .name")?.textContent}`));
      expect(rail.length).toBe(4);
      expect(await page.getByRole("combobox", { name: "Invite channel" }).getByRole("option").allTextContents()).toEqual(rail);
      await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Channels", exact: true }).click();
      expect(await page.getByRole("combobox", { name: "Channel to edit" }).getByRole("option").allTextContents()).toEqual(rail);
    } finally {
      await context.close();
    }
  }, 20_000);

  test("the audit log names the server for its own changes and a category by its name", async () => {
    const guild = s.world.guilds.Club.id;
    await s.as("olive", "PATCH", `/guilds/${s.id(guild)}`, { name: "Club Night" });
    await s.as("olive", "POST", `/guilds/${s.id(guild)}/channels`, { name: "Archive", type: 4 });
    const { context, page } = await signIn(browser, s.base, "olive");
    try {
      await openSettings(page, "Audit log");
      const rows = page.getByRole("table", { name: "Audit log" }).getByRole("row");
      await rows.filter({ hasText: "Server updated" }).first().waitFor();
      expect(await rows.filter({ hasText: "Server updated" }).getByRole("cell").nth(2).textContent()).toBe("Club Night");
      expect(await rows.filter({ hasText: "Channel created" }).getByRole("cell").nth(2).textContent()).toBe("Archive");
    } finally {
      await context.close();
    }
  }, 20_000);
});
