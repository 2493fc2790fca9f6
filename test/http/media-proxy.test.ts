/**
 * The image proxy (docs/security.md, finding 10; docs/operations.md): when the operator
 * turns it on, embeds carry a signed proxy_url on Parley's own origin, and the proxy
 * fetches only public addresses (after DNS, and on every redirect) unless the operator
 * allows more, only images, and only so many bytes. Refused addresses are never
 * connected to: the image server counts every request it gets.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Parley } from "../../src/app";
import { call, client, makeUnlimitedParley, ORIGIN } from "../helpers";

/** A 1x1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const MAX = 1024;

let images: Server<undefined>;
let img: string;
const hits: string[] = [];

const WORLD = {
  users: [{ name: "alice" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  applications: [{ name: "Poster", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

interface World {
  p: Parley;
  token: string;
  channel: string;
  alice: string;
}

function world(imageProxy: { enabled: boolean; allow?: string[] }): World {
  const p = makeUnlimitedParley({ imageProxy: { enabled: imageProxy.enabled, allow: imageProxy.allow ?? [], maxBytes: MAX } });
  const w = p.seed(structuredClone(WORLD));
  return { p, token: w.applications.Poster.token, channel: w.guilds.Lab.channels.general, alice: w.users.alice.token };
}

let on: World; // the proxy on, the test's image server allowed
let strict: World; // the proxy on, nothing private allowed
let off: World;

beforeAll(() => {
  images = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      const png = (body: BodyInit, extra: Record<string, string> = {}) =>
        new Response(body, { headers: { "content-type": "image/png", ...extra } });
      switch (path) {
        case "/cat.png":
          return png(PNG);
        case "/page":
          return new Response("<h1>hi</h1>", { headers: { "content-type": "text/html" } });
        case "/drawing.svg":
          return new Response("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", {
            headers: { "content-type": "image/svg+xml" },
          });
        case "/big.png":
          return png(new Uint8Array(MAX + 1));
        case "/streamed.png":
          return png(
            new ReadableStream({
              start(c) {
                for (let i = 0; i < 4; i++) c.enqueue(new Uint8Array(MAX / 2));
                c.close();
              },
            }),
          );
        case "/to-metadata":
          return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
        case "/to-loopback":
          return Response.redirect(`http://[::1]:${images.port}/cat.png`, 302);
        case "/to-cat":
          return Response.redirect("/cat.png", 302);
        default:
          return new Response("no", { status: 404 });
      }
    },
  });
  img = `http://127.0.0.1:${images.port}`;
  on = world({ enabled: true, allow: ["127.0.0.1"] });
  strict = world({ enabled: true });
  off = world({ enabled: false });
});

afterAll(async () => {
  images.stop(true);
  for (const w of [on, strict, off]) await w.p.stop();
});

/** A bot posts an embed showing `url`; its answer as the bot reads it. */
async function posted(w: World, url: string, extra: Record<string, unknown> = {}) {
  const r = await call(w.p, "POST", `/channels/${w.channel}/messages`, {
    token: w.token,
    body: { embeds: [{ title: "t", image: { url }, ...extra }] },
  });
  expect(r.status).toBe(200);
  return r.body;
}

/** The proxy's answer for the link a bot was given for `url`. */
async function through(w: World, url: string): Promise<Response> {
  const link: string = (await posted(w, url)).embeds[0].image.proxy_url;
  expect(link).toStartWith(`${w.p.api.urls.base}/api/media/v1/external/`);
  return w.p.handle(new Request(link.replace(w.p.api.urls.base, ORIGIN)));
}

async function refusal(res: Response): Promise<[number, number]> {
  expect(res.headers.get("content-type")).toBe("application/json");
  return [res.status, ((await res.json()) as { code: number }).code];
}

