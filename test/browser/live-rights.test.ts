/**
 * What a person may do follows their roles live, without a reload: a role given or
 * taken, a role's permissions edited (in the open server and in one not opened yet),
 * shows or hides the parts of Server settings and the message menu's "Pin" at once. And
 * the channel a person reads, deleted by someone else, gives way to another channel of
 * the server, the address replaced rather than a history entry added.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { actionsOf, channelEntry, count, launch, message, serve, signIn, until, type Served } from "./support";

let s: Served;
let browser: Browser;

/** The people's API's decimal bitfields (core/permissions.ts). */
const BAN_MEMBERS = String(1 << 2);
const MANAGE_CHANNELS = String(1 << 4);

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob", "carol"],
        roles: [
          { name: "Keepers", permissions: ["MANAGE_CHANNELS", "KICK_MEMBERS"], members: [] },
          { name: "Pinners", permissions: ["MANAGE_MESSAGES"], members: [] },
          { name: "Plain", permissions: [], members: ["bob"] },
        ],
        channels: [{ name: "general" }, { name: "random" }, { name: "doomed" }],
      },
      {
        name: "Annex",
        owner: "alice",
        members: ["bob"],
        roles: [{ name: "Helpers", permissions: [], members: ["bob"] }],
        channels: [{ name: "lobby" }],
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
const bobId = () => s.id(s.world.users.bob.id);
const labRole = (name: string) => s.id(s.world.guilds.Lab.roles[name]);

async function openSettings(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("heading", { name: "Server settings" }).waitFor();
}

/** An entry of the "Server settings" navigation. */
const sectionEntry = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name, exact: true });

/** The server's entry in the servers' navigation. */
async function openServer(page: Page, name: string): Promise<void> {
  await page
    .getByRole("navigation", { name: "Servers" })
    .getByRole("button", { name: new RegExp(`^${name}\\b`) })
    .click();
}

describe("permissions follow roles live", () => {
  test("a role with Manage Channels and Kick Members shows Channels and Members in Server settings; taking it away hides them", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openSettings(b);
      await sectionEntry(b, "Invites").waitFor();
      expect(await sectionEntry(b, "Channels").count()).toBe(0);
      expect(await sectionEntry(b, "Members").count()).toBe(0);

      await s.as("alice", "PUT", `/guilds/${lab()}/members/${bobId()}/roles/${labRole("Keepers")}`);
      await sectionEntry(b, "Channels").waitFor();
      await sectionEntry(b, "Members").waitFor();

      await s.as("alice", "DELETE", `/guilds/${lab()}/members/${bobId()}/roles/${labRole("Keepers")}`);
      await count(sectionEntry(b, "Channels"), 0);
      await count(sectionEntry(b, "Members"), 0);
      await sectionEntry(b, "Invites").waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("the section open and in use, taken away: the page says so and focus stays in Server settings", async () => {
    await s.as("alice", "PUT", `/guilds/${lab()}/members/${bobId()}/roles/${labRole("Keepers")}`);
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openSettings(b);
      await sectionEntry(b, "Members").click();
      await b.getByRole("button", { name: "Kick Carol" }).focus();
      await s.as("alice", "DELETE", `/guilds/${lab()}/members/${bobId()}/roles/${labRole("Keepers")}`);
      await count(sectionEntry(b, "Members"), 0);
      await b.getByRole("status").filter({ hasText: "Members is no longer yours to use here." }).waitFor();
      const heading = b.getByRole("heading", { name: "Server settings" });
      await until("focus on the settings' heading", () => heading.evaluate((el) => el === document.activeElement));
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a role with Manage Messages puts Pin in a message's More menu", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.as("carol", "POST", `/channels/${general}/messages`, { content: "pin me later" });
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      const msg = message(b, /^Carol pin me later$/);
      await msg.waitFor();
      expect(await actionsOf(msg)).not.toContain("Pin");

      await s.as("alice", "PUT", `/guilds/${lab()}/members/${bobId()}/roles/${labRole("Pinners")}`);
      await until("Pin offered", async () => (await actionsOf(msg)).includes("Pin"));
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a role the person holds, edited to grant Ban Members, shows Bans at once", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await openSettings(b);
      await sectionEntry(b, "Invites").waitFor();
      expect(await sectionEntry(b, "Bans").count()).toBe(0);

      await s.as("alice", "PATCH", `/guilds/${lab()}/roles/${labRole("Plain")}`, { permissions: BAN_MEMBERS });
      await sectionEntry(b, "Bans").waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);

  test("a role edited in a server not opened yet takes effect there too", async () => {
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
      const annex = s.id(s.world.guilds.Annex.id);
      const helpers = s.id(s.world.guilds.Annex.roles.Helpers);
      await s.as("alice", "PATCH", `/guilds/${annex}/roles/${helpers}`, { permissions: MANAGE_CHANNELS });
      // Give the page a moment to hear it while Lab is open.
      await Bun.sleep(500);
      await openServer(b, "Annex");
      await b.getByRole("textbox", { name: "Message #lobby" }).waitFor();
      await openSettings(b);
      await sectionEntry(b, "Channels").waitFor();
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});

describe("the open channel deleted", () => {
  test("the person reading it moves to another channel of the server, the address replaced", async () => {
    const doomed = s.id(s.world.guilds.Lab.channels.doomed);
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await channelEntry(b, "doomed").click();
      await b.getByRole("textbox", { name: "Message #doomed" }).fill("half a thought");
      expect(new URL(b.url()).pathname).toContain(doomed);
      const entries = await b.evaluate(() => history.length);

      await s.as("alice", "DELETE", `/channels/${doomed}`);
      await b.getByRole("textbox", { name: "Message #general" }).waitFor();
      await count(channelEntry(b, "doomed"), 0);
      expect(await b.getByText("This server has no text channel yet.").count()).toBe(0);
      await until("the address leaves the deleted channel", async () => !new URL(b.url()).pathname.includes(doomed));
      expect(new URL(b.url()).pathname).toBe(`/channels/${lab()}/${s.id(s.world.guilds.Lab.channels.general)}`);
      expect(await b.evaluate(() => history.length)).toBe(entries);
    } finally {
      await bob.context.close();
    }
  }, 30_000);
});
