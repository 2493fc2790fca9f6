/**
 * Taken out of a server while reading it: kicked, banned, or the server deleted. The
 * page says which, in words, takes the server off the rail and moves to where a reload
 * would land, the address replaced (the gone server's address would answer nothing).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { count, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "carol", global_name: "Carol" },
      { name: "dave", global_name: "Dave" },
      { name: "erin", global_name: "Erin" },
    ],
    guilds: [
      { name: "Lab", owner: "alice", members: ["carol", "dave", "erin"], channels: [{ name: "general" }] },
      { name: "Annex", owner: "alice", members: ["erin"], channels: [{ name: "lobby" }] },
    ],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

const lab = () => s.id(s.world.guilds.Lab.id);

/** The page has left Lab: its entry is gone from the rail and the address names it no more. */
async function outOfLab(page: Page): Promise<void> {
  await count(page.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab" }), 0);
  await until("the address leaves Lab", async () => !new URL(page.url()).pathname.includes(lab()));
}

describe("taken out of a server while reading it", () => {
  test("kicked: the page says so and leaves the server", async () => {
    const carol = await signIn(browser, s.base, "carol");
    try {
      const c = carol.page;
      expect(new URL(c.url()).pathname).toContain(lab());
      await s.as("alice", "DELETE", `/guilds/${lab()}/members/${s.id(s.world.users.carol.id)}`, { reason: "cool off" });
      await c.getByRole("status").filter({ hasText: "You were kicked from Lab." }).waitFor();
      await outOfLab(c);
      expect(new URL(c.url()).pathname).toBe("/channels/@me");
    } finally {
      await carol.context.close();
    }
  }, 20_000);

  test("banned: the page says so and leaves the server", async () => {
    const dave = await signIn(browser, s.base, "dave");
    try {
      const d = dave.page;
      await s.as("alice", "PUT", `/guilds/${lab()}/bans/${s.id(s.world.users.dave.id)}`, {});
      await d.getByRole("status").filter({ hasText: "You were banned from Lab." }).waitFor();
      await outOfLab(d);
    } finally {
      await dave.context.close();
    }
  }, 20_000);

  test("the server deleted: the page says so and opens the person's next server", async () => {
    const erin = await signIn(browser, s.base, "erin");
    try {
      const e = erin.page;
      await e.getByRole("navigation", { name: "Servers" }).getByRole("button", { name: "Lab" }).click();
      await e.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Lab" }).waitFor();
      await s.as("alice", "DELETE", `/guilds/${lab()}`);
      await e.getByRole("status").filter({ hasText: "Lab was deleted." }).waitFor();
      await outOfLab(e);
      await e.getByRole("navigation", { name: "Channels" }).getByRole("heading", { name: "Annex" }).waitFor();
      expect(new URL(e.url()).pathname).toContain(s.id(s.world.guilds.Annex.id));
    } finally {
      await erin.context.close();
    }
  }, 20_000);
});
