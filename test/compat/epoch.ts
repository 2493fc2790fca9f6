/**
 * The snowflake epoch (spec 2.1, 9.4): Parley's ids count milliseconds from 2025-01-01,
 * the reference platform's from 2015-01-01, and every library reads an id's time with
 * the reference's. Unshimmed, each creation time a library derives from an id is ten
 * years early, and whatever compares it with the clock goes wrong with it (discord.py's
 * Interaction.is_expired(), detritus's interaction.deleted, discord.js's 14-day filter).
 *
 * EPOCH_SHIMS is each library's one-line fix. scripts/compat-matrix.ts prints it into
 * docs/compatibility.md, and each library's `epoch` cell runs that very text (runShim, or
 * the discord.py bot's exec), so the line a bot author copies is the line the matrix tested.
 */
import { expect } from "bun:test";
import type { Library } from "./matrix";

/** 2025-01-01T00:00:00Z (spec 2.1). */
export const SPEC_EPOCH = 1_735_689_600_000;
/** 2015-01-01T00:00:00Z, the reference platform's epoch, which the libraries assume. */
export const REFERENCE_EPOCH = 1_420_070_400_000;
/** How early an unshimmed library reads every id: 3653 days. */
export const TEN_YEARS = SPEC_EPOCH - REFERENCE_EPOCH;

export interface EpochShim {
  lang: "js" | "python";
  /** What the line needs, written as a bot imports it (shown, not run). */
  imports: string;
  /** The shim: shown in the docs and run by the library's `epoch` cell. */
  code: string;
  /** What reads the epoch through the shim, and what does not (shown in the docs). */
  covers: string;
}

export const EPOCH_SHIMS: Record<Library, EpochShim> = {
  "discord.js": {
    lang: "js",
    imports: `import { SnowflakeUtil } from "discord.js";`,
    code: `SnowflakeUtil.timestampFrom = (id) => Number(BigInt(id) >> 22n) + 1735689600000;`,
    covers:
      "`SnowflakeUtil` is the @sapphire/snowflake instance that every `createdTimestamp` and `createdAt` (messages, interactions, users, channels, roles) and `bulkDelete(messages, true)`'s 14-day filter read. Its `generate()` (nonces) keeps the 2015 epoch; nothing reads a time from those.",
  },
  "@discordjs/core": {
    lang: "js",
    imports: `import { DiscordSnowflake } from "@sapphire/snowflake"; // a dependency of @discordjs/core and @discordjs/rest`,
    code: `DiscordSnowflake.timestampFrom = (id) => Number(BigInt(id) >> 22n) + 1735689600000;`,
    covers:
      "@discordjs/core hands a bot the API's payloads and derives no time from an id itself; a bot reads one with `DiscordSnowflake.timestampFrom`, as the discord.js guide shows, and so does @discordjs/rest for its old-message delete bucket. Patch that instance once, or build your own with `new Snowflake(1735689600000n)`.",
  },
  "oceanic.js": {
    lang: "js",
    imports: `import { Base } from "oceanic.js";`,
    code: `Base.getCreatedAt = (id) => new Date(Base.getDiscordEpoch(id) + 1735689600000);`,
    covers:
      "Every structure's `createdAt` (messages, interactions, users, channels, roles) and the REST manager's old-message bucket read `Base.getCreatedAt`. `Base.generateID()` (an id for a date, for `before`/`after`) keeps the 2015 epoch: subtract 315619200000 ms from the date you give it.",
  },
  "discord.py": {
    lang: "python",
    imports: "import discord",
    code: "discord.utils.DISCORD_EPOCH = 1735689600000",
    covers:
      "`snowflake_time()` and `time_snowflake()` read it on every call: every `created_at`, `Interaction.is_expired()` (without it true on every interaction, so a hybrid command answers with a channel message and never acknowledges the interaction) and `history(before=/after=/around=)` with a datetime. `channel.purge()` has the 2015 epoch written into it (abc.py `_purge_helper`, read, not run): it takes every Parley message for older than 14 days and deletes them one by one instead of in bulk, slower but complete.",
  },
  eris: {
    lang: "js",
    imports: `import { Base } from "eris"; // CommonJS: const { Base } = require("eris");`,
    code: `Base.getCreatedAt = (id) => Base.getDiscordEpoch(id) + 1735689600000;`,
    covers:
      'Every `createdAt` (messages, interactions, users, members, roles, channels) and the REST manager\'s old-message bucket read `Base.getCreatedAt`. `deleteMessages()` (bulk delete, which `purgeChannel()` uses) has the 2015 epoch written into it and rejects every Parley message as "more than 2 weeks old", shim or not (checked by the `epoch` cell): delete messages one by one with `deleteMessage()`.',
  },
  discordeno: {
    lang: "js",
    imports: `import { baseMessage } from "discordeno";`,
    code: `Object.defineProperty(baseMessage, "timestamp", { get() { return this.id ? Number((this.id >> 22n) + 1735689600000n) : 0; } });`,
    covers:
      "discordeno derives a time from an id in one place, `message.timestamp`, a getter on `baseMessage` (which every message inherits) over `snowflakeToTimestamp`, an ES module export that cannot be replaced. Interactions and other objects carry no creation time. Anywhere else, compute `Number((BigInt(id) >> 22n) + 1735689600000n)` instead of calling `snowflakeToTimestamp`.",
  },
  seyfert: {
    lang: "js",
    imports: `// CommonJS \`require\`; in an ES module: const require = createRequire(import.meta.url) (node:module)`,
    code: `require("seyfert/lib/common/it/constants").DiscordEpoch = 1735689600000n;`,
    covers:
      "`snowflakeToTimestamp` reads `DiscordEpoch` on every call: every `createdTimestamp` and `createdAt` (messages, interactions, users, channels, roles) and the REST manager's old-message bucket. The name `seyfert` exports is a read-only re-export; assign the constants module's own.",
  },
  "detritus-client": {
    lang: "js",
    imports: `const { Constants } = require("detritus-utils"); // detritus-client's own dependency`,
    code: `Constants.DISCORD_SNOWFLAKE_EPOCH = 1735689600000;`,
    covers:
      "detritus-utils's `Snowflake.timestamp`, `deconstruct` and `generate` read it on every call: every `createdAt` and `createdAtUnix`, and `interaction.deleted`, which without it is true on every fresh interaction (and reading it drops the interaction from the client's cache).",
  },
};

