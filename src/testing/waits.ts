import type { Cursor, HarnessEvent, HarnessMessage, WaitOptions } from "./wire-types.js";
import { cursorOf, explain, type SdkContext } from "./context.js";

type Found<T> = Exclude<T, undefined | null | false>;

/**
 * Waiting for what the bot did: polls and the harness's long-polled event feed, never
 * sleeps of a fixed length. A wait that times out says what the bot under test did.
 */
export function waiters(ctx: SdkContext, messages: (channel: string, o?: { as?: string }) => Promise<HarnessMessage[]>) {
  const { harness, world, ticks } = ctx;
  const timedOut = async (what: string, ms: number | undefined, app?: string, instead = "") =>
    new Error(
      `${what}: nothing matched within ${ms ?? 5000} ms${instead}${await explain(ctx, app ? [app] : undefined, ctx.test.mark?.transcript)}`,
    );

  async function poll<T>(
    what: string,
    check: () => T | Promise<T>,
    w: WaitOptions = {},
    app?: string,
    instead?: () => string,
  ): Promise<Found<T>> {
    const deadline = ticks.now() + (w.timeoutMs ?? 5000);
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v as Found<T>;
      if (ticks.now() >= deadline) throw await timedOut(what, w.timeoutMs, app, instead?.());
      await ticks.sleep(w.intervalMs ?? 25);
    }
  }

  return {
    poll,
    waitFor: <T>(check: () => T | Promise<T>, w: WaitOptions = {}) => poll("waitFor", check, w),
    waitForMessage(channel: string, match: (m: HarnessMessage) => boolean, o: WaitOptions & { as?: string } = {}) {
      // What the channel held instead, so a failing test shows the near miss ("Pong" for "pong").
      let seen: HarnessMessage[] = [];
      const check = async () => (seen = await messages(channel, { as: o.as })).find(match);
      return poll("waitForMessage", check, o, undefined, () => seenInstead(channel, seen));
    },
    async waitForEvent(
      match: (e: HarnessEvent) => boolean,
      o: WaitOptions & { after?: Cursor | string | "start" } = {},
    ): Promise<HarnessEvent> {
      const deadline = ticks.now() + (o.timeoutMs ?? 5000);
      // From the latest action by default: an event from before it never matches.
      let cursor = o.after === "start" ? "0" : (cursorOf(o.after, "events") ?? harness.lastAction ?? ctx.test.mark?.events ?? "0");
      // What the bots were sent instead, by type, for the message of a wait that times out.
      const seen = new Map<string, number>();
      for (;;) {
        const left = deadline - ticks.now();
        if (left <= 0) throw await timedOut("waitForEvent", o.timeoutMs, undefined, sentInstead(seen));
        const waitMs = Math.max(1, Math.round(Math.min(left, 1000)));
        const page = await harness.call<{ events: HarnessEvent[]; cursor: string }>(
          "GET",
          `/events?${new URLSearchParams({ after: cursor, wait_ms: String(waitMs) })}`,
        );
        if (!page.events.length) ticks.waitedOnServer(waitMs);
        cursor = page.cursor;
        for (const e of page.events) seen.set(e.t, (seen.get(e.t) ?? 0) + 1);
        const hit = page.events.find(match);
        if (hit) return hit;
      }
    },
    async waitForBot(app: string, o: WaitOptions = {}): Promise<void> {
      const id = world.app(app).id;
      const live = async () =>
        (await harness.call<{ connected: boolean }[]>("GET", `/applications/${id}/sessions`)).some((s) => s.connected);
      await poll(`waitForBot(${app})`, live, { timeoutMs: 15_000, ...o }, app);
    },
  };
}

/** The newest messages a channel held when a wait for one ended, one line each. */
function seenInstead(channel: string, seen: HarnessMessage[]): string {
  if (!seen.length) return `; '${channel}' holds no message`;
  const lines = seen.slice(0, 5).map((m) => `\n  ${m.author.username}: ${JSON.stringify(m.content.slice(0, 120))}`);
  return `; the newest in '${channel}' (of ${seen.length}):${lines.join("")}`;
}

/** The dispatches a wait for an event saw and did not match, by type. */
function sentInstead(seen: Map<string, number>): string {
  if (!seen.size) return "; the bots were sent nothing meanwhile";
  return `; the bots were sent meanwhile: ${[...seen].map(([t, n]) => (n > 1 ? `${t} x${n}` : t)).join(", ")}`;
}
