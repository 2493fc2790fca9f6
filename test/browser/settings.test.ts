/**
 * Server settings in the web client, for people who hold the permission: rename the
 * server, create channels and roles (the 13 permissions by name), set a channel's
 * overwrites, make an invite link, kick and ban (a real discord.js bot included);
 * refusals are shown, never silent. And context-menu commands: a bot's USER command on
 * a person's name and its MESSAGE command on a message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ApplicationCommandType, Client, Events, GatewayIntentBits as I, type Guild, type TextChannel } from "discord.js";
import { next } from "../compat/support";
import { channelEntry, count, launch, message, openAs, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;
let bot: Client;

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
        members: ["bob", "carol"],
        roles: [{ name: "Mods", permissions: ["KICK_MEMBERS", "MANAGE_ROLES", "SEND_MESSAGES"], members: ["bob"] }],
        channels: [{ name: "general" }, { name: "random" }],
      },
    ],
    applications: [{ name: "Helper", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  bot = new Client({ intents: [I.Guilds, I.GuildMessages], rest: { api: `${s.base}/api` } });
  bot.on(Events.InteractionCreate, async (i) => {
    if (i.isUserContextMenuCommand()) await i.reply(`Waved at ${i.targetUser.username}`);
    else if (i.isMessageContextMenuCommand()) await i.reply(`Quoted: ${i.targetMessage.content}`);
  });
  const ready = next(bot, Events.ClientReady, () => true, 10_000);
  await bot.login(s.world.applications.Helper.token);
  await ready;
  await bot.application!.commands.set([
    { name: "Wave", type: ApplicationCommandType.User },
    { name: "Quote", type: ApplicationCommandType.Message },
  ]);
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await Promise.race([bot?.destroy(), Bun.sleep(2000)]);
  await s?.p.stop();
});

async function openSettings(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("heading", { name: "Server settings" }).waitFor();
}

/** Open one section of the settings by its entry in the "Server settings" navigation. */
async function goTo(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name, exact: true }).click();
}

const section = (page: Page, name: string) => page.getByRole("region", { name }).or(page.getByRole("form", { name }));

describe("context-menu commands", () => {
  test("a USER command on a person's name and a MESSAGE command on a message reach the bot with their target", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.as("bob", "POST", `/channels/${general}/messages`, { content: "quote me please" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      const members = a.getByRole("complementary", { name: "Members" });
      await members.getByRole("listitem").filter({ hasText: "Bob" }).getByRole("button", { name: "Apps for Bob" }).click();
      await a.getByRole("menu", { name: "Apps for Bob" }).getByRole("menuitem", { name: "Wave" }).click();
      await message(a, /^Helper Waved at bob$/).waitFor();

      const quoted = message(a, /^Bob quote me please$/);
      await quoted.getByRole("button", { name: "Apps", exact: true }).click();
      await quoted.getByRole("menu", { name: "Apps for this message" }).getByRole("menuitem", { name: "Quote" }).click();
      await message(a, /^Helper Quoted: quote me please$/).waitFor();
      // The author's name offers the USER commands too.
      await quoted.getByRole("button", { name: "Apps for Bob" }).click();
      expect(await quoted.getByRole("menu", { name: "Apps for Bob" }).getByRole("menuitem").allTextContents()).toEqual(["Wave"]);
    } finally {
      await alice.context.close();
    }
  }, 20_000);
});

describe("channel settings", () => {
  test("the owner renames a channel and sets its topic, slow mode and NSFW; a bot hears CHANNEL_UPDATE; a refusal shows beside its field", async () => {
    const id = s.world.guilds.Lab.channels.random;
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSettings(a);
      await goTo(a, "Channels");
      await a.getByRole("combobox", { name: "Channel to edit" }).selectOption({ label: "#random" });
      const form = a.getByRole("form", { name: "Settings for #random" });
      await form.getByRole("textbox", { name: "Name" }).fill("");
      await form.getByRole("button", { name: "Save channel" }).click();
      await form.getByRole("textbox", { name: "Name" }).and(a.locator("[aria-invalid=true]")).waitFor();

      await form.getByRole("textbox", { name: "Name" }).fill("off-topic");
      await form.getByRole("textbox", { name: "Topic" }).fill("Anything goes");
      await form.getByRole("combobox", { name: "Slow mode" }).selectOption({ label: "10 seconds" });
      await form.getByRole("checkbox", { name: "Age-restricted (NSFW)" }).check();
      // Listened for from the save on: the sign-in before it may take seconds on a busy machine.
      const updated = next<[unknown, TextChannel]>(bot, Events.ChannelUpdate, (_old, c) => c.id === id && c.name === "off-topic");
      await form.getByRole("button", { name: "Save channel" }).click();
      await a.getByRole("status").filter({ hasText: "#off-topic saved." }).waitFor();
      await channelEntry(a, "off-topic").waitFor();
      const [, c] = await updated;
      expect({ topic: c.topic, slow: c.rateLimitPerUser, nsfw: c.nsfw }).toEqual({ topic: "Anything goes", slow: 10, nsfw: true });
      const row = s.p.core.guilds.channel(s.id(id))!;
      expect([row.name, row.topic, row.rate_limit_per_user, row.nsfw]).toEqual(["off-topic", "Anything goes", 10, 1]);
    } finally {
      await alice.context.close();
    }
  }, 20_000);
});

