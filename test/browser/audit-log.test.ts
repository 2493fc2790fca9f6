/**
 * The audit log reads as words: every action Parley records has a name (pins included,
 * never "Action 74"), and a target deleted since is named as it was (#channel, @role,
 * :emoji:), never as "someone no longer here".
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
});
