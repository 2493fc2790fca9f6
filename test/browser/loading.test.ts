/**
 * Loading placeholders (issue 28): while a channel's history, the member list, search
 * results, the pins or the mentions inbox are on their way, the region says
 * `aria-busy="true"` and shows no "nothing here" text; that text comes only with an
 * answer that is empty. Each answer is held back by the test until it has looked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Locator } from "playwright-core";
import { channelEntry, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "empty" }] }],
  });
  s.p.core.people.send(s.id(s.world.users.bob.id), s.id(s.world.guilds.Lab.channels.general), { content: "hello there" });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** Holds back the people's API answers whose path matches until `release()`. */
async function holdBack(context: BrowserContext, path: RegExp) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await context.route(
    (url) => url.pathname.startsWith("/api/client/v1/") && path.test(url.pathname),
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  return release;
}

async function busy(region: Locator): Promise<boolean> {
  return (await region.getAttribute("aria-busy")) === "true";
}

describe("loading placeholders", () => {
  test("a channel's history and the member list are busy, never falsely empty, until they come", async () => {
    let releaseHistory!: () => void;
    let releaseMembers!: () => void;
    const alice = await signIn(browser, s.base, "alice", {
      prepare: async (context) => {
        releaseHistory = await holdBack(context, new RegExp(`/channels/${s.id(s.world.guilds.Lab.channels.empty)}/messages$`));
        releaseMembers = await holdBack(context, /\/guilds\/[^/]+\/members$/);
      },
    });
    try {
      const a = alice.page;
      const members = a.getByRole("complementary", { name: "Members" });
      expect(await busy(members)).toBe(true);
      expect(await members.getByRole("listitem").count()).toBe(0);
      expect(await members.getByRole("status").textContent()).toBe("Loading members…");
      releaseMembers();
      await members.getByRole("listitem").filter({ hasText: "Bob" }).waitFor();
      expect(await busy(members)).toBe(false);

      await channelEntry(a, "empty").click();
      const log = a.getByRole("log", { name: "Messages in #empty" });
      await log.waitFor();
      expect(await busy(log)).toBe(true);
      expect(await log.getByRole("status").textContent()).toBe("Loading messages…");
      expect(await log.textContent()).not.toContain("This is the start of");
      releaseHistory();
      await until("the start of #empty", async () => (await log.textContent())?.includes("This is the start of #empty") ?? false);
      expect(await busy(log)).toBe(false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("search results, pins and the mentions inbox are busy until their answer, then say when empty", async () => {
    let releaseSearch!: () => void;
    let releasePins!: () => void;
    let releaseMentions!: () => void;
    const alice = await signIn(browser, s.base, "alice", {
      prepare: async (context) => {
        releaseSearch = await holdBack(context, /\/messages\/search$/);
        releasePins = await holdBack(context, /\/pins$/);
        releaseMentions = await holdBack(context, /\/users\/@me\/mentions$/);
      },
    });
    try {
      const a = alice.page;
      await a.getByRole("searchbox", { name: "Search" }).fill("nowhere-to-be-found");
      await a.getByRole("searchbox", { name: "Search" }).press("Enter");
      const results = a.getByRole("region", { name: "Search results" });
      await results.waitFor();
      expect(await busy(results)).toBe(true);
      expect(await results.textContent()).not.toContain("No results");
      releaseSearch();
      await until("No results.", async () => (await results.textContent())?.includes("No results.") ?? false);
      expect(await busy(results)).toBe(false);
      await results.getByRole("button", { name: "Close search" }).click();

      await a.getByRole("button", { name: "Pinned messages" }).click();
      const pins = a.getByRole("dialog", { name: "Pinned messages" });
      await pins.waitFor();
      expect(await busy(pins)).toBe(true);
      expect(await pins.textContent()).not.toContain("Nothing is pinned");
      releasePins();
      await until("Nothing is pinned", async () => (await pins.textContent())?.includes("Nothing is pinned") ?? false);
      expect(await busy(pins)).toBe(false);
      await pins.getByRole("button", { name: "Close" }).click();

      await a.getByRole("button", { name: "Mentions" }).click();
      const inbox = a.getByRole("dialog", { name: "Mentions" });
      await inbox.waitFor();
      expect(await busy(inbox)).toBe(true);
      expect(await inbox.textContent()).not.toContain("Nobody has mentioned you");
      releaseMentions();
      await until("Nobody has mentioned you", async () => (await inbox.textContent())?.includes("Nobody has mentioned you") ?? false);
      expect(await busy(inbox)).toBe(false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
