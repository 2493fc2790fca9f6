/**
 * What the SDK's parts share: the harness, the world as seeded, how to sleep (timers.ts),
 * the bots under test, and what the current test has done so far (for strict mode and
 * for a failing test's report).
 */
import { WORLD_LOST, type HarnessClient } from "./harness-client.js";
import type { Ticks } from "./timers.js";
import type { AllowedAnswer, Cursor } from "./types.js";
import type { World } from "./world.js";

/** The current test, from mark() on. */
export class TestState {
  mark: Cursor | null = null;
  /** Interactions the test started, with what they were, for "left unanswered". */
  /** `delivered`: false when the application had no live gateway session as it ran. */
  interactions: { id: string; what: string; delivered?: boolean }[] = [];
  allowed: AllowedAnswer[] = [];
  /** Errors the bots' libraries raised (watch()). */
  errors: unknown[] = [];

  begin(mark: Cursor): void {
    this.mark = mark;
    this.interactions = [];
    this.allowed = [];
    this.errors = [];
  }
}

export interface SdkContext {
  harness: HarnessClient;
  world: World;
  ticks: Ticks;
  test: TestState;
  strict: boolean;
  /** The bots under test, by world name: the ones named, else every application of the world. */
  underTest(): string[];
}

/** How a bot's transcript begins in a failure's message. */
export const TRANSCRIPT_HEADING = "\n\nTranscript of ";

/** How much of a transcript a timed-out wait shows. */
export const TRANSCRIPT_LINES = 60;

/** The last lines of each bot's transcript (since `after`), for the message of a failure. */
export async function explain(
  ctx: SdkContext,
  apps: string[] = ctx.underTest(),
  after?: string,
  lines = TRANSCRIPT_LINES,
): Promise<string> {
  let out = "";
  await ctx.harness.call("POST", "/settle", { quiet_ms: 0, timeout_ms: 1000 }).catch(() => undefined);
  if (ctx.harness.worldLost) out += `\n\n${WORLD_LOST}`;
  for (const app of apps) {
    const id = ctx.world.answer.applications[app]?.id ?? app;
    const q = `format=text${after ? `&after=${encodeURIComponent(after)}` : ""}`;
    const all = (await ctx.harness.text(`/applications/${id}/transcript?${q}`).catch(() => "")).trimEnd();
    if (!all) continue;
    const got = all.split("\n");
    const which = after ? "since the test began, " : "";
    out += `${TRANSCRIPT_HEADING}${app} (${which}${got.length > lines ? `last ${lines} of ${got.length}` : got.length} entries):\n${got.slice(-lines).join("\n")}`;
  }
  return out;
}

/** A cursor given as an object, a string, or not at all. */
export function cursorOf(c: Cursor | string | undefined, part: keyof Cursor): string | undefined {
  return c === undefined ? undefined : typeof c === "string" ? c : c[part];
}
