/**
 * What Server settings delete, seen through: a delete answers 204 with no body, which the
 * settings once read as a failure, so the channel's confirmation stayed open, a lifted
 * ban stayed in the list, and a deleted emoji stayed in its section. An emoji is deleted
 * only once confirmed, and a message that used it shows its name, not a broken picture.
 * Deleting the server says how many channels go, its categories counted apart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { count, launch, message, serve, signIn, type Served } from "./support";
import { png } from "../support/png";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
      { name: "dave", global_name: "Dave" },
    ],
    guilds: [
      { name: "Lab", owner: "alice", members: ["carol", "dave"], channels: [{ name: "general" }, { name: "temp" }] },
      {
        name: "Club",
        owner: "alice",
        members: ["carol"],
        channels: [
          { name: "Talk", type: 4 },
          { name: "lobby", parent: "Talk" },
          { name: "chat", parent: "Talk" },
          { name: "Games", type: 4 },
          { name: "dice", parent: "Games" },
          { name: "rules" },
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

async function openSettings(page: Page, section: string): Promise<void> {
  await page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
  await page.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: section, exact: true }).click();
}

const lab = () => s.id(s.world.guilds.Lab.id);

describe("deletes in Server settings", () => {
  test("a channel's confirmation closes once the channel is deleted", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSettings(a, "Channels");
      await a.getByRole("button", { name: "Delete temp", exact: true }).click();
      const confirm = a.getByRole("dialog", { name: "Delete #temp?" });
      await confirm.getByRole("button", { name: "Delete channel" }).click();
      await a.getByRole("status").filter({ hasText: "#temp deleted." }).waitFor();
      await count(confirm, 0);
      await count(a.getByRole("button", { name: "Delete temp", exact: true }), 0);
      expect(s.p.core.guilds.channels(lab()).map((c) => c.name)).not.toContain("temp");
    } finally {
      await alice.context.close();
    }
  }, 60_000);

  test("a lifted ban leaves the list", async () => {
    s.p.core.moderation.ban(lab(), s.id(s.world.users.alice.id), s.id(s.world.users.dave.id), { reason: "spam" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSettings(a, "Bans");
      const banned = a.getByRole("list", { name: "Banned people" }).getByRole("listitem").filter({ hasText: "Dave" });
      await banned.getByRole("button", { name: "Unban Dave" }).click();
      await a.getByRole("status").filter({ hasText: "Dave is no longer banned." }).waitFor();
      await count(banned, 0);
      await a.getByText("Nobody is banned.").waitFor();
    } finally {
      await alice.context.close();
    }
  }, 60_000);

  test("an emoji is deleted once confirmed, leaves its section, and a message that used it shows its name", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await openSettings(a, "Emoji");
      await a.getByRole("textbox", { name: "Emoji name" }).fill("wave");
      const chooser = a.waitForEvent("filechooser");
      await a.getByRole("button", { name: "Emoji image", exact: true }).click();
      await (await chooser).setFiles({ name: "wave.png", mimeType: "image/png", buffer: Buffer.from(png(6, 6, 6)) });
      await a.getByRole("button", { name: "Upload emoji" }).click();
      const remove = a.getByRole("button", { name: "Delete wave" });
      await remove.waitFor();
      const emoji = s.p.core.emojis.list(s.id(s.world.users.alice.id), lab()).find((e) => e.name === "wave")!;
      s.p.core.people.send(s.id(s.world.users.alice.id), s.id(s.world.guilds.Lab.channels.general), {
        content: `hello <:wave:${emoji.id}>`,
      });

      // Cancel keeps it; the confirmation deletes it.
      await remove.click();
      const confirm = a.getByRole("dialog", { name: "Delete :wave:?" });
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await count(confirm, 0);
      await remove.waitFor();
      await remove.click();
      await confirm.getByRole("button", { name: "Delete emoji" }).click();
      await a.getByRole("status").filter({ hasText: ":wave: deleted." }).waitFor();
      await count(confirm, 0);
      await count(remove, 0);

      // Someone whose browser never kept its picture reads the message: its name, as text.
      const carol = await signIn(browser, s.base, "carol");
      try {
        const said = message(carol.page, /hello/);
        await said.getByText(":wave:").waitFor();
        await count(said.getByRole("img", { name: ":wave:" }), 0);
      } finally {
        await carol.context.close();
      }
    } finally {
      await alice.context.close();
    }
  }, 60_000);

  test("Delete server counts the channels people talk in, and the categories apart", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Club" }).click();
      await openSettings(a, "Overview");
      await a.getByRole("button", { name: "Delete server" }).click();
      const confirm = a.getByRole("dialog", { name: "Delete Club?" });
      await confirm.waitFor();
      expect(await confirm.getByRole("paragraph").first().innerText()).toBe(
        "Its 4 channels in 2 categories and 0 messages, its 0 roles and its invites go for good; its 2 members lose it.",
      );
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await count(confirm, 0);
      expect(s.p.core.guilds.get(s.id(s.world.guilds.Club.id))).not.toBeNull();
    } finally {
      await alice.context.close();
    }
  }, 60_000);
});
