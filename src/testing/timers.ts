/**
 * Waiting in a test process whose timers may be fake. The SDK's waits sleep on the server:
 * a long poll of the harness's event log, which wakes the moment a bot is sent anything
 * new (so a wait sees the bot's answer at once, not at its next poll). A test that moves
 * its bot's timers with the test framework's fake timers (vi.useFakeTimers,
 * jest.useFakeTimers) stops every timer of the process, and under Bun every clock too; the
 * waits then count time by what they waited on the server.
 */
import type { HarnessClient } from "./harness-client.js";

/** A test framework's fake timers: vitest's `vi`, jest's or bun:test's `jest`, or anything with these. */
export interface FakeTimers {
  advanceTimersByTimeAsync?(ms: number): unknown;
  advanceTimersByTime?(ms: number): unknown;
  isFakeTimers?(): boolean;
}

/** How the SDK sleeps and reads elapsed time: real timers, or the server when they are fake. */
export interface Ticks {
  sleep(ms: number): Promise<void>;
  /** Milliseconds, only for measuring how long something waited. */
  now(): number;
  /** The server held a request `ms` (a long poll that found nothing): time waited, when timers are fake. */
  waitedOnServer(ms: number): void;
}

export function ticks(harness: HarnessClient, fake: () => FakeTimers | null): Ticks {
  let waited = 0;
  const faking = () => {
    const t = fake();
    return t !== null && (t.isFakeTimers?.() ?? true);
  };
  return {
    async sleep(ms) {
      const after = harness.lastSeen ?? (await harness.call<{ events: string }>("GET", "/cursor")).events;
      const page = await harness.call<{ events: unknown[]; cursor: string }>(
        "GET",
        `/events?after=${after}&wait_ms=${Math.max(1, Math.round(ms))}`,
      );
      harness.lastSeen = page.cursor;
      if (faking()) waited += page.events.length ? 1 : ms;
    },
    now: () => (faking() ? waited : performance.now()),
    waitedOnServer(ms) {
      if (faking()) waited += ms;
    },
  };
}

// Taken before any test fakes timers: Bun's fake timers leave setImmediate alone, and the
// fake-timer libraries replace the global, not this reference.
const realImmediate: (f: () => void) => unknown = globalThis.setImmediate ?? ((f: () => void) => queueMicrotask(f));

/**
 * Move fake timers by `ms`, awaiting what they start where the framework can (vitest's async
 * form). Then a few real turns of the event loop, so a request a timer started (a bot's
 * channel.send) has left the process before the server is asked whether the bots are quiet.
 */
export async function moveTimers(t: FakeTimers, ms: number): Promise<void> {
  if (t.advanceTimersByTimeAsync) await t.advanceTimersByTimeAsync(ms);
  else if (t.advanceTimersByTime) t.advanceTimersByTime(ms);
  else throw new Error("timers: give vitest's vi, jest's jest (or bun:test's), or { advanceTimersByTime(ms) }");
  for (let turn = 0; turn < 5; turn++) await new Promise<void>((r) => realImmediate(r));
}
