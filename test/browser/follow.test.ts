/**
 * Following the conversation while writing: a person at the bottom of a channel who
 * pastes several lines into the composer (which grows, so the log shrinks) stays at the
 * bottom, with the newest message in sight and no "Jump to present". On a phone, with a
 * code block in the log, Chromium moved the log's scroll to the top as it shrank, and the
 * page took that for the reader scrolling away.
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
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [
      {
        name: "Lab",
        owner: "alice",
        members: ["bob"],
        channels: [{ name: "general-discussion-about-everything", topic: "A long topic that goes on for longer than a phone is wide" }],
      },
    ],
  });
  const channel = s.id(s.world.guilds.Lab.channels["general-discussion-about-everything"]);
  await s.as("alice", "POST", `/channels/${channel}/messages`, {
    content:
      "a https://example.com/a/very/long/url/that/does/not/break/anywhere/at/all/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa and ```\ncode block with a long line that should scroll inside its own box rather than the page wide wide wide\n```",
  });
  await s.as("alice", "POST", `/channels/${channel}/messages`, {
    content: "Thenewestwordwithoutanyspacesthatisextremelylongandwrapsinsteadofoverflowingthescreenwidthxxxxxxxxxx",
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("following the conversation", () => {
  test("pasting several lines into the composer on a phone keeps the log at its newest message", async () => {
    const { context, page } = await signIn(browser, s.base, "bob", { viewport: { width: 360, height: 700 }, touch: true });
    try {
      const newest = message(page, /Thenewestword/);
      await newest.waitFor();
      const log = page.getByRole("log");
      const gap = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      expect(await gap()).toBeLessThan(2);
      await page
        .getByRole("textbox", { name: "Message #general-discussion-about-everything" })
        .fill("one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten");
      // The composer has grown: the log is shorter, and still shows its end.
      await page.waitForFunction(() => (document.querySelector("[role=log]") as HTMLElement).clientHeight < 250);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await gap()).toBeLessThan(2);
      expect(await page.getByRole("button", { name: "Jump to present" }).count()).toBe(0);
      expect(await newest.isVisible()).toBe(true);
      const box = await newest.boundingBox();
      const view = await log.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);
    } finally {
      await context.close();
    }
  }, 30_000);
});
