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
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
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
