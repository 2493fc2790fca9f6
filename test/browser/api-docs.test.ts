/**
 * The API reference page (/api/docs) in a real browser: it draws the OpenAPI document
 * with the script the server embeds (@scalar/api-reference's standalone build), offline:
 * no request leaves the server, and the page throws nothing. The page draws the first
 * surface (the people's API) open and the others closed until a reader opens one, and
 * drawing a surface's hundred operations keeps the page busy for seconds on a loaded
 * machine; so the test opens the bot API from the sidebar as a reader would, rather than
 * waiting on the order the page happens to draw in.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launch, serve, WAIT_MS, type Served } from "./support";

let browser: Browser;
let s: Served;
beforeAll(async () => {
  s = serve({ users: [{ name: "alice" }] });
  browser = await launch();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await s?.p.stop();
});

test("the reference page draws the document offline: the API's title and its surfaces, nothing fetched from elsewhere", async () => {
  const page = await browser.newPage();
  // A 3.5 MB script, then a hundred operations drawn: five seconds on this 2-core machine
  // idle, 30 to 50 with the suite's two files at a time beside it (load 6 to 7).
  page.setDefaultTimeout(WAIT_MS * 10);
  const elsewhere: string[] = [];
  const thrown: string[] = [];
  page.on("request", (r) => void (r.url().startsWith(s.base) || r.url().startsWith("data:") || elsewhere.push(r.url())));
  page.on("pageerror", (e) => void thrown.push(String(e)));
  await page.goto(`${s.base}/api/docs`);
  await page.getByRole("heading", { name: "Parley", exact: true }).waitFor();
  const surface = (name: string) => page.getByRole("main").getByRole("region", { name, exact: true });
  /** A surface's entry for exactly one operation, as its list shows it ("post /api/..."). */
  const endpoint = (name: string, operation: string) => {
    const [method, path] = operation.split(" ");
    const text = new RegExp(`^\\s*${method}\\s*${path.replace(/[{}/]/g, "\\$&")}\\s*$`, "i");
    return surface(name)
      .getByRole("list", { name: `${name} endpoints` })
      .getByRole("listitem")
      .filter({ hasText: text });
  };

  // The people's API comes first, open.
  await endpoint("people", "post /api/client/v1/auth/signin").waitFor();
  // The bot API opens from the sidebar, with its own operations.
  const sidebar = page.getByRole("navigation", { name: "Sidebar for Parley" });
  await sidebar.getByRole("button", { name: /^bot\b/ }).click();
  await endpoint("bot", "post /api/v10/channels/{channel_id}/messages").waitFor();
  // The other surfaces are there to open too.
  expect(await sidebar.getByRole("button", { name: /^(harness|ops)\b/ }).count()).toBe(2);

  expect(elsewhere).toEqual([]);
  expect(thrown).toEqual([]);
  await page.close();
}, 170_000);
