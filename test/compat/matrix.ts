/**
 * The compatibility matrix's vocabulary. Every compatibility test registers through
 * scenario(), so its name is "<library> › <scenario id>: <what it shows>", which
 * scripts/compat-matrix.ts reads back from the run's JUnit report to write
 * docs/compatibility.md. A library that cannot do a scenario at all says so here, with
 * the reason, instead of having a test.
 */
import { test } from "bun:test";

export const LIBRARIES = [
  "discord.js",
  "@discordjs/core",
  "oceanic.js",
  "discord.py",
  "eris",
  "discordeno",
  "seyfert",
  "detritus-client",
] as const;
export type Library = (typeof LIBRARIES)[number];

export const SCENARIOS = {
  login: "login and ready with guild, channels and members cached",
  "join-after-ready":
    "join after READY: installed into another server while connected, the library's join event fires (not its available event) and its handler runs",
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
  epoch: "with the library's one-line epoch shim (below), the creation times it reads from ids are the server's",
  "epoch-unshimmed": "without the shim: those creation times are ten years early, and what that breaks",
  "fault-close": "harness fault: gateway closed with 4000; resumes the same session, no event lost",
  "fault-invalid-session": "harness fault: op 9 on a live session; identifies afresh and hears new events",
  "fault-zombie": "harness fault: heartbeat ACKs dropped (zombied connection); reconnects on its own",
  "fault-500": "harness fault: a 500 on send; the library retries and the message lands",
  "fault-502": "harness fault: a 502 on send; the library retries and the message lands",
  "fault-429": "harness fault: a bucket 429 (retry_after 1 s); retried no sooner than retry_after",
  "fault-global-429": "harness fault: a global 429 (retry_after 1 s); retried no sooner than retry_after",
} as const;
export type ScenarioId = keyof typeof SCENARIOS;

/**
 * Scenarios a library cannot do inside the spec's subset, or does not do at all, with
 * why (shown in the matrix). Each is backed by a test of what the library does instead
 * (declined()), so the reason is checked on every run, not just written down.
 */
export const NOT_SUPPORTED: Partial<Record<Library, Partial<Record<ScenarioId, string>>>> = {
  "oceanic.js": {
    "fault-500":
      "oceanic.js retries only a 502 (RequestHandler: `res.status === 502 && ++attempts < 4`); a 500 rejects the send with DiscordHTTPError 500.",
  },
  eris: {
    "fault-500":
      "eris retries only a 502 (RequestHandler.js: `statusCode === 502 && ++attempts < 4`); a 500 rejects the send with DiscordHTTPError 500.",
  },
  discordeno: {
    "fault-500": "discordeno retries only 429s (rest manager: every other status >= 400 rejects at once); a 500 rejects the send.",
    "fault-502": "discordeno retries only 429s (rest manager: every other status >= 400 rejects at once); a 502 rejects the send.",
  },
  seyfert: {
    "fault-500":
      "seyfert retries only 502 and 503 (ApiHandler: `[502, 503].includes(response.status) && ++attempts < 4`); a 500 rejects the send.",
  },
  "detritus-client": {
    "fault-500":
      "detritus-client-rest retries only 429s (and, in intent, a 502: see the 502 row); a 500 rejects the send with HTTPError 500.",
    "fault-502":
      "detritus-client-rest's 502 retry never fires: its condition is inverted (request.js: `this.maxRetries <= this.retries++`), so a 502 rejects the send with HTTPError 502.",
  },
};

/** Register one matrix cell as a test. */
export function scenario(lib: Library, id: ScenarioId, what: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void {
  test(`${lib} › ${id}: ${what}`, fn, timeoutMs);
}

/**
 * A cell that shares nothing with its neighbours (its own bot, and its own server or an
 * application nobody else uses), run concurrently with the adjacent concurrent cells:
 * the ones that mostly wait for a library's own reconnect delays or a rate-limit window.
 */
scenario.concurrent = (lib: Library, id: ScenarioId, what: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void => {
  test.concurrent(`${lib} › ${id}: ${what}`, fn, timeoutMs);
};

/**
 * The test behind a NOT_SUPPORTED cell: that the library does what the reason says
 * instead. The matrix shows "not supported" while it passes and FAIL when it does not.
 */
export function declined(lib: Library, id: ScenarioId, what: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void {
  if (!NOT_SUPPORTED[lib]?.[id]) throw new Error(`${lib} › ${id} is not declared in NOT_SUPPORTED`);
  test(`${lib} › ${id} (not supported): ${what}`, fn, timeoutMs);
}

/** declined(), run concurrently with its neighbours (see scenario.concurrent). */
declined.concurrent = (lib: Library, id: ScenarioId, what: string, fn: () => Promise<void> | void, timeoutMs = 30_000): void => {
  if (!NOT_SUPPORTED[lib]?.[id]) throw new Error(`${lib} › ${id} is not declared in NOT_SUPPORTED`);
  test.concurrent(`${lib} › ${id} (not supported): ${what}`, fn, timeoutMs);
};
