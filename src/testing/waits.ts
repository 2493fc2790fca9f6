import type { HarnessEvent, HarnessMessage, WaitOptions } from "./types";
import type { HarnessClient } from "./harness-client";
import type { World } from "./world";

type Found<T> = Exclude<T, undefined | null | false>;

/** Waiting for what the bot did: polls and the harness's long-polled event feed, never sleeps of a fixed length. */
export function waiters(
  harness: HarnessClient,
  world: World,
  messages: (channel: string, o?: { as?: string }) => Promise<HarnessMessage[]>,
) {
  let cursor: string | undefined;

  async function waitFor<T>(check: () => T | Promise<T>, w: WaitOptions = {}): Promise<Found<T>> {
    const deadline = Date.now() + (w.timeoutMs ?? 5000);
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v as Found<T>;
      if (Date.now() >= deadline) throw new Error(`waitFor: nothing matched within ${w.timeoutMs ?? 5000} ms`);
      await new Promise((r) => setTimeout(r, w.intervalMs ?? 25));
    }
  }

  return {
    waitFor,
    waitForMessage: (channel: string, match: (m: HarnessMessage) => boolean, o: WaitOptions & { as?: string } = {}) =>
      waitFor(async () => (await messages(channel, { as: o.as })).find(match), o),
    async waitForEvent(match: (e: HarnessEvent) => boolean, o: WaitOptions = {}): Promise<HarnessEvent> {
      const deadline = Date.now() + (o.timeoutMs ?? 5000);
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`waitForEvent: nothing matched within ${o.timeoutMs ?? 5000} ms`);
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
      await waitFor(async () => (await harness.call<{ connected: boolean }[]>("GET", `/applications/${id}/sessions`)).some((s) => s.connected), o);
    },
    /** After a reset the event feed starts over. */
    forgetCursor(): void {
      cursor = undefined;
    },
  };
}
