/**
 * A role's permissions after it was made: "Edit <role>" in Server settings → Roles shows
 * them as labelled checkboxes, pre-checked from the role, and "Save role" sends them; so
 * does "Edit @everyone", whose change reaches a member's composer. A bit the person lacks
 * is not theirs to grant: its box is disabled (rank.test.ts: a refusal, should one come anyway).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { channelEntry, launch, serve, signIn, until, type Served } from "./support";

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
        roles: [
          { name: "Helpers", permissions: ["SEND_MESSAGES"], members: ["carol"] },
          { name: "Mods", permissions: ["MANAGE_ROLES", "SEND_MESSAGES"], members: ["bob"] },
        ],
        channels: [{ name: "general" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const MANAGE_MESSAGES = 1 << 13;
const SEND_MESSAGES = 1 << 11;
const lab = () => s.id(s.world.guilds.Lab.id);
/** A role's permission bits as the server holds them. */
const bitsOf = (name: string) => Number(s.p.core.guilds.roles(lab()).find((r) => r.name === name)!.permissions);

async function openRoles(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Roles", exact: true }).click();
}

/** Opens a role's editor and answers its "Permissions" group. */
async function editRole(page: Page, role: string) {
  await page
    .getByRole("list", { name: "Roles" })
    .getByRole("button", { name: `Edit ${role}`, exact: true })
    .click();
  const form = page.getByRole("form", { name: `Edit ${role}` });
  return { form, perms: form.getByRole("group", { name: "Permissions" }) };
}

describe("a role's permissions in its editor", () => {
  test("the owner checks Manage Messages on a role and saves; unchecking it takes it away again", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openRoles(a);
      const { form, perms } = await editRole(a, "Helpers");
      // Pre-checked from what the role holds now.
      expect(await perms.getByRole("checkbox", { name: "Send Messages" }).isChecked()).toBe(true);
      const manage = perms.getByRole("checkbox", { name: "Manage Messages" });
      expect(await manage.isChecked()).toBe(false);
      await manage.check();
      await form.getByRole("button", { name: "Save role" }).click();
      await form.getByRole("status").filter({ hasText: "Helpers saved." }).waitFor();
      expect(bitsOf("Helpers")).toBe(MANAGE_MESSAGES | SEND_MESSAGES);

      await manage.uncheck();
      await form.getByRole("button", { name: "Save role" }).click();
      await until("Helpers loses Manage Messages", async () => bitsOf("Helpers") === SEND_MESSAGES);
      await form.getByRole("status").filter({ hasText: "Helpers saved." }).waitFor();
      await form.getByRole("button", { name: "Done" }).click();
      await form.waitFor({ state: "detached" });
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("a permission the person does not hold is not offered; one they hold is", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openRoles(b);
      const { perms } = await editRole(b, "Helpers");
      expect(await perms.getByRole("checkbox", { name: "Ban Members" }).isDisabled()).toBe(true);
      expect(await perms.getByRole("checkbox", { name: "Send Messages" }).isDisabled()).toBe(false);
      await perms.getByText("Only permissions you hold are yours to give.").waitFor();
      expect(bitsOf("Helpers")).toBe(SEND_MESSAGES);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("the owner unchecks Send Messages for @everyone; a member's composer then says they cannot send", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openRoles(a);
      const { form, perms } = await editRole(a, "@everyone");
      // @everyone cannot be renamed: its editor has no name field.
      expect(await form.getByRole("textbox", { name: "Name" }).count()).toBe(0);
      const send = perms.getByRole("checkbox", { name: "Send Messages" });
      expect(await send.isChecked()).toBe(true);
      await send.uncheck();
      await form.getByRole("button", { name: "Save role" }).click();
      await form.getByRole("status").filter({ hasText: "@everyone saved." }).waitFor();
      const everyone = s.p.core.guilds.roles(lab()).find((r) => r.id === lab())!;
      expect(Number(everyone.permissions) & SEND_MESSAGES).toBe(0);
      // Other bits @everyone held stay.
      expect(Number(everyone.permissions)).not.toBe(0);
    } finally {
      await alice.context.close();
    }
    // Dave holds no role but @everyone: he may no longer write.
    const dave = await signIn(browser, s.base, "dave");
    try {
      const d = dave.page;
      await channelEntry(d, "general").click();
      const box = d.getByRole("textbox", { name: "Message #general" });
      await box.waitFor();
      await d.getByRole("note").filter({ hasText: "You do not have permission to send messages in #general" }).waitFor();
      expect(await box.isDisabled()).toBe(true);
    } finally {
      await dave.context.close();
    }
  }, 30_000);
});
