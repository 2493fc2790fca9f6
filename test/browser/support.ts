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

export interface Person {
  context: BrowserContext;
  page: Page;
}

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
  const { context, page } = await profile(browser, base, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}${path}`);
  await page.getByRole("textbox", { name: "Username" }).fill(username);
  await page.getByRole("textbox", { name: "Password" }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Site" }).waitFor();
  expect(new URL(page.url()).pathname).toBe(path);
  return { context, page };
}

type ProfileOptions = Parameters<Browser["newContext"]>[0] & { prepare?: (context: BrowserContext) => Promise<unknown> };

/**
 * A browser profile with one page, as a person who never used this server has it: no
 * storage, no cookies, nobody signed in. A new page costs Chromium about a second of CPU
 * (most of the browser tests' time), so a profile its test closed is kept for the next
 * person with the same options and server: on closing it leaves the app at once (its
 * live connection ends, as a closed browser's does), its origin's storage of every kind
 * and its cookies are cleared (the DevTools protocol's "clear site data") and listeners
 * the test added dropped. A profile is closed for good when its test changed what that
 * does not undo (a permission, an init script, routes, the viewport, the clock, another
 * page, offline); a `prepare` step's profile always is. PARLEY_FRESH_PROFILES=1 gives
 * every person a new one, to rule the reuse out when a test misbehaves.
 */
async function profile(browser: Browser, base: string, options: ProfileOptions): Promise<Person> {
  const { prepare, ...contextOptions } = options;
  const key = JSON.stringify([base, contextOptions]);
  const list = spares.get(browser) ?? [];
  const kept = prepare ? -1 : list.findIndex((p) => p.key === key && !p.page.isClosed());
  if (kept !== -1) return list.splice(kept, 1)[0];
  const context = await browser.newContext(contextOptions);
  context.setDefaultTimeout(WAIT_MS);
  await prepare?.(context);
  const page = await context.newPage();
  // Anything an injected script could do is recorded, so a test can say nothing ran.
  page.on("dialog", (d) => void d.dismiss());
  if (!prepare && !process.env.PARLEY_FRESH_PROFILES) keepWhenClosed(browser, base, key, context, page);
  return { context, page };
}

interface Spare extends Person {
  key: string;
}

const spares = new WeakMap<Browser, Spare[]>();

/** What a wipe does not undo: calling any of these keeps the profile from being reused. */
const CONTEXT_CHANGES = [
  "addCookies",
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "grantPermissions",
  "clearPermissions",
  "newPage",
  "route",
  "routeFromHAR",
  "routeWebSocket",
  "setDefaultNavigationTimeout",
  "setDefaultTimeout",
  "setExtraHTTPHeaders",
  "setGeolocation",
  "setHTTPCredentials",
  "setOffline",
] as const;
const PAGE_CHANGES = [
  "addInitScript",
  "addLocatorHandler",
  "close",
  "emulateMedia",
  "exposeBinding",
  "exposeFunction",
  "route",
  "routeFromHAR",
  "routeWebSocket",
  "setDefaultNavigationTimeout",
  "setDefaultTimeout",
  "setExtraHTTPHeaders",
  "setViewportSize",
] as const;
const CLOCK_CHANGES = ["install", "fastForward", "pauseAt", "resume", "runFor", "setFixedTime", "setSystemTime"] as const;

type Listener = (...a: unknown[]) => void;
/** Playwright's objects are Node-style emitters; its types do not say so. */
type Emitter = {
  eventNames(): (string | symbol)[];
  listeners(e: string | symbol): Listener[];
  removeListener(e: string | symbol, l: Listener): void;
};

/** Drops the listeners a test added (an observer of the page's errors, say) since `before`. */
function dropListenersSince(target: Page | BrowserContext, before: Map<string | symbol, Listener[]>): void {
  const emitter = target as unknown as Emitter;
  for (const event of emitter.eventNames())
    for (const l of emitter.listeners(event)) if (!before.get(event)?.includes(l)) emitter.removeListener(event, l);
}

function listenersNow(target: Page | BrowserContext): Map<string | symbol, Listener[]> {
  const emitter = target as unknown as Emitter;
  return new Map(emitter.eventNames().map((e) => [e, [...emitter.listeners(e)]]));
}

/** Watch the profile's changes; closing it (as every test does when done) keeps it, wiped, when it had none. */
function keepWhenClosed(browser: Browser, base: string, key: string, context: BrowserContext, page: Page): void {
  let changed = false;
  const watch = (target: object, names: readonly string[]) => {
    const t = target as Record<string, unknown>;
    for (const name of names) {
      const real = t[name] as (...a: unknown[]) => unknown;
      t[name] = (...a: unknown[]) => {
        changed = true;
        return real.apply(target, a);
      };
    }
  };
  const pageListeners = listenersNow(page);
  const contextListeners = listenersNow(context);
  const closeContext = context.close.bind(context);
  watch(context, CONTEXT_CHANGES);
  watch(page, PAGE_CHANGES);
  watch(context.clock, CLOCK_CHANGES);
  const spare: Spare = { key, context, page };
  context.close = async (...a: Parameters<BrowserContext["close"]>) => {
    if (spares.get(browser)?.includes(spare)) return; // closed already, and kept
    if (changed || page.isClosed() || context.pages().length !== 1 || !browser.isConnected()) return closeContext(...a);
    dropListenersSince(page, pageListeners);
    dropListenersSince(context, contextListeners);
    // Gone from the app at once, as a closed browser is: its live connection ends now.
    if (!(await wipe(spare, base))) return closeContext(...a);
    const list = spares.get(browser) ?? [];
    list.push(spare);
    spares.set(browser, list);
  };
}

/** The profile as new: off the app, its storage and cookies gone. False: it could not be wiped. */
async function wipe(p: Person, base: string): Promise<boolean> {
  try {
    // Off the app first, so nothing of it writes storage after the wipe or holds it open.
    await p.page.goto(`${base}/healthz`);
    await p.page.evaluate(() => sessionStorage.clear());
    const cdp = await p.context.newCDPSession(p.page);
    await cdp.send("Storage.clearDataForOrigin", { origin: new URL(base).origin, storageTypes: "all" });
    await cdp.detach();
    await p.context.clearCookies();
    return true;
  } catch {
    return false;
  }
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
