/**
 * The message list (issue 28): it follows new messages whenever the reader is at the
 * bottom, also when a picture settles after the message was laid out; "Jump to present"
 * when scrolled up; "New messages" before the first unread; one header for a run of
 * messages by one author; times relative to today; `<t:unix:style>` in its seven styles.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { png } from "../support/png";
import { launch, message, serve, signIn, WAIT_MS, type Served } from "./support";

const HOST = "pictures.example.test";

let browser: Browser;
let s: Served;
let general: string;

beforeAll(async () => {
  s = serve({
    users: [
      { name: "alice", global_name: "Alice" },
      { name: "bob", global_name: "Bob" },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "quiet" }] }],
    applications: [{ name: "Poster", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
  });
  general = s.id(s.world.guilds.Lab.channels.general);
  const bob = s.id(s.world.users.bob.id);
  // A log taller than the window, so the reader can be at the bottom or not.
  s.p.core.transaction(() => {
    for (let i = 0; i < 40; i++) s.p.core.people.send(bob, general, { content: `filler ${i}` });
  });
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

/** How far the log is from its bottom, in pixels. */
function fromBottom(page: Page): Promise<number> {
  return page.getByRole("log").evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await Bun.sleep(50);
  }
}

async function botPosts(title: string): Promise<void> {
  const res = await fetch(`${s.base}/api/v10/channels/${s.world.guilds.Lab.channels.general}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${s.world.applications.Poster.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content: title, embeds: [{ title, image: { url: `https://${HOST}/${title}.png` } }] }),
  });
  if (!res.ok) throw new Error(`post: ${res.status} ${await res.text()}`);
}

describe("the message list", () => {
  test("follows at the bottom when a picture settles after its message was laid out", async () => {
    const alice = await signIn(browser, s.base, "alice", {
      // The picture arrives a moment after its message, as from a slow host, and is tall.
      prepare: (context) =>
        context.route(
          (url) => url.host === HOST,
          async (route) => {
            await Bun.sleep(300);
            await route.fulfill({ status: 200, contentType: "image/png", body: Buffer.from(png(200, 500)) });
          },
        ),
    });
    try {
      const a = alice.page;
      await botPosts("first picture");
      await message(a, /first picture/)
        .getByRole("button", { name: `Always load images from ${HOST}` })
        .click();
      await a
        .getByRole("button", { name: "Jump to present" })
        .click({ timeout: 1000 })
        .catch(() => undefined);
      await until("at the bottom", async () => (await fromBottom(a)) < 2);
      await botPosts("second picture");
      const picture = message(a, /second picture/).getByRole("img", { name: /second picture/ });
      await picture.waitFor({ state: "attached" });
      await until("the picture drawn", () =>
        picture.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalHeight > 0),
      );
      await until("the log back at the bottom", async () => (await fromBottom(a)) < 2);
      expect(await a.getByRole("button", { name: "Jump to present" }).count()).toBe(0);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("scrolled up: Jump to present; at the bottom, a new message comes into view", async () => {
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await message(a, /filler 39/).waitFor();
      await a.getByRole("log").evaluate((el) => {
        el.scrollTop = 0;
      });
      await a.getByRole("button", { name: "Jump to present" }).click();
      await until("at the bottom", async () => (await fromBottom(a)) < 2);
      expect(await a.getByRole("button", { name: "Jump to present" }).count()).toBe(0);
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: "> a quote\n> over lines\n- and\n- a list" });
      await message(a, /a quote/).waitFor();
      await until("the quote in view", async () => (await fromBottom(a)) < 2);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("New messages sits before the first message since the reader last read", async () => {
    const quiet = s.id(s.world.guilds.Lab.channels.quiet);
    const seen = await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: "already read" });
    await s.as("alice", "PUT", `/channels/${quiet}/read`, { message_id: seen.id });
    await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: "first unread" });
    await s.as("bob", "POST", `/channels/${quiet}/messages`, { content: "second unread" });
    const alice = await signIn(browser, s.base, "alice");
    try {
      const a = alice.page;
      await a
        .getByRole("navigation", { name: "Channels" })
        .getByRole("button", { name: /^quiet\b/ })
        .click();
      const divider = a.getByRole("log").getByRole("separator", { name: "New messages" });
      await divider.waitFor();
      expect(await divider.count()).toBe(1);
      const before = async (text: RegExp) => {
        const el = await message(a, text).elementHandle();
        return divider.evaluate((d, m) => (d.compareDocumentPosition(m as Node) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, el);
      };
      expect(await before(/first unread/)).toBe(true);
      expect(await before(/already read/)).toBe(false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("one header for a run by one author; times read Today at ...; <t:...> in seven styles", async () => {
    const alice = await signIn(browser, s.base, "alice", { locale: "en-GB", timezoneId: "UTC" });
    try {
      const a = alice.page;
      const unix = 1618953630; // 2021-04-20 21:20:30 UTC
      const styles = ["t", "T", "d", "D", "f", "F", "R"];
      await s.as("alice", "POST", `/channels/${general}/messages`, {
        content: `stamps ${styles.map((x) => `<t:${unix}:${x}>`).join(" | ")} | <t:${unix}>`,
      });
      const stamps = message(a, /stamps/);
      await stamps.waitFor();
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: "run one" });
      await s.as("bob", "POST", `/channels/${general}/messages`, { content: "run two" });
      await message(a, /run two/).waitFor();
      // The first of a run shows its author and "Today at"; the second only its clock.
      expect(
        await message(a, /run one/)
          .getByRole("time")
          .textContent(),
      ).toMatch(/^Today at \d\d:\d\d$/);
      expect(
        await message(a, /run two/)
          .getByRole("time")
          .textContent(),
      ).toMatch(/^\d\d:\d\d$/);
      expect(await stamps.getByRole("time").first().textContent()).toMatch(/^Today at /);
      const shown = await stamps.getByRole("time").allTextContents();
      expect(shown.slice(1)).toEqual([
        "21:20",
        "21:20:30",
        "20/04/2021",
        "20 April 2021",
        expect.stringMatching(/^20 April 2021(,| at) 21:20$/),
        expect.stringMatching(/^Tuesday,? 20 April 2021(,| at) 21:20$/),
        expect.stringMatching(/^\d+ years ago$/),
        expect.stringMatching(/^20 April 2021(,| at) 21:20$/),
      ]);
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