/**
 * Run a JavaScript library's shim, exactly as documented, with the names it uses bound
 * to `names`; answers an undo that puts back each property in `touched`, so the shim
 * stays inside its cell. Strict mode: a shim that assigns to a read-only property throws
 * here instead of quietly doing nothing.
 */
export function runShim(lib: Library, names: Record<string, unknown>, touched: [object, PropertyKey][]): () => void {
  const shim = EPOCH_SHIMS[lib];
  if (shim.lang !== "js") throw new Error(`${lib}'s shim is not JavaScript`);
  const saved = touched.map(([o, k]) => [o, k, Object.getOwnPropertyDescriptor(o, k)] as const);
  new Function(...Object.keys(names), `"use strict";\n${shim.code}`)(...Object.values(names));
  return () => {
    for (const [o, k, d] of saved) {
      if (d) Object.defineProperty(o, k, d);
      else delete (o as Record<PropertyKey, unknown>)[k];
    }
  };
}

/** An id's time as the spec reads it (2.1): (id >> 22) + 2025-01-01, in ms. */
export function specTime(id: string | bigint): number {
  return Number(BigInt(id) >> 22n) + SPEC_EPOCH;
}

/**
 * A library's reading of an id's creation time: with its shim, the spec's reading;
 * without, the same moment ten years early.
 */
export function expectLibraryTime(libMs: number, id: string | bigint, shimmed: boolean): void {
  expect(libMs).toBe(specTime(id) - (shimmed ? 0 : TEN_YEARS));
}

/**
 * That an id's time is the server's own record of the moment: a message's `timestamp`
 * (`serverMs`), or for an interaction the server clock's readings just before and after
 * the person's click. The server reads a message's `timestamp` from its clock a little
 * before it mints the id, so the two may differ by that little (a millisecond or two, more
 * on a loaded machine): 50 ms is allowed, against the ten years the test is about.
 */
export function expectServerTime(id: string | bigint, at: number | { from: number; to: number }): void {
  const t = specTime(id);
  if (typeof at === "number") {
    expect(Math.abs(t - at)).toBeLessThanOrEqual(50);
  } else {
    expect(t).toBeGreaterThanOrEqual(at.from);
    expect(t).toBeLessThanOrEqual(at.to);
  }
}

/** A message's `timestamp` as the server shows it to `as` (harness), in ms. */
export async function serverTimestamp(
  sdk: { messages(channel: string, opts?: { as?: string; limit?: number }): Promise<Array<{ id: string; [k: string]: unknown }>> },
  channel: string,
  id: string,
): Promise<number> {
  const m = (await sdk.messages(channel, { as: "alice", limit: 20 })).find((x) => x.id === id);
  if (!m) throw new Error(`message ${id} is not in ${channel}`);
  return Date.parse(m.timestamp as string);
}
