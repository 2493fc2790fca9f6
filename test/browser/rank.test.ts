/**
 * What Server settings offers a moderator matches what the server allows them: the role
 * hierarchy (only roles and members strictly below one's highest role) and grants (only
 * permissions one holds; Manage Roles in a channel's overwrites for administrators
 * alone). What would be refused is not offered, disabled with the reason; and a refusal
 * the page could not foresee (its news of a change still on the way) is shown beside the
 * control, with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Locator, Page } from "playwright-core";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, until, type Served } from "./support";

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
        // Listed lowest first: Helpers 1, Mods 2, Admins 3.
        roles: [
          { name: "Helpers", permissions: ["SEND_MESSAGES"], members: ["carol"] },
          { name: "Mods", permissions: ["MANAGE_ROLES", "KICK_MEMBERS", "BAN_MEMBERS", "SEND_MESSAGES"], members: ["bob"] },
          { name: "Admins", permissions: ["MANAGE_GUILD", "SEND_MESSAGES"], members: ["dave"] },
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

const lab = () => s.id(s.world.guilds.Lab.id);
const roleBits = (name: string) => Number(s.p.core.guilds.roles(lab()).find((r) => r.name === name)!.permissions);

async function openSection(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

async function disabled(l: Locator): Promise<boolean> {
  await l.waitFor();
  return l.isDisabled();
}

describe("a moderator is offered only what the server allows", () => {
  test("roles: nothing at or above their own rank, and no permission they do not hold", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openSection(b, "Roles");
      const roles = b.getByRole("list", { name: "Roles" });
      for (const role of ["Admins", "Mods"]) {
        expect(await disabled(roles.getByRole("button", { name: `Edit ${role}`, exact: true }))).toBe(true);
        expect(await disabled(roles.getByRole("button", { name: `Delete ${role}`, exact: true }))).toBe(true);
      }
      expect(await disabled(roles.getByRole("button", { name: "Edit Helpers", exact: true }))).toBe(false);
      expect(await disabled(roles.getByRole("button", { name: "Delete Helpers", exact: true }))).toBe(false);

      // The editor of a role below: grants only of what Bob holds; Send Messages, held, stays his to change.
      await roles.getByRole("button", { name: "Edit Helpers", exact: true }).click();
      const perms = b.getByRole("form", { name: "Edit Helpers" }).getByRole("group", { name: "Permissions" });
      for (const p of ["Administrator", "Manage Server", "Manage Channels", "Manage Messages"])
        expect(await disabled(perms.getByRole("checkbox", { name: p }))).toBe(true);
      for (const p of ["Kick Members", "Ban Members", "Send Messages"])
        expect(await disabled(perms.getByRole("checkbox", { name: p }))).toBe(false);

      // A new role: the same.
      const create = b.getByRole("form", { name: "Roles" });
      expect(await disabled(create.getByRole("checkbox", { name: "Administrator" }))).toBe(true);
      expect(await disabled(create.getByRole("checkbox", { name: "Kick Members" }))).toBe(false);

      // A channel's overwrites: Manage Roles is administrators' alone; bits Bob lacks are not his to allow or deny.
      const overwrites = b.getByRole("form", { name: "Channel permissions" });
      for (const p of ["Manage Roles", "Manage Server", "Administrator"])
        expect(await disabled(overwrites.getByRole("combobox", { name: p, exact: true }))).toBe(true);
      expect(await disabled(overwrites.getByRole("combobox", { name: "Kick Members", exact: true }))).toBe(false);
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("members: nobody at or above their rank, and only roles below it", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openSection(b, "Members");
      const list = b.getByRole("list", { name: "Members to moderate" });
      // Dave holds Admins, above Mods: nothing of his is Bob's to change.
      expect(await disabled(list.getByRole("button", { name: "Kick Dave" }))).toBe(true);
      expect(await disabled(list.getByRole("button", { name: "Ban Dave" }))).toBe(true);
      expect(await disabled(list.getByRole("textbox", { name: "Nickname for Dave" }))).toBe(true);
      expect(await disabled(list.getByRole("group", { name: "Roles for Dave" }).getByRole("checkbox", { name: "Helpers" }))).toBe(true);
      // Carol holds Helpers, below: hers are, but for roles at or above Bob's own.
      expect(await disabled(list.getByRole("button", { name: "Kick Carol" }))).toBe(false);
      expect(await disabled(list.getByRole("button", { name: "Ban Carol" }))).toBe(false);
      const carols = list.getByRole("group", { name: "Roles for Carol" });
      expect(await disabled(carols.getByRole("checkbox", { name: "Helpers" }))).toBe(false);
      expect(await disabled(carols.getByRole("checkbox", { name: "Mods" }))).toBe(true);
      expect(await disabled(carols.getByRole("checkbox", { name: "Admins" }))).toBe(true);
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});

/** A browser profile whose live connection's news to the page is held back until `release()`. */
async function heldBack(context: BrowserContext) {
  let holding = false;
  const queue: (() => void)[] = [];
  await context.routeWebSocket(/\/api\/client\/v1\/live/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (holding) queue.push(() => ws.send(m));
      else ws.send(m);
    });
  });
  return {
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const send of queue.splice(0)) send();
    },
  };
}

describe("a refusal the page could not foresee", () => {
  test("is shown beside the role's form, and the role keeps its bits; the news then disables the permission", async () => {
    let live: Awaited<ReturnType<typeof heldBack>> | undefined;
    const bob = await signIn(browser, s.base, "bob", { prepare: async (c) => (live = await heldBack(c)) });
    try {
      const b = bob.page;
      await openSection(b, "Roles");
      await b.getByRole("list", { name: "Roles" }).getByRole("button", { name: "Edit Helpers", exact: true }).click();
      const form = b.getByRole("form", { name: "Edit Helpers" });
      const kick = form.getByRole("group", { name: "Permissions" }).getByRole("checkbox", { name: "Kick Members" });
      expect(await disabled(kick)).toBe(false);

      // The owner takes Kick Members from Mods; Bob's page has not heard yet.
      live!.hold();
      const mods = s.world.guilds.Lab.roles.Mods;
      await s.as("alice", "PATCH", `/guilds/${lab()}/roles/${s.id(mods)}`, {
        permissions: String(roleBits("Mods") & ~(1 << 1)),
      });
      await kick.check();
      await form.getByRole("button", { name: "Save role" }).click();
      await form.getByRole("alert").filter({ hasText: "you cannot grant permissions you do not hold" }).waitFor();
      expect(roleBits("Helpers") & (1 << 1)).toBe(0);

      live!.release();
      await until("Kick Members is no longer Bob's to grant", () => kick.isDisabled());
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
