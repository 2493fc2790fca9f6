/**
 * Shared ground for the JavaScript half of the compatibility matrix
 * (matrix-discordjs, matrix-djscore, matrix-oceanic): one world document, a server
 * started through the test SDK, and the few people's actions the harness has no
 * endpoint for (typing goes through the people's API, as a person's client would).
 */
import { expect } from "bun:test";
import type { Parley } from "../../../src/app";
import { SPEC_RATE_LIMITS, type Config } from "../../../src/config";
import { SESSION_TTL_MS } from "../../../src/gateway/protocol";
import { startParley, type RunningParley } from "../../../src/testing";
import { serverOf } from "../../helpers";

export const ALL_INTENTS = [
  "GUILDS",
  "GUILD_MEMBERS",
  "GUILD_MESSAGES",
  "MESSAGE_CONTENT",
  "DIRECT_MESSAGES",
  "GUILD_MESSAGE_REACTIONS",
  "GUILD_MESSAGE_TYPING",
];

/**
 * FullBot does everything a bot may; PlainBot lacks MESSAGE_CONTENT; CycleBot and
 * RotBot own their sessions so the session-ending scenarios disturb nobody else.
 * Roles are listed low to high: BotRole sits above Helper (so the bot may grant it)
 * and above the people it kicks and bans.
 */
export const MATRIX_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave", "erin"],
      roles: [
        { name: "Helper", permissions: [], members: [] },
        {
          name: "BotRole",
          permissions: [
            "KICK_MEMBERS",
            "BAN_MEMBERS",
            "MANAGE_ROLES",
            "MANAGE_CHANNELS",
            "VIEW_AUDIT_LOG",
            "SEND_MESSAGES",
            "MANAGE_MESSAGES",
          ],
          members: ["FullBot"],
        },
      ],
      channels: [{ name: "general" }, { name: "ops" }, { name: "spam" }],
    },
    // FullBot is installed here while connected, and taken out again (the join-after-ready cells).
    { name: "Annex", owner: "alice", members: ["bob"], channels: [{ name: "lobby" }] },
  ],
  applications: [
    { name: "FullBot", owner: "alice", intents: ALL_INTENTS, approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"], install: ["Lab"] },
    { name: "PlainBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
    { name: "CycleBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
    { name: "RotBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
  ],
};

/** Intent bits (spec 6.2) for libraries that take a number. */
export const BITS = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  MESSAGE_CONTENT: 1 << 15,
};
export const FULL_INTENTS =
  BITS.GUILDS |
  BITS.GUILD_MEMBERS |
  BITS.GUILD_MESSAGES |
  BITS.MESSAGE_CONTENT |
  BITS.DIRECT_MESSAGES |
  BITS.GUILD_MESSAGE_REACTIONS |
  BITS.GUILD_MESSAGE_TYPING;
export const PLAIN_INTENTS = BITS.GUILDS | BITS.GUILD_MESSAGES;
export const MESSAGE_CONTENT_BIT = BITS.MESSAGE_CONTENT;

export interface MatrixServer {
  sdk: RunningParley;
  p: Parley;
  uuid(flake: string): string;
}

/** Parley in-process on a free port with the matrix world seeded; rate limits off unless given. */
export async function startMatrix(config: Partial<Config> = {}): Promise<MatrixServer> {
  const sdk = await startParley({
    world: structuredClone(MATRIX_WORLD),
    config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false }, ...config },
  });
  const p = serverOf(sdk);
  return { sdk, p, uuid: (f) => p.api.flakes.uuid(f)! };
}

/** The bucket-429 server: POST messages is 2 per second, so the test stays short. */
export function smallBucketLimits(): Partial<Config> {
  return {
    rateLimits: {
      ...SPEC_RATE_LIMITS,
      routes: { ...SPEC_RATE_LIMITS.routes, "POST /channels/{channel_id}/messages": { limit: 2, windowMs: 1000 } },
    },
  };
}

/** The global-429 server: 5 requests per second across all bots; the message bucket is wide so only the global window bites. */
export function smallGlobalLimits(): Partial<Config> {
  return {
    rateLimits: {
      ...SPEC_RATE_LIMITS,
      global: { limit: 5, windowMs: 1000 },
      routes: { ...SPEC_RATE_LIMITS.routes, "POST /channels/{channel_id}/messages": { limit: 100, windowMs: 1000 } },
    },
  };
}

