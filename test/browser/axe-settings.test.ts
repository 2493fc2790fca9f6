/**
 * The accessibility sweep of the settings (axe-support.ts): every section of Server
 * settings as its owner sees it (a role and a channel open for editing, an invite made, a
 * kick and a ban asked about, a ban and an emoji listed, the audit log), and every
 * section of User settings. Each state is reached by clicking as a person would, and
 * checked at 1280 and 390 px with axe's WCAG 2.1 A and AA rules as they are.
 */
import { afterAll, beforeAll, describe, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { png } from "../support/png";
import { launch, serve, signIn, type Served } from "./support";
import { sweep } from "./axe-support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
      { name: "dave", global_name: "Dave" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "carol", "dave"],
        roles: [{ name: "Helpers", members: ["bob"], color: 0x23a559, permissions: ["MANAGE_MESSAGES"] }],
        channels: [{ name: "Talk", type: 4 }, { name: "general", parent: "Talk" }, { name: "random" }],
      },
    ],
    applications: [{ name: "Gizmo", owner: "alice", install: ["Lab"] }],
  });
  const [alice, dave, lab] = [s.id(s.world.users.alice.id), s.id(s.world.users.dave.id), s.id(s.world.guilds.Lab.id)];
  await s.p.core.emojis.create(alice, lab, { name: "party", image: { bytes: png(8, 8, 9) } });
  s.p.core.moderation.ban(lab, alice, dave, { reason: "spam links" });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Asks `button`'s question, checks the dialog `title`, and answers Cancel. */
async function confirm(page: Page, a11y: ReturnType<typeof sweep>, button: string, title: string): Promise<void> {
  await page.getByRole("button", { name: button, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await a11y.check(page, `${title} (confirm)`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("accessibility: settings", () => {
  test("every section of Server settings, with its editors and confirmations", async () => {
    const a11y = sweep();
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
      const sections = a.getByRole("navigation", { name: "Server settings" });
      await sections.waitFor();
      for (const name of await sections.getByRole("button").allTextContents()) {
        await sections.getByRole("button", { name, exact: true }).click();
        await sections.getByRole("button", { name, exact: true, pressed: false }).or(a.locator("[aria-current=page]")).first().waitFor();
        if (name === "Roles") await a.getByRole("button", { name: "Edit Helpers" }).waitFor();
        if (name === "Members") await a.getByRole("button", { name: "Kick Carol" }).waitFor();
        if (name === "Bans") await a.getByRole("list", { name: "Banned people" }).getByRole("listitem").first().waitFor();
        if (name === "Audit log") await a.getByRole("table", { name: "Audit log" }).getByRole("row").nth(1).waitFor();
        await a11y.check(a, `Server settings: ${name}`);
        if (name === "Roles") {
          await a.getByRole("button", { name: "Edit Helpers" }).click();
          await a.getByRole("form", { name: "Edit Helpers" }).waitFor();
          await a11y.check(a, "Server settings: a role's editor");
          await a.getByRole("form", { name: "Edit Helpers" }).getByRole("button", { name: "Done" }).click();
          await confirm(a, a11y, "Delete Helpers", "Delete Helpers?");
        }
        if (name === "Channels") {
          await a.getByRole("combobox", { name: "Channel to edit" }).selectOption({ label: "#random" });
          await a.getByRole("form", { name: "Settings for #random" }).waitFor();
          await a11y.check(a, "Server settings: a channel's editor");
        }
        if (name === "Invites") {
          await a.getByRole("button", { name: "Create invite" }).click();
          await a.getByRole("table", { name: "Invite links" }).getByRole("row").nth(1).waitFor();
          await a11y.check(a, "Server settings: an invite made");
        }
        if (name === "Members") {
          await confirm(a, a11y, "Kick Carol", "Kick Carol?");
          await confirm(a, a11y, "Ban Carol", "Ban Carol?");
        }
      }
    } finally {
      await alice.context.close();
    }
    a11y.clean();
  }, 60_000);

  test("every section of User settings", async () => {
    const a11y = sweep();
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await confirm(b, a11y, "Sign out", "Sign out?");
      await confirm(b, a11y, "Leave server", "Leave Lab?");
      await b.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "User settings" }).click();
      const dialog = b.getByRole("dialog", { name: "User settings" });
      const sections = dialog.getByRole("navigation", { name: "User settings" });
      await sections.waitFor();
      for (const name of await sections.getByRole("button").allTextContents()) {
        await sections.getByRole("button", { name, exact: true }).click();
        await dialog.getByRole("region", { name }).waitFor();
        if (name === "Account") await dialog.getByRole("list", { name: "Sessions" }).getByRole("listitem").first().waitFor();
        await a11y.check(b, `User settings: ${name}`);
      }
    } finally {
      await bob.context.close();
    }
    a11y.clean();
  }, 60_000);
});