describe("server settings", () => {
  test("what a person may not do is not offered, a refusal shows where they tried; each sees only the parts they hold the permission for", async () => {
    const bob = await signIn(browser, s.base, "bob");
    const carol = await signIn(browser, s.base, "carol");
    try {
      const b = bob.page;
      await openSettings(b);
      // Mods hold Manage Roles and Kick Members: no server name, no channels, no Ban.
      expect(await b.getByRole("textbox", { name: "Server name" }).count()).toBe(0);
      expect(await b.getByRole("textbox", { name: "Channel name" }).count()).toBe(0);
      expect(await b.getByRole("button", { name: "Ban", exact: true }).count()).toBe(0);

      // What Bob does not hold is not his to grant, in a role or in a channel's overwrites.
      expect(await section(b, "Roles").getByRole("checkbox", { name: "Administrator" }).isDisabled()).toBe(true);
      expect(await section(b, "Roles").getByRole("checkbox", { name: "Kick Members" }).isDisabled()).toBe(false);
      expect(await b.getByRole("combobox", { name: "Manage Server" }).isDisabled()).toBe(true);
      expect(await b.getByRole("combobox", { name: "Kick Members" }).isDisabled()).toBe(false);
      // A refusal shows where it happened: a role's name the server will not take.
      await b.getByRole("button", { name: "Create role" }).click();
      await section(b, "Roles").getByRole("alert").waitFor();
      expect(s.p.core.guilds.roles(s.id(s.world.guilds.Lab.id))).toHaveLength(2);

      // @everyone may create invites: that is all of the settings Carol gets.
      const c = carol.page;
      await openSettings(c);
      await c.getByRole("button", { name: "Create invite" }).waitFor();
      expect(await c.getByRole("navigation", { name: "Server settings" }).getByRole("button").allTextContents()).toEqual(["Invites"]);
      for (const name of ["Server name", "Channel name", "Role name"]) expect(await c.getByRole("textbox", { name }).count()).toBe(0);
      expect(await c.getByRole("button", { name: /^(Kick|Ban|Save overwrites)$/ }).count()).toBe(0);
    } finally {
      await bob.context.close();
      await carol.context.close();
    }
  }, 20_000);

  test("the owner renames the server, creates a channel and a role, sets overwrites, makes an invite link, kicks a person and bans the bot", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSettings(a);
      await a.getByRole("textbox", { name: "Server name" }).fill("Laboratory");
      await a.getByRole("button", { name: "Save", exact: true }).click();
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Laboratory" }).waitFor();

      await goTo(a, "Channels");
      await a.getByRole("button", { name: "Create channel" }).click();
      await a.getByRole("textbox", { name: "Channel name" }).and(a.locator("[aria-invalid=true]")).waitFor();
      await a.getByRole("textbox", { name: "Channel name" }).fill("plans");
      await a.getByRole("button", { name: "Create channel" }).click();
      await channelEntry(a, "plans").waitFor();

      await goTo(a, "Roles");
      await a.getByRole("textbox", { name: "Role name" }).fill("Helpers");
      await a.getByRole("checkbox", { name: "Send Messages" }).check();
      await a.getByRole("checkbox", { name: "Kick Members" }).check();
      await a.getByRole("button", { name: "Create role" }).click();
      await a
        .getByRole("list", { name: "Roles" })
        .getByRole("listitem")
        .filter({ hasText: "Helpers Kick Members, Send Messages" })
        .waitFor();

      await a.getByRole("combobox", { name: "Channel", exact: true }).selectOption({ label: "#plans" });
      await a.getByRole("combobox", { name: "Role or member" }).selectOption({ label: "@everyone" });
      await a.getByRole("combobox", { name: "Send Messages" }).selectOption("Deny");
      await a.getByRole("button", { name: "Save overwrites" }).click();
      await a.getByRole("status").filter({ hasText: "Overwrites saved." }).waitFor();
      const plans = s.p.core.guilds.channels(s.id(s.world.guilds.Lab.id)).find((c) => c.name === "plans")!;
      const denied = await s.as("carol", "POST", `/channels/${plans.id}/messages`, { content: "may I?" }).catch((e: Error) => e.message);
      expect(denied).toContain("403");

      await goTo(a, "Invites");
      await a.getByRole("button", { name: "Create invite" }).click();
      const link = await a.getByRole("textbox", { name: "Invite link" }).inputValue();
      expect(link).toMatch(new RegExp(`^${s.base}/invite/[A-Za-z0-9]+$`));
      const dave = await openAs(browser, s.base, new URL(link).pathname, "dave");
      try {
        await dave.page.getByRole("heading", { name: "You are invited to Laboratory" }).waitFor();
        await dave.page.getByRole("button", { name: "Accept invite" }).click();
        await dave.page.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Laboratory" }).waitFor();
      } finally {
        await dave.context.close();
      }

      await goTo(a, "Members");
      const people = a.getByRole("list", { name: "Members to moderate" });
      await people.getByRole("button", { name: "Kick Carol" }).click();
      await a.getByRole("dialog", { name: "Kick Carol?" }).getByRole("button", { name: "Kick" }).click();
      await a.getByRole("status").filter({ hasText: "Carol was kicked." }).waitFor();
      await count(a.getByRole("complementary", { name: "Members" }).getByRole("listitem").filter({ hasText: "Carol" }), 0);

      const gone = next<[Guild]>(bot, Events.GuildDelete, (g) => g.id === s.world.guilds.Lab.id);
      await people.getByRole("button", { name: "Ban Helper" }).click();
      await a.getByRole("dialog", { name: "Ban Helper?" }).getByRole("button", { name: "Ban" }).click();
      await gone;
      await a.getByRole("status").filter({ hasText: "Helper was banned." }).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