/** Spend a bot's POST-messages bucket in a channel with raw requests, so the library's next send meets a 429. */
export async function exhaustMessageBucket(sdk: RunningParley, token: string, channelId: string): Promise<number> {
  let posted = 0;
  for (;;) {
    const r = await fetch(`${sdk.restBase}/channels/${channelId}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: `filler ${posted}` }),
    });
    await r.arrayBuffer();
    if (r.status === 200) posted++;
    if (r.status === 429 || r.headers.get("X-RateLimit-Remaining") === "0") return posted;
    if (r.status !== 200) throw new Error(`unexpected ${r.status} while filling the bucket`);
  }
}

/** A person types in a channel, through the people's API as their client would. */
export async function personTypes(m: MatrixServer, user: string, channelFlake: string): Promise<void> {
  const r = await fetch(`${m.sdk.baseUrl}/api/client/v1/channels/${m.uuid(channelFlake)}/typing`, {
    method: "POST",
    headers: { Authorization: `Session ${m.sdk.world.users[user].token}` },
  });
  if (r.status !== 204) throw new Error(`typing answered ${r.status}`);
}

/**
 * Install an application's bot into a server through the portal while the bot runs, as
 * the server's owner does from the bot's install link (spec 5.10), or (`installed`
 * false) take it out again, as the application's owner does.
 */
export async function setInstalled(m: MatrixServer, app: string, guild: string, installed: boolean, by = "alice"): Promise<void> {
  const appId = m.uuid(m.sdk.world.applications[app].id);
  const guildId = m.uuid(m.sdk.world.guilds[guild].id);
  const headers = { Authorization: `Session ${m.sdk.world.users[by].token}`, "Content-Type": "application/json" };
  const base = `${m.sdk.baseUrl}/api/client/v1/applications/${appId}`;
  const r = installed
    ? await fetch(`${base}/install`, { method: "POST", headers, body: JSON.stringify({ guild_id: guildId }) })
    : await fetch(`${base}/guilds/${guildId}`, { method: "DELETE", headers });
  if (r.status !== 204) throw new Error(`${installed ? "install" : "uninstall"} answered ${r.status}: ${await r.text()}`);
}

/** The welcome post a join handler makes, as the harness reads it back in the joined server. */
export const WELCOME = (guild: string) => `Hello ${guild}, thanks for having me.`;

/**
 * Make a bot's session unresumable the way the spec allows: close its socket with 4000
 * and let more than the session lifetime pass on the virtual clock before the library
 * is back, so its RESUME meets op 9 (d false). The clock then returns to real time.
 */
export function expireAfterClose(m: MatrixServer, sessionId: string): void {
  if (!m.p.gateway.disconnect(sessionId, 4000)) throw new Error("session not connected");
  m.p.clock.advance(SESSION_TTL_MS + 1000);
  m.p.clock.reset();
}

export function liveSessions(m: MatrixServer, app: string) {
  return m.p.gateway.sessionsOf(m.uuid(m.sdk.world.applications[app].id)).filter((s) => s.connected);
}

/** Poll a condition (real time, bounded), for the library side of things. */
export async function until<T>(
  what: string,
  fn: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 8000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(15);
  }
}

/**
 * The 429s an application met since `cursor`, read from Parley's transcript of it (as
 * each one's `global`): the library's own retries show as the 200s that follow.
 */
export async function limitedSince(m: MatrixServer, app: string, cursor: string): Promise<boolean[]> {
  const t = await m.sdk.transcript(app, { after: cursor });
  return t.entries.flatMap((e) =>
    e.kind === "rest" && e.status === 429 ? [(e.response as { global?: boolean } | null)?.global === true] : [],
  );
}

/** More sends than two global windows (5 each) hold, so a burst meets a 429 wherever the windows fall. */
export const BURST = Array.from({ length: 12 }, (_, i) => i + 1);

/** Run a slash command as alice and wait for the interaction's state to satisfy `ok`. */
export function interactionStates(s: MatrixServer) {
  return async (name: string, options: unknown[] | undefined, ok: (st: any) => boolean) => {
    const r = await s.sdk.as("alice").interact({ channel_id: "general", application_id: "FullBot", name, ...(options ? { options } : {}) });
    expect(r.delivered).toBe(true);
    return s.sdk.waitFor(async () => {
      const st = await s.sdk.harness("GET", `/interactions/${r.id}`);
      return ok(st) ? st : null;
    });
  };
}
