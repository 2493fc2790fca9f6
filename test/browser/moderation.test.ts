/**
 * Moderating members from Server settings → Members: a ban may take the person's recent
 * messages with it ("Delete their messages", as the reference client offers), or leave
 * them; the kick confirmation works by keyboard alone (Escape cancels and gives focus
 * back to the button that opened it); and a moderator's profile card in the member list
 * offers Kick and Ban for those ranked below them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { count, launch, message, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
      { name: "dave", global_name: "Dave" },
      { name: "erin", global_name: "Erin" },
      { name: "mod", global_name: "Mo" },
      { name: "boss", global_name: "Boss" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["carol", "dave", "erin", "mod", "boss"],
        // Later roles rank higher: Boss is above the moderator.
        roles: [
          { name: "Mods", permissions: ["KICK_MEMBERS", "BAN_MEMBERS", "SEND_MESSAGES"], members: ["mod"] },
          { name: "Bosses", permissions: [], members: ["boss"] },
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
const general = () => s.id(s.world.guilds.Lab.channels.general);

async function openMembers(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Members", exact: true }).click();
}

function focused(l: Locator): Promise<void> {
  return until(`focus on ${l}`, () => l.evaluate((el) => el === document.activeElement).catch(() => false));
}

describe("banning from Members", () => {
  test("with Delete their messages, the person's recent messages go; without, they stay", async () => {
    await s.as("carol", "POST", `/channels/${general()}/messages`, { content: "buy cheap pills" });
    await s.as("dave", "POST", `/channels/${general()}/messages`, { content: "a fair point" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /buy cheap pills/).waitFor();
      await message(a, /a fair point/).waitFor();
      await openMembers(a);

      await a.getByRole("button", { name: "Ban Carol" }).click();
      const ban = a.getByRole("dialog", { name: "Ban Carol?" });
      const purge = ban.getByRole("combobox", { name: "Delete their messages" });
      expect(await purge.inputValue()).toBe("0");
      await purge.selectOption({ label: "Previous hour" });
      await ban.getByRole("button", { name: "Ban" }).click();
      await a.getByRole("status").filter({ hasText: "Carol was banned." }).waitFor();
      const left = s.p.core.messages.history(s.id(s.world.users.alice.id), general(), { limit: 50 });
      expect(left.map((m) => m.content)).toEqual(["a fair point"]);

      await a.getByRole("button", { name: "Ban Dave" }).click();
      await a.getByRole("dialog", { name: "Ban Dave?" }).getByRole("button", { name: "Ban" }).click();
      await a.getByRole("status").filter({ hasText: "Dave was banned." }).waitFor();
      expect(s.p.core.moderation.bans(lab(), s.id(s.world.users.alice.id), { limit: 10 })).toHaveLength(2);
      await a.getByRole("button", { name: "Close settings" }).click();
      await count(message(a, /buy cheap pills/), 0);
      await message(a, /a fair point/).waitFor();
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("by keyboard", () => {
  test("Escape closes Server settings and gives focus back to its button", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openMembers(a);
      await a.getByRole("textbox", { name: "Nickname for Erin" }).focus();
      await a.keyboard.press("Escape");
      await count(a.getByRole("region", { name: "Server settings" }), 0);
      await focused(a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }));
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("Kick opens its confirmation on Cancel; Escape closes it and focus returns to Kick", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openMembers(a);
      const kick = a.getByRole("button", { name: "Kick Erin" });
      await kick.focus();
      await a.keyboard.press("Enter");
      const dialog = a.getByRole("dialog", { name: "Kick Erin?" });
      await focused(dialog.getByRole("button", { name: "Cancel" }));
      await a.keyboard.press("Escape");
      await count(dialog, 0);
      await focused(kick);
      expect(s.p.core.guilds.isMember(lab(), s.id(s.world.users.erin.id))).toBe(true);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});

describe("from the member list", () => {
  test("a moderator's profile card offers Kick and Ban for those ranked below, not above; a ban there keeps its reason", async () => {
    const mod = await signIn(browser, s.base, "mod");
    try {
      const m = mod.page;
      const list = m.getByRole("complementary", { name: "Members" });
      await list.getByRole("button", { name: "Boss", exact: true }).click();
      const boss = m.getByRole("dialog", { name: "Boss" });
      await boss.getByRole("list", { name: "Roles here" }).waitFor();
      expect(await boss.getByRole("button", { name: /^(Kick|Ban)$/ }).count()).toBe(0);
      await boss.getByRole("button", { name: "Close" }).click();

      await list.getByRole("button", { name: "Erin", exact: true }).click();
      const card = m.getByRole("dialog", { name: "Erin" });
      await card.getByRole("button", { name: "Kick", exact: true }).waitFor();
      await card.getByRole("button", { name: "Ban", exact: true }).click();
      const ban = m.getByRole("dialog", { name: "Ban Erin?" });
      await ban.getByRole("textbox", { name: "Reason" }).fill("raiding");
      await ban.getByRole("button", { name: "Ban", exact: true }).click();
      await count(list.getByRole("button", { name: "Erin", exact: true }), 0);
      await count(m.getByRole("dialog"), 0);
      const erin = s.id(s.world.users.erin.id);
      expect(s.p.core.moderation.isBanned(lab(), erin)).toBe(true);
      const [entry] = s.p.core.audit.list(lab(), { actionType: 22, limit: 1 });
      expect([entry.target_id, entry.reason]).toEqual([erin, "raiding"]);
    } finally {
      await mod.context.close();
    }
  }, 30_000);
});
