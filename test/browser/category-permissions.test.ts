/**
 * A category's permissions in Server settings, as the reference client offers them: the
 * "Channel permissions" editor edits a category's overwrites too, and the channels synced
 * with it follow; a channel in a category says whether its permissions are synced and
 * offers "Sync permissions with <category>" (one PATCH carrying the category's list); a
 * channel moved into a category by its picker is asked whether to take the category's
 * permissions (lock_permissions), or keep its own, or stay where it was.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launch, serve, signIn, until, type Served } from "./support";
import { sweep } from "./axe-support";

let browser: Browser;
let s: Served;

const SEND = 1 << 11;
const ATTACH = 1 << 15;

beforeAll(async () => {
  s = serve({
    users: [{ name: "alice", global_name: "Alice" }],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        channels: [
          { name: "general" },
          { name: "random", overwrites: [{ role: "@everyone", allow: ["ATTACH_FILES"] }] },
          { name: "lobby" },
          { name: "Staff", type: 4 },
          { name: "plans", parent: "Staff" },
          { name: "notes", parent: "Staff", overwrites: [{ role: "@everyone", deny: ["ATTACH_FILES"] }] },
        ],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const lab = () => s.id(s.world.guilds.Lab.id);
const channelId = (name: string) => s.id(s.world.guilds.Lab.channels[name]);
const overwrites = (name: string) =>
  s.p.core.guilds.overwrites(channelId(name)).map((o) => ({ target: o.target_id, allow: o.allow, deny: o.deny }));
const parentOf = (name: string) => s.p.core.guilds.channel(channelId(name))!.parent_id;

async function openSection(page: Page, section: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Server settings" });
  if (!(await nav.isVisible()))
    await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await nav.getByRole("button", { name: section, exact: true }).click();
}

describe("category permissions", () => {
  test("a category's overwrites are edited like a channel's; a synced channel follows, another says it is not synced and syncs", async () => {
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSection(a, "Roles");
      const form = a.getByRole("form", { name: "Channel permissions" });
      const which = form.getByRole("combobox", { name: "Channel", exact: true });
      const send = form.getByRole("combobox", { name: "Send Messages", exact: true });
      const attach = form.getByRole("combobox", { name: "Attach Files", exact: true });
      // The picker lists the category before its channels, as the rail does.
      expect(await which.getByRole("option").allTextContents()).toEqual([
        "#general",
        "#random",
        "#lobby",
        "Category Staff",
        "#plans",
        "#notes",
      ]);
      expect(await form.getByText(/synced with/).count()).toBe(0);

      await which.selectOption({ label: "Category Staff" });
      await send.selectOption("deny");
      await form.getByRole("button", { name: "Save overwrites" }).click();
      await form.getByRole("status").filter({ hasText: "Overwrites saved." }).waitFor();
      expect(overwrites("Staff")).toEqual([{ target: lab(), allow: 0, deny: SEND }]);
      // plans had the category's permissions (none), so it follows; notes had its own.
      await until("plans follows Staff", async () => overwrites("plans").length === 1);
      expect(overwrites("plans")).toEqual(overwrites("Staff"));
      expect(overwrites("notes")).toEqual([{ target: lab(), allow: 0, deny: ATTACH }]);

      await which.selectOption({ label: "#plans" });
      await form.getByText("Permissions synced with Staff.").waitFor();
      expect(await send.inputValue()).toBe("deny");
      expect(await form.getByRole("button", { name: "Sync permissions with Staff" }).count()).toBe(0);

      await which.selectOption({ label: "#notes" });
      await form.getByText("Permissions not synced with Staff.").waitFor();
      expect(await attach.inputValue()).toBe("deny");
      await a11y.check(a, "Channel permissions: a channel not synced with its category");
      await form.getByRole("button", { name: "Sync permissions with Staff" }).click();
      await form.getByRole("status").filter({ hasText: "#notes synced with Staff." }).waitFor();
      const synced = form.getByText("Permissions synced with Staff.");
      await synced.waitFor();
      // The button is gone; focus is on the line that took its place, not lost to the page.
      expect(await synced.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(overwrites("notes")).toEqual(overwrites("Staff"));
      expect(await send.inputValue()).toBe("deny");
      expect(await attach.inputValue()).toBe("inherit");

      // Synced now, notes follows the category's next change too.
      await which.selectOption({ label: "Category Staff" });
      await attach.selectOption("allow");
      await form.getByRole("button", { name: "Save overwrites" }).click();
      await until("notes follows Staff again", async () => overwrites("notes")[0]?.allow === ATTACH);
      await which.selectOption({ label: "#notes" });
      await form.getByText("Permissions synced with Staff.").waitFor();
      expect(await attach.inputValue()).toBe("allow");
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("a channel moved into a category by its picker is asked whether to take the category's permissions", async () => {
    // The category's permissions differ from each channel's moved here, whatever ran before.
    await s.as("alice", "PUT", `/channels/${channelId("Staff")}/overwrites/${lab()}`, { type: "role", deny: ["SEND_MESSAGES"] });
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSection(a, "Channels");
      const order = a.getByRole("region", { name: "Order and categories" });
      const staff = order.getByRole("list", { name: "Category Staff" });

      // Called off: it stays where it was, and its picker says so.
      await order.getByRole("combobox", { name: "Category for lobby" }).selectOption({ label: "Staff" });
      let ask = a.getByRole("dialog", { name: "Move #lobby into Staff?" });
      await ask.waitFor();
      await a11y.check(a, "Move a channel into a category (asked)");
      await ask.getByRole("button", { name: "Cancel" }).click();
      await ask.waitFor({ state: "detached" });
      expect(await order.getByRole("combobox", { name: "Category for lobby" }).inputValue()).toBe("");
      expect(parentOf("lobby")).toBeNull();

      // Taking the category's permissions, by keyboard: one request, with lock_permissions; focus follows the row.
      const picker = order.getByRole("combobox", { name: "Category for random" });
      await picker.focus();
      await picker.selectOption({ label: "Staff" });
      ask = a.getByRole("dialog", { name: "Move #random into Staff?" });
      await ask.waitFor();
      expect(await ask.getByRole("button", { name: "Sync permissions with Staff" }).evaluate((el) => el === document.activeElement)).toBe(
        true,
      );
      await a.keyboard.press("Enter");
      await staff.getByRole("button", { name: "Move random up" }).waitFor();
      expect(parentOf("random")).toBe(channelId("Staff"));
      expect(overwrites("random")).toEqual(overwrites("Staff"));
      const moved = staff.getByRole("combobox", { name: "Category for random" });
      await until("focus on the moved row's picker", () => moved.evaluate((el) => el === document.activeElement));

      // Keeping its own: it moves, and its permissions stay as they were.
      await order.getByRole("combobox", { name: "Category for general" }).selectOption({ label: "Staff" });
      ask = a.getByRole("dialog", { name: "Move #general into Staff?" });
      await ask.getByRole("button", { name: "Keep its permissions" }).click();
      await staff.getByRole("button", { name: "Move general up" }).waitFor();
      expect(parentOf("general")).toBe(channelId("Staff"));
      expect(overwrites("general")).toEqual([]);

      // Out of a category: nothing to ask.
      await order.getByRole("combobox", { name: "Category for general" }).selectOption({ label: "No category" });
      await order.getByRole("list", { name: "Channels outside categories" }).getByRole("button", { name: "Move general up" }).waitFor();
      expect(await a.getByRole("dialog").count()).toBe(0);
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);
});
