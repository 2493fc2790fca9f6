/**
 * Browser tests: Debian's chromium (/usr/bin/chromium, headless) driven by playwright-core
 * against a real Parley on a real port. Pages are found by role and accessible name only,
 * never by CSS. One browser per test file, a fresh context (a person's browser profile)
 * per person per test. npm test's pretest installs chromium when it is missing; nothing
 * here ever downloads a browser.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect } from "bun:test";
import { makeParley } from "../helpers";
import { profile, type Person } from "./profiles";
import type { Parley } from "../../src/app";
import type { Config } from "../../src/config";
import type { SeedAnswer } from "../../src/world";

export const CHROMIUM = "/usr/bin/chromium";

/** Playwright waits this long for what a test expects to appear. */
export const WAIT_MS = 8000;

/**
 * A page on a busy machine: every animation frame, and the fallback timer Preact's hooks
 * race against it (35 ms), lands `ms` late, so effects run long after the render that
 * asked for them. Whatever a person does in that gap (type into a box the moment it shows,
 * read where focus went) must hold. Tests opt in per context; `PARLEY_LATE_FRAMES=<ms>` puts
 * every context of a run on it, to look for such races across the suite.
 */
export function lateFrames(ms = 700): string {
  return `(() => {
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => raf(() => setTimeout(() => raf(cb), ${ms}));
    const later = window.setTimeout.bind(window);
    window.setTimeout = (f, wait, ...rest) => later(f, wait === 35 ? ${ms} : wait, ...rest);
  })()`;
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error("chromium is missing: apt-get install chromium (npm test's pretest does this when run as root)");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  if (process.env.PARLEY_LATE_FRAMES) {
    const plain = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const context = await plain(options);
      await context.addInitScript(lateFrames(Number(process.env.PARLEY_LATE_FRAMES) || undefined));
      return context;
    };
  }
  return browser;
}

/** A password every seeded person of the browser tests shares. */
export const PASSWORD = "correct horse battery";

export interface Served {
  p: Parley;
  base: string;
  world: SeedAnswer;
  /** The internal id behind a seed answer's snowflake. */
  id(flake: string): string;
  /** A people's API request as a seeded person. */
  as(user: string, method: string, path: string, body?: unknown): Promise<any>;
}

/** A listening Parley with `doc` seeded; every person gets PASSWORD. `config` overrides the test config. */
export function serve(
  doc: { users: { name: string; [k: string]: unknown }[]; [k: string]: unknown },
  config: Partial<Config> = {},
): Served {
  const p = makeParley(config);
  const world = p.seed({ ...doc, users: doc.users.map((u) => ({ password: PASSWORD, ...u })) });
  p.listen();
  const base = p.api.urls.base;
  const id = (flake: string) => p.api.flakes.uuid(flake)!;
  const as = async (user: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/client/v1${path}`, {
      method,
      headers: {
        Authorization: `Session ${world.users[user].token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { p, base, world, id, as };
}

export type { Person } from "./profiles";

/** A person's own browser profile, signed in and showing the chat. */
export async function signIn(
  browser: Browser,
  base: string,
  username: string,
  opts: {
    viewport?: { width: number; height: number };
    prepare?: (context: BrowserContext) => Promise<unknown>;
    /** The browser's language and time zone (Intl's), when a test reads dates. */
    locale?: string;
    timezoneId?: string;
    /** A phone: a touch screen, and the mobile browser's own viewport handling. */
    touch?: boolean;
  } = {},
): Promise<Person> {
  const { context, page } = await profile(browser, base, {
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    hasTouch: opts.touch,
    isMobile: opts.touch,
    locale: opts.locale,
    timezoneId: opts.timezoneId,
    prepare: opts.prepare,
    timeout: WAIT_MS,
  });
  await page.goto(`${base}/`);
  await page.getByRole("textbox", { name: "Username" }).fill(username);
  await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("textbox", { name: "Username" }).waitFor({ state: "detached" });
  await page.getByRole("textbox", { name: /^Message / }).waitFor();
  expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
  return { context, page };
}

/**
 * A person's own browser profile, opening `path` (a portal, install or admin page),
 * signing in there and staying on it: the pages ask to sign in first and come back.
 */
export async function openAs(browser: Browser, base: string, path: string, username: string, password = PASSWORD): Promise<Person> {
  const { context, page } = await profile(browser, base, { viewport: { width: 1280, height: 900 }, timeout: WAIT_MS });
  await page.goto(`${base}${path}`);
  await page.getByRole("textbox", { name: "Username" }).fill(username);
  await page.getByRole("textbox", { name: "Password" }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Site" }).waitFor();
  expect(new URL(page.url()).pathname).toBe(path);
  return { context, page };
}

/** The channel entry whose accessible name starts with the channel's name. */
export function channelEntry(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Channels" }).getByRole("button", { name: new RegExp(`^${name}\\b`) });
}

/** The message articles of the open channel whose accessible name (author and text) matches. */
export function message(page: Page, text: RegExp) {
  return page.getByRole("log").getByRole("article", { name: text });
}

/** Picks `action` from a message's "More" menu (Reply, Add reaction, Edit, Delete, Pin, Copy link…). */
export async function act(msg: Locator, action: string): Promise<void> {
  await msg.getByRole("button", { name: "More" }).click();
  await msg.getByRole("menu", { name: "More" }).getByRole("menuitem", { name: action, exact: true }).click();
}

/** The items of a message's "More" menu, which is closed again (Escape) before this returns. */
export async function actionsOf(msg: Locator): Promise<string[]> {
  await msg.getByRole("button", { name: "More" }).click();
  const menu = msg.getByRole("menu", { name: "More" });
  const items = await menu.getByRole("menuitem").allTextContents();
  await msg.page().keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  return items;
}

/** Wait until `ok` holds, polling, bounded by WAIT_MS; `what` names it in the error. */
export async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await Bun.sleep(50);
  }
}

/** Wait for a locator to reach a count (Playwright's own polling, bounded by WAIT_MS). */
export async function count(locator: ReturnType<Page["getByRole"]>, n: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const c = await locator.count();
    if (c === n) return;
    if (Date.now() > deadline) throw new Error(`expected ${n} matches, found ${c}: ${locator}`);
    await Bun.sleep(50);
  }
}