describe("links", () => {
  test("with the proxy on, every picture of an embed gets a signed link on Parley's origin, in place of any a bot gave", async () => {
    const m = await posted(on, `${img}/cat.png`, {
      thumbnail: { url: `${img}/t.png`, proxy_url: "https://tracker.example/t" },
      author: { name: "a", icon_url: `${img}/a.png`, proxy_icon_url: "https://tracker.example/a" },
      footer: { text: "f", icon_url: `${img}/f.png` },
    });
    const e = m.embeds[0];
    const base = `${on.p.api.urls.base}/api/media/v1/external/`;
    for (const link of [e.image.proxy_url, e.thumbnail.proxy_url, e.author.proxy_icon_url, e.footer.proxy_icon_url])
      expect(link).toStartWith(base);
    expect(e.thumbnail.url).toBe(`${img}/t.png`);
    expect(new URL(e.thumbnail.proxy_url).searchParams.get("url")).toBe(`${img}/t.png`);

    // The same message as a bot reads it later, and as a person's client gets it (a path on its own origin).
    const read = await call(on.p, "GET", `/channels/${on.channel}/messages/${m.id}`, { token: on.token });
    expect(read.body.embeds[0]).toEqual(e);
    const people = await client(on.p, "GET", `/channels/${on.p.api.flakes.uuid(on.channel)}/messages`, on.alice);
    const shown = people.body.find((x: { embeds: unknown[] }) => x.embeds.length).embeds[0];
    expect(shown.image.proxy_url).toBe(e.image.proxy_url.replace(on.p.api.urls.base, ""));
    expect(shown.thumbnail.proxy_url).toStartWith("/api/media/v1/external/");
  });

  test("with the proxy off, no link is made, and a person's client never gets one a bot wrote", async () => {
    const m = await posted(off, `${img}/cat.png`, { thumbnail: { url: `${img}/t.png`, proxy_url: "https://tracker.example/t" } });
    expect(m.embeds[0].image.proxy_url).toBeUndefined();
    const people = await client(off.p, "GET", `/channels/${off.p.api.flakes.uuid(off.channel)}/messages`, off.alice);
    const shown = people.body.find((x: { embeds: unknown[] }) => x.embeds.length).embeds[0];
    expect(shown.thumbnail).toEqual({ url: `${img}/t.png` });
    expect(
      (await off.p.handle(new Request(`${ORIGIN}/api/media/v1/external/abc?url=${encodeURIComponent(`${img}/cat.png`)}`))).status,
    ).toBe(404);
  });

  test("a link fetches only the address it was signed for", async () => {
    const link: string = (await posted(on, `${img}/cat.png`)).embeds[0].image.proxy_url;
    const u = new URL(link);
    u.searchParams.set("url", `${img}/page`);
    const before = hits.length;
    expect(await refusal(await on.p.handle(new Request(u.href.replace(on.p.api.urls.base, ORIGIN))))).toEqual([404, 0]);
    const forged = link.replace(/external\/[^?]+/, "external/AAAAAAAAAAAAAAAAAAAAAA");
    expect(await refusal(await on.p.handle(new Request(forged.replace(on.p.api.urls.base, ORIGIN))))).toEqual([404, 0]);
    expect(hits.length).toBe(before);
  });
});

describe("what the proxy fetches", () => {
  test("an image from an allowed address, with headers that keep it an image", async () => {
    const res = await through(on, `${img}/cat.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const moved = await through(on, `${img}/to-cat`);
    expect(moved.status).toBe(200);
    expect(Buffer.from(await moved.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test("refuses private, loopback and link-local addresses unless allowed, before connecting, after DNS too", async () => {
    const port = images.port;
    const before = hits.length;
    for (const url of [
      `${img}/cat.png`,
      `http://localhost:${port}/cat.png`,
      `http://2130706433:${port}/cat.png`,
      `http://0.0.0.0:${port}/cat.png`,
      `http://[::1]:${port}/cat.png`,
      `http://[::ffff:127.0.0.1]:${port}/cat.png`,
      "http://10.1.2.3/cat.png",
      "http://172.16.0.1/cat.png",
      "http://192.168.1.1/cat.png",
      "http://100.64.0.1/cat.png",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/cat.png",
      "http://[fd00::1]/cat.png",
    ]) {
      expect({ url, answer: await refusal(await through(strict, url)) }).toEqual({ url, answer: [403, 0] });
    }
    expect(hits.length).toBe(before);
  });

  test("refuses a redirect to a private address that is not allowed", async () => {
    const before = hits.length;
    expect(await refusal(await through(on, `${img}/to-metadata`))).toEqual([403, 0]);
    expect(await refusal(await through(on, `${img}/to-loopback`))).toEqual([403, 0]);
    expect(hits.length - before).toBe(2); // the two redirects, nothing after them
  });

  test("refuses what is not an image, or too large, or missing", async () => {
    for (const path of ["/page", "/drawing.svg", "/big.png", "/streamed.png", "/missing.png"]) {
      expect({ path, answer: await refusal(await through(on, `${img}${path}`)) }).toEqual({ path, answer: [502, 0] });
    }
  });

  test("makes no link for an address that is not http or https, or carries credentials", async () => {
    for (const url of ["attachment://x.png", `http://user:pass@127.0.0.1:${images.port}/cat.png`]) {
      const m = await posted(on, url);
      expect({ url, link: m.embeds[0].image.proxy_url }).toEqual({ url, link: undefined });
    }
    // Other schemes do not get in at all: the bot API refuses them as the reference does.
    for (const url of ["ftp://127.0.0.1/x.png", "javascript:alert(1)"]) {
      const r = await call(on.p, "POST", `/channels/${on.channel}/messages`, { token: on.token, body: { embeds: [{ image: { url } }] } });
      expect([url, r.status, r.body.code]).toEqual([url, 400, 50035]);
    }
  });
});
