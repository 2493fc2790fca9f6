import type { HarnessEvent, HarnessMessage, WaitOptions } from "./types";
import type { HarnessClient } from "./harness-client";
import type { World } from "./world";

type Found<T> = Exclude<T, undefined | null | false>;

/**
 * Waiting for what the bot did: polls and the harness's long-polled event feed, never
 * sleeps of a fixed length. A wait that times out says what the bot under test did.
 */
export function waiters(
  harness: HarnessClient,
  world: World,
  messages: (channel: string, o?: { as?: string }) => Promise<HarnessMessage[]>,
  /** What the bot(s) under test did, for the message of a wait that timed out. */
  explain: (app?: string) => Promise<string>,
) {
  let cursor: string | undefined;
  const timedOut = async (what: string, ms: number | undefined, app?: string) =>
    new Error(`${what}: nothing matched within ${ms ?? 5000} ms${await explain(app)}`);

  async function poll<T>(what: string, check: () => T | Promise<T>, w: WaitOptions = {}, app?: string): Promise<Found<T>> {
    const deadline = Date.now() + (w.timeoutMs ?? 5000);
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v as Found<T>;
      if (Date.now() >= deadline) throw await timedOut(what, w.timeoutMs, app);
      await new Promise((r) => setTimeout(r, w.intervalMs ?? 25));
    }
  }

  return {
    waitFor: <T>(check: () => T | Promise<T>, w: WaitOptions = {}) => poll("waitFor", check, w),
    waitForMessage: (channel: string, match: (m: HarnessMessage) => boolean, o: WaitOptions & { as?: string } = {}) =>
      poll("waitForMessage", async () => (await messages(channel, { as: o.as })).find(match), o),
    async waitForEvent(match: (e: HarnessEvent) => boolean, o: WaitOptions = {}): Promise<HarnessEvent> {
      const deadline = Date.now() + (o.timeoutMs ?? 5000);
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw await timedOut("waitForEvent", o.timeoutMs);
        const q = new URLSearchParams({ wait_ms: String(Math.min(left, 1000)) });
        if (cursor !== undefined) q.set("after", cursor);
        const page = await harness.call<{ events: HarnessEvent[]; cursor: string }>("GET", `/events?${q}`);
        cursor = page.cursor;
        const hit = page.events.find(match);
        if (hit) return hit;
      }
    },
    async waitForBot(app: string, o: WaitOptions = {}): Promise<void> {
      const id = world.app(app).id;
      const live = async () => (await harness.call<{ connected: boolean }[]>("GET", `/applications/${id}/sessions`)).some((s) => s.connected);
      await poll(`waitForBot(${app})`, live, o, app);
    },
    /** After a reset the event feed starts over. */
    forgetCursor(): void {
      cursor = undefined;
    },
  };
}
