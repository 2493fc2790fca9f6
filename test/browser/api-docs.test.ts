/**
 * The API reference page (/api/docs) in a real browser: it draws the OpenAPI document
 * with the script the server embeds (@scalar/api-reference's standalone build), offline:
 * no request leaves the server, and the page throws nothing.
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
  const elsewhere: string[] = [];
  const thrown: string[] = [];
  page.on("request", (r) => void (r.url().startsWith(s.base) || r.url().startsWith("data:") || elsewhere.push(r.url())));
  page.on("pageerror", (e) => void thrown.push(String(e)));
  await page.goto(`${s.base}/api/docs`);
  await page.getByRole("heading", { name: "Parley", exact: true }).waitFor({ timeout: WAIT_MS * 2 });
  await page.getByRole("heading", { name: /^people/ }).first().waitFor({ timeout: WAIT_MS });
  await page.getByRole("heading", { name: /^bot/ }).first().waitFor({ timeout: WAIT_MS });
  expect(elsewhere).toEqual([]);
  expect(thrown).toEqual([]);
  await page.close();
}, 60_000);
