/**
 * The audit log reads as words: every action Parley records has a name (pins included,
 * never "Action 74"), a target deleted since is named as it was (#channel, @role,
 * :emoji:), never as "someone no longer here", each row says what changed (slow mode, an
 * overwrite's role and bits, roles given), and entries past the first hundred are a
 * button away.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, type Served } from "./support";

let browser: Browser;
let s: Served;

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
          { name: "Mods", permissions: ["MANAGE_MESSAGES", "VIEW_AUDIT_LOG", "SEND_MESSAGES"], members: ["bob"] },
          { name: "Temp", permissions: [] },
        ],
        channels: [{ name: "general" }, { name: "scratch" }],
      },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("the audit log", () => {
  test("pins and unpins are named; a deleted channel and role are named as they were, in every entry about them", async () => {
    const lab = s.world.guilds.Lab;
    const general = s.id(lab.channels.general);
    const said = await s.as("carol", "POST", `/channels/${general}/messages`, { content: "pin me" });
    await s.as("bob", "PUT", `/channels/${general}/pins/${said.id}`);
    await s.as("bob", "DELETE", `/channels/${general}/pins/${said.id}`);
    // An update that records no name: once the channel is gone, its row still names it.
    await s.as("alice", "PATCH", `/channels/${s.id(lab.channels.scratch)}`, { topic: "soon gone" });
    await s.as("alice", "DELETE", `/channels/${s.id(lab.channels.scratch)}`);
    await s.as("alice", "DELETE", `/guilds/${s.id(lab.id)}/roles/${s.id(lab.roles.Temp)}`);

    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Audit log", exact: true }).click();
      const rows = a.getByRole("table", { name: "Audit log" }).getByRole("row");
      const row = (what: string) => rows.filter({ has: a.getByRole("cell", { name: what, exact: true }) });
      await row("Message pinned")
        .filter({ has: a.getByRole("cell", { name: "Bob", exact: true }) })
        .filter({ hasText: "Carol" })
        .waitFor();
      await row("Message unpinned").filter({ hasText: "Carol" }).waitFor();
      await row("Channel deleted")
        .filter({ has: a.getByRole("cell", { name: "#scratch", exact: true }) })
        .waitFor();
      await row("Role deleted")
        .filter({ has: a.getByRole("cell", { name: "@Temp", exact: true }) })
        .waitFor();
      await row("Channel updated")
        .filter({ has: a.getByRole("cell", { name: "#scratch", exact: true }) })
        .waitFor();
      expect(await rows.filter({ hasText: /Action \d+|no longer here|since deleted/ }).count()).toBe(0);

      await a.getByRole("combobox", { name: "Action" }).selectOption({ label: "Message pinned" });
      await rows.filter({ hasText: "Message unpinned" }).waitFor({ state: "detached" });
      expect(await row("Message pinned").count()).toBe(1);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("each row says what changed, an overwrite for whom; older entries come with Show older entries", async () => {
    const lab = s.world.guilds.Lab;
    const general = s.id(lab.channels.general);
    await s.as("alice", "PATCH", `/channels/${general}`, { rate_limit_per_user: 30 });
    await s.as("alice", "PUT", `/channels/${general}/overwrites/${s.id(lab.id)}`, { type: "role", deny: ["SEND_MESSAGES"] });
    await s.as("alice", "PATCH", `/guilds/${s.id(lab.id)}/members/${s.id(s.world.users.carol.id)}`, { roles: [s.id(lab.roles.Mods)] });
    // A busy server: a hundred newer entries push those three past the first page.
    const alice = s.id(s.world.users.alice.id);
    for (let i = 0; i < 100; i++) s.p.core.channels.edit(alice, general, { topic: `topic ${i}` });

    const person = await signIn(browser, s.base, "alice");
    try {
      const a = person.page;
      await a.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: "Server settings" }).click();
      await a.getByRole("navigation", { name: "Server settings" }).getByRole("button", { name: "Audit log", exact: true }).click();
      const rows = a.getByRole("table", { name: "Audit log" }).getByRole("row");
      const row = (what: string, changed: string) =>
        rows
          .filter({ has: a.getByRole("cell", { name: what, exact: true }) })
          .filter({ has: a.getByRole("cell", { name: changed, exact: true }) });
      await row("Channel updated", "Topic: “topic 98” → “topic 99”").waitFor();
      expect(await rows.filter({ hasText: "Slow mode" }).count()).toBe(0);
      await a.getByRole("button", { name: "Show older entries" }).click();
      await row("Channel updated", "Slow mode: off → 30 seconds").waitFor();
      await row("Permission overwrite created", "For @everyone: Send Messages denied").waitFor();
      await row("Member roles updated", "Added @Mods").waitFor();
    } finally {
      await person.context.close();
    }
  }, 30_000);
});
