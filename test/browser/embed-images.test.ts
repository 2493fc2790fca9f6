/**
 * No viewer's browser contacts a host a bot chose without that person asking
 * (docs/security.md, finding 10). Every request the page makes passes through
 * Playwright's routing, so a request to the bot's image host is seen (and answered with
 * a picture) the moment it leaves. With the operator's image proxy on, pictures come
 * from Parley and the page asks the bot's host for nothing at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { channelEntry, count, launch, message, serve, signIn, WAIT_MS, type Served } from "./support";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const HOST = "images.example.test";
const OTHER = "other.example.test";

const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }],
  guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }] }],
  applications: [{ name: "Poster", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

/** A bot posts one embed with an image, a thumbnail and author and footer icons from `host`. */
async function post(s: Served, title: string, base: string): Promise<void> {
  const res = await fetch(`${s.base}/api/v10/channels/${s.world.guilds.Lab.channels.general}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${s.world.applications.Poster.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      embeds: [
        {
          title,
          image: { url: `${base}/${title}.png` },
          thumbnail: { url: `${base}/${title}-thumb.png` },
          author: { name: "Poster", icon_url: `${base}/author.png` },
          footer: { text: "footer", icon_url: `${base}/footer.png` },
        },
      ],
    }),
  });
  if (!res.ok) throw new Error(`post: ${res.status} ${await res.text()}`);
}

/** Record in `seen` every request the person's browser sends to `hosts` (set before the first page), answered with a picture. */
async function watch(context: BrowserContext, hosts: string[], seen: string[]): Promise<void> {
  await context.route(
    (url) => hosts.includes(url.host),
    (route) => {
      seen.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "image/png", body: PNG });
    },
  );
}

async function drawn(page: Page, name: string): Promise<void> {
  const img = page.getByRole("img", { name });
  await img.waitFor();
  const deadline = Date.now() + WAIT_MS;
  while (!(await img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0))) {
    if (Date.now() > deadline) throw new Error(`${name} never loaded`);
    await Bun.sleep(50);
  }
}

describe("click to load", () => {
  let s: Served;
  beforeAll(() => {
    s = serve(WORLD);
  });
  afterAll(() => s.p.stop());

  test("nothing is fetched from the bot's host until the person clicks, and then only that embed's pictures", async () => {
    await post(s, "Cats", `http://${HOST}`);
    await post(s, "Dogs", `http://${HOST}`);
    const seen: string[] = [];
    const alice = await signIn(browser, s.base, "alice", { prepare: (c) => watch(c, [HOST], seen) });
    try {
      const a = alice.page;
      await channelEntry(a, "general").click();
      const cats = message(a, /^Poster/).filter({ hasText: "Cats" });
      const ask = cats.getByRole("button", { name: `Load 4 images from ${HOST}` });
      await ask.waitFor();
      await message(a, /^Poster/)
        .filter({ hasText: "Dogs" })
        .getByRole("button", { name: `Load 4 images from ${HOST}` })
        .waitFor();
      expect(await a.getByRole("img").count()).toBe(0);
      expect(seen).toEqual([]);

      await ask.click();
      await drawn(a, "Image: Cats");
      await count(cats.getByRole("button", { name: /^Load / }), 0);
      expect([...new Set(seen)].sort()).toEqual([
        `http://${HOST}/Cats-thumb.png`,
        `http://${HOST}/Cats.png`,
        `http://${HOST}/author.png`,
        `http://${HOST}/footer.png`,
      ]);
      // The other embed still asks.
      expect(await a.getByRole("img", { name: "Image: Dogs" }).count()).toBe(0);
      expect(seen.some((u) => u.includes("Dogs"))).toBe(false);
    } finally {
      await alice.context.close();
    }
  }, 30_000);

  test("'always load images from' a host is remembered for that person only", async () => {
    await post(s, "Birds", `http://${HOST}`);
    await post(s, "Fish", `http://${OTHER}`);
    const seen: string[] = [];
    const alice = await signIn(browser, s.base, "alice", { prepare: (c) => watch(c, [HOST, OTHER], seen) });
    try {
      const a = alice.page;
      await channelEntry(a, "general").click();
      await message(a, /^Poster/)
        .filter({ hasText: "Birds" })
        .getByRole("button", { name: `Always load images from ${HOST}` })
        .click();
      await drawn(a, "Image: Birds");
      await drawn(a, "Image: Cats"); // every embed from that host, at once
      // Remembered across a reload; another host still asks.
      await a.reload();
      await channelEntry(a, "general").click();
      await drawn(a, "Image: Dogs");
      await message(a, /^Poster/)
        .filter({ hasText: "Fish" })
        .getByRole("button", { name: `Load 4 images from ${OTHER}` })
        .waitFor();
      expect(seen.some((u) => u.includes(OTHER))).toBe(false);
    } finally {
      await alice.context.close();
    }

    const bobSeen: string[] = [];
    const bob = await signIn(browser, s.base, "bob", { prepare: (c) => watch(c, [HOST, OTHER], bobSeen) });
    try {
      const b = bob.page;
      await channelEntry(b, "general").click();
      await message(b, /^Poster/)
        .filter({ hasText: "Birds" })
        .getByRole("button", { name: `Load 4 images from ${HOST}` })
        .waitFor();
      expect(await b.getByRole("img").count()).toBe(0);
      expect(bobSeen).toEqual([]);
    } finally {
      await bob.context.close();
    }
  }, 40_000);
});

describe("the operator's image proxy", () => {
  let images: Server<undefined>;
  let s: Served;
  const hits: string[] = [];

  beforeAll(() => {
    images = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => (hits.push(new URL(req.url).pathname), new Response(PNG, { headers: { "content-type": "image/png" } })),
    });
    s = serve(WORLD, { imageProxy: { enabled: true, allow: ["127.0.0.1"], maxBytes: 1 << 20 } });
  });
  afterAll(async () => {
    images.stop(true);
    await s.p.stop();
  });

  test("pictures come through Parley at once, and the page asks the bot's host for nothing", async () => {
    const third = `127.0.0.1:${images.port}`;
    await post(s, "Proxied", `http://${third}`);
    const seen: string[] = [];
    const alice = await signIn(browser, s.base, "alice", { prepare: (c) => watch(c, [third], seen) });
    try {
      const a = alice.page;
      await channelEntry(a, "general").click();
      await drawn(a, "Image: Proxied");
      await drawn(a, "Thumbnail");
      expect(await a.getByRole("img", { name: "Image: Proxied" }).getAttribute("src")).toStartWith("/api/media/v1/external/");
      expect(await a.getByRole("button", { name: /^Load / }).count()).toBe(0);
      expect(seen).toEqual([]);
      expect(hits).toContain("/Proxied.png");
    } finally {
      await alice.context.close();
    }
  }, 30_000);
});
