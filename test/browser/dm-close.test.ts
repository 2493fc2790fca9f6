/**
 * Closing a conversation (a DM) in the web client: "Close conversation with <name>" takes
 * it out of the list, in this browser and the person's others, and leaves the page on
 * the DM home with focus on the list's heading; the next message in it brings it back.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { channelEntry, launch, serve, signIn, until, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
      { name: "carol", global_name: "Carol" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob", "carol"], channels: [{ name: "general" }] }],
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("close a conversation: gone from every browser of the person, back with the next message", async () => {
  const aliceId = s.id(s.world.users.alice.id);
  const bobId = s.id(s.world.users.bob.id);
  const dm = s.p.core.dms.open(bobId, aliceId);
  s.p.core.messages.send(bobId, dm.id, { content: "hello" });
  const one = await signIn(browser, s.base, "alice");
  const two = await signIn(browser, s.base, "alice");
  try {
    for (const p of [one.page, two.page])
      await p
        .getByRole("navigation", { name: "Servers" })
        .getByRole("button", { name: /^Direct messages/ })
        .click();
    const a = one.page;
    await channelEntry(a, "Bob").click();
    await until("the conversation is open", async () => (await channelEntry(a, "Bob").getAttribute("aria-current")) === "page");
    await channelEntry(two.page, "Bob").waitFor();

    await a.getByRole("button", { name: "Close conversation with Bob" }).click();
    await channelEntry(a, "Bob").waitFor({ state: "detached" });
    await a.getByText("No direct messages yet.").waitFor();
    expect(new URL(a.url()).pathname).not.toContain(dm.id);
    expect(await a.evaluate(() => document.activeElement?.textContent)).toBe("Direct messages");
    // The person's other browser follows.
    await channelEntry(two.page, "Bob").waitFor({ state: "detached" });

    s.p.core.messages.send(bobId, dm.id, { content: "still there?" });
    await channelEntry(a, "Bob").waitFor();
    await channelEntry(two.page, "Bob").waitFor();
    // Back as a conversation with something new in it.
    await a
      .getByRole("navigation", { name: "Channels" })
      .getByRole("button", { name: /^Bob, unread/ })
      .waitFor();
  } finally {
    await one.context.close();
    await two.context.close();
  }
}, 60_000);

test("conversations are listed newest first, and a new message moves its conversation to the top", async () => {
  const aliceId = s.id(s.world.users.alice.id);
  const bobId = s.id(s.world.users.bob.id);
  const carolId = s.id(s.world.users.carol.id);
  const withBob = s.p.core.dms.open(bobId, aliceId);
  s.p.core.messages.send(bobId, withBob.id, { content: "first" });
  const withCarol = s.p.core.dms.open(carolId, aliceId);
  s.p.core.messages.send(carolId, withCarol.id, { content: "second" });
  const one = await signIn(browser, s.base, "alice");
  try {
    const a = one.page;
    await a
      .getByRole("navigation", { name: "Servers" })
      .getByRole("button", { name: /^Direct messages/ })
      .click();
    const list = a.getByRole("navigation", { name: "Channels" }).getByRole("list");
    const order = async () => [...(await list.ariaSnapshot()).matchAll(/button "(Bob|Carol)\b/g)].map((m) => m[1]);
    await until("both are listed", async () => (await order()).length === 2);
    expect(await order()).toEqual(["Carol", "Bob"]);
    s.p.core.messages.send(bobId, withBob.id, { content: "third" });
    await until("Bob's conversation moves up", async () => (await order())[0] === "Bob");
    expect(await order()).toEqual(["Bob", "Carol"]);
  } finally {
    await one.context.close();
  }
}, 60_000);
