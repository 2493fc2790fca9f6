/**
 * What the security headers do in a real browser (docs/security.md, finding 9): the
 * pages work under the header policy, no other site can frame them, and the API
 * reference page (a third-party bundle) runs in a sandbox that cannot read the origin's
 * storage or call the people's API. And an unknown address is a page with a way home
 * (issue 24, item 11).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, signIn, WAIT_MS, type Served } from "./support";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  browser = await launch();
  s = serve({ users: [{ name: "alice" }], guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }] });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

describe("the API reference page", () => {
  test("renders in its sandbox, which holds none of the origin's storage and reaches no API", async () => {
    const { context, page } = await signIn(browser, s.base, "alice");
    const token = await page.evaluate(() => localStorage.getItem("parley.session"));
    expect(token).toBeString();
    const docs = await context.newPage();
    // The reference bundle (3.5 MB) draws a hundred operations, busy for tens of seconds on a
    // loaded machine (as test/browser/api-docs.test.ts allows); evaluate waits its turn.
    docs.setDefaultTimeout(WAIT_MS * 10);
    await docs.goto(`${s.base}/api/docs`);
    await docs.getByRole("heading", { name: "Parley", level: 1 }).waitFor();
    const seen = await docs.evaluate(async () => {
      let called: string;
      try {
        const r = await fetch("/api/client/v1/users/@me");
        called = `answered ${r.status}`;
      } catch {
        called = "refused";
      }
      return {
        origin: window.origin,
        stored: localStorage.getItem("parley.session"),
        cookie: (() => {
          try {
            return document.cookie;
          } catch {
            return "unreadable";
          }
        })(),
        called,
      };
    });
    expect(seen).toEqual({ origin: "null", stored: null, cookie: "unreadable", called: "refused" });
    await context.close();
  }, 170_000);
});

describe("framing", () => {
  test("another site cannot show the web client in a frame", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const loaded = page.waitForResponse((r) => r.url() === `${s.base}/`);
    await page.setContent(`<iframe title="framed" src="${s.base}/"></iframe>`);
    const res = await loaded;
    expect(res.headers()["x-frame-options"]).toBe("DENY");
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    // The browser replaces a refused frame's document with its own error page.
    const deadline = Date.now() + WAIT_MS;
    while (!frame.url().startsWith("chrome-error://") && Date.now() < deadline) await Bun.sleep(50);
    expect(frame.url()).toStartWith("chrome-error://");
    expect(await page.frameLocator("iframe").getByRole("textbox", { name: "Username" }).count()).toBe(0);
    await context.close();
  }, 20_000);
});

describe("unknown addresses", () => {
  test("show a not-found page whose link leads home", async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const res = await page.goto(`${s.base}/no/such/page`);
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.getByRole("link", { name: "Go to Parley" }).click();
    await page.getByRole("textbox", { name: "Username" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  }, 20_000);
});
