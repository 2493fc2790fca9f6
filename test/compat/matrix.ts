/**
 * The compatibility matrix's vocabulary. Every compatibility test registers through
 * scenario(), so its name is "<library> › <scenario id>: <what it shows>", which
 * scripts/compat-matrix.ts reads back from the run's JUnit report to write
 * docs/compatibility.md. A library that cannot do a scenario at all says so here, with
 * the reason, instead of having a test.
 */
import { test } from "bun:test";

export const LIBRARIES = ["discord.js", "@discordjs/core", "oceanic.js", "discord.py"] as const;
export type Library = (typeof LIBRARIES)[number];

export const SCENARIOS = {
  login: "login and ready with guild, channels and members cached",
  "message-content": "message create, edit, delete with MESSAGE_CONTENT",
  "message-no-content": "message events without MESSAGE_CONTENT (envelope only)",
  "embeds-components": "embeds and components",
  reactions: "reactions",
  typing: "typing",
  channels: "channel and overwrite management",
  moderation: "roles, kick, ban, audit log",
  webhooks: "webhooks",
  dms: "DMs (envelope in, plain out)",
  "slash-commands": "slash command registration and every reply style",
  components: "buttons and selects",
  "disallowed-intents": "disallowed intents",
  resume: "server-side 4000 close, then resume with missed frames",
  "invalid-session": "op 9, then re-identify",
  "token-rotation": "token rotation mid-session",
  "bucket-429": "bucket 429 handled by the library's own retry",
  "global-429": "global 429 handled by the library's own retry",
  "not-implemented": "a 501 route surfaced as the library's error",
} as const;
export type ScenarioId = keyof typeof SCENARIOS;

/** Scenarios a library has no way to express, with why (shown in the matrix). */
export const NOT_SUPPORTED: Partial<Record<Library, Partial<Record<ScenarioId, string>>>> = {};

/** Register one matrix cell as a test. */
export function scenario(lib: Library, id: ScenarioId, what: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void {
  test(`${lib} › ${id}: ${what}`, fn, timeoutMs);
}
