/**
 * People's browser profiles for the browser tests (support.ts's signIn and openAs), kept
 * and wiped between tests: see profile().
 */
import type { Browser, BrowserContext, Page } from "playwright-core";

/** A person's browser profile and its one page. */
export interface Person {
  context: BrowserContext;
  page: Page;
}

export type ProfileOptions = Parameters<Browser["newContext"]>[0] & {
  prepare?: (context: BrowserContext) => Promise<unknown>;
  /** What Playwright waits for anything at most, in milliseconds. */
  timeout: number;
};

/**
 * A browser profile with one page, as a person who never used this server has it: no
 * storage, no cookies, nobody signed in. A new page costs Chromium about a second of CPU
 * (most of the browser tests' time), so a profile its test closed is kept for the next
 * person with the same options and server: on closing it leaves the app at once (its
 * live connection ends, as a closed browser's does), its origin's storage of every kind
 * and its cookies are cleared (the DevTools protocol's "clear site data"), listeners the
 * test added are dropped and its screen size is put back. A profile is closed for good
 * when its test changed what that does not undo (a permission, an init script, routes,
 * the clock, another page, offline); a `prepare` step's profile always is.
 * PARLEY_FRESH_PROFILES=1 gives every person a new one, to rule the reuse out when a test
 * misbehaves.
 */
export async function profile(browser: Browser, base: string, options: ProfileOptions): Promise<Person> {
  const { prepare, timeout, ...contextOptions } = options;
  const key = JSON.stringify([base, contextOptions]);
  const list = spares.get(browser) ?? [];
  const kept = prepare ? -1 : list.findIndex((p) => p.key === key && !p.page.isClosed());
  if (kept !== -1) return list.splice(kept, 1)[0];
  const context = await browser.newContext(contextOptions);
  context.setDefaultTimeout(timeout);
  await prepare?.(context);
  const page = await context.newPage();
  // Anything an injected script could do is recorded, so a test can say nothing ran.
  page.on("dialog", (d) => void d.dismiss());
  if (!prepare && !process.env.PARLEY_FRESH_PROFILES) keepWhenClosed(browser, base, key, context, page, contextOptions.viewport ?? null);
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
function keepWhenClosed(
  browser: Browser,
  base: string,
  key: string,
  context: BrowserContext,
  page: Page,
  own: { width: number; height: number } | null,
): void {
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
    // A test that tried another screen size (a phone's) leaves the profile's own.
    const size = page.viewportSize();
    if (own && (size?.width !== own.width || size?.height !== own.height)) await page.setViewportSize(own);
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
