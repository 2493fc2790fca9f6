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
});
