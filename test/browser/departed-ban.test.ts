/**
 * Someone who left the server is out of the member list and Server settings → Members,
 * yet their messages stay: their name on a message opens their profile card, which says
 * they are not here any more, and offers a moderator Ban (no Kick: there is nothing to
 * kick them from). A member without Ban Members sees the card without it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, message, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "mia", global_name: "Mia" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["mia", "bob", "carol"],
        roles: [{ name: "Mods", permissions: ["BAN_MEMBERS", "KICK_MEMBERS", "SEND_MESSAGES"], members: ["mia"] }],
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

describe("a departed author", () => {
  test("their name opens their card: Ban for a moderator, who bans them; nothing of the sort for others", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.as("carol", "POST", `/channels/${general}/messages`, { content: "buy cheap pills" });
    await s.as("carol", "DELETE", `/users/@me/guilds/${lab()}`);
    const mia = await signIn(browser, s.base, "mia");
    const bob = await signIn(browser, s.base, "bob");
    try {
      const b = bob.page;
      await message(b, /^Carol buy cheap pills$/)
        .getByRole("button", { name: "Carol", exact: true })
        .click();
      const seen = b.getByRole("dialog", { name: "Carol" });
      await seen.getByText("Not in this server any more").waitFor();
      expect(await seen.getByRole("button", { name: /^(Kick|Ban|Message)$/ }).count()).toBe(0);
      await seen.getByRole("button", { name: "Close" }).click();

      const m = mia.page;
      await message(m, /^Carol buy cheap pills$/)
        .getByRole("button", { name: "Carol", exact: true })
        .click();
      const card = m.getByRole("dialog", { name: "Carol" });
      await card.getByText("@carol").waitFor();
      await card.getByText("Not in this server any more").waitFor();
      expect(await card.getByRole("button", { name: "Kick", exact: true }).count()).toBe(0);
      await card.getByRole("button", { name: "Ban", exact: true }).click();
      const ban = m.getByRole("dialog", { name: "Ban Carol?" });
      await ban.getByRole("textbox", { name: "Reason" }).fill("spam, then left");
      await ban.getByRole("button", { name: "Ban", exact: true }).click();
      await ban.waitFor({ state: "detached" });
      const bans = s.p.core.moderation.bans(lab(), s.id(s.world.users.alice.id), { limit: 10 });
      expect(bans.map((x) => [x.user.username, x.ban.reason])).toEqual([["carol", "spam, then left"]]);
    } finally {
      await mia.context.close();
      await bob.context.close();
    }
  }, 40_000);

  test("a member's name on a message opens the same card, with Kick and Ban for a moderator", async () => {
    const general = s.id(s.world.guilds.Lab.channels.general);
    await s.as("bob", "POST", `/channels/${general}/messages`, { content: "hello there" });
    const mia = await signIn(browser, s.base, "mia");
    try {
      const m = mia.page;
      await message(m, /^Bob hello there$/)
        .getByRole("button", { name: "Bob", exact: true })
        .click();
      const card = m.getByRole("dialog", { name: "Bob" });
      await card.getByRole("button", { name: "Kick", exact: true }).waitFor();
      await card.getByRole("button", { name: "Ban", exact: true }).waitFor();
      await card.getByRole("button", { name: "Message", exact: true }).waitFor();
      expect(await card.getByText("Not in this server any more").count()).toBe(0);
    } finally {
      await mia.context.close();
    }
  }, 30_000);
});
