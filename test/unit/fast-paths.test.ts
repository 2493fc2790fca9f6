/**
 * Each fast path of the core, the store, the wire layer and the gateway has a switch
 * (src/config/fast-paths.ts), and off means the plain path: nothing kept, everything
 * read or built again. test/diff proves the answers are the same either way; these prove
 * that off really is off.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";
import { Memo } from "../../src/core/memo";
import { Snowflakes, type SnowflakeStore } from "../../src/wire/snowflakes";
import { GuildBots, GuildCreateCache } from "../../src/gateway/caches";
import type { GatewayContext } from "../../src/gateway/context";
import { ALL_FAST_PATHS, fastPathsOf } from "../../src/config/fast-paths";

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-fast-"));
  store = new Store({ path: join(dir, "t.db"), synchronous: "NORMAL" });
  store.db.exec("CREATE TABLE t (id TEXT PRIMARY KEY)");
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the switches", () => {
  test("every switch is on by default; fastPathsOf turns off only what it is told", () => {
    expect(Object.values(ALL_FAST_PATHS).every((v) => v === true)).toBe(true);
    const some = fastPathsOf({ memo: false });
    expect(some.memo).toBe(false);
    expect(Object.entries(some).filter(([, v]) => !v)).toEqual([["memo", false]]);
  });

  test("memo off: every get loads, and a put keeps nothing", () => {
    let loads = 0;
    const load = () => ++loads;
    const on = new Memo<number>(store, ["t"]);
    on.get("k", load);
    on.get("k", load);
    expect(loads).toBe(1);
    const off = new Memo<number>(store, ["t"], { enabled: false });
    off.put("k", 99);
    expect(off.get("k", load)).toBe(2);
    expect(off.get("k", load)).toBe(3);
  });

  test("walHeader off: another connection's commit is seen at the next look, not the next turn", async () => {
    const plain = new Store({ path: join(dir, "t.db"), synchronous: "NORMAL", walHeader: false });
    const other = new Database(join(dir, "t.db"));
    try {
      const fast = store.changes.watch(["t"]);
      const slow = plain.changes.watch(["t"]);
      await new Promise((r) => setImmediate(r));
      const [f0, s0] = [fast.stamp(), slow.stamp()];
      other.exec("INSERT INTO t VALUES ('x')");
      // The header is read once per turn: the fast path sees the commit only in the next one.
      expect(fast.stamp()).toBe(f0);
      expect(slow.stamp()).not.toBe(s0);
      await new Promise((r) => setImmediate(r));
      expect(fast.stamp()).not.toBe(f0);
    } finally {
      other.close();
      plain.close();
    }
  });

  test("snowflakeCache off: every id is looked up in the table", () => {
    const table = new Map<string, bigint>();
    let lookups = 0;
    const idmap: SnowflakeStore = {
      numberOf: (u) => (lookups++, table.get(u) ?? null),
      idOf: (n) => (lookups++, [...table].find(([, v]) => v === n)?.[0] ?? null),
      claim: (u, n) => (table.set(u, n), true),
      lookup: (u) => (lookups++, { number: table.get(u) ?? null, position: null }),
      messageAt: () => (lookups++, null),
    };
    const uuid = "01900000-0000-7000-8000-000000000001";
    const cached = new Snowflakes(idmap);
    const flake = cached.of(uuid);
    lookups = 0;
    expect([cached.of(uuid), cached.uuid(flake)]).toEqual([flake, uuid]);
    expect(lookups).toBe(0);
    const plain = new Snowflakes(idmap, null, false);
    expect([plain.of(uuid), plain.uuid(flake), plain.of(uuid)]).toEqual([flake, uuid, flake]);
    // The number could be a message's, derived from its position: that is looked at first.
    expect(lookups).toBe(4);
  });

  test("guildCreateCache and guildBots off: the body and the bot list are built for every ask", () => {
    let bodies = 0;
    let lists = 0;
    const ctx = (fastPaths: GatewayContext["fastPaths"]) =>
      ({
        fastPaths,
        flakes: { of: (id: string) => `f${id}`, ofNullable: (id: string | null) => (id ? `f${id}` : null) },
        core: {
          reads: {
            guilds: {
              guildCreateStamp: () => 1,
              guildCreate: () => {
                bodies++;
                return { guild: GUILD, row: GUILD, roles: [], emojis: [], memberCount: 0, channels: [], members: [], presences: [] };
              },
            },
          },
          guilds: {
            member: () => null,
            memberIds: () => {
              lists++;
              return ["bot"];
            },
          },
        },
      }) as unknown as GatewayContext;
    for (const [fastPaths, built] of [
      [{}, 1],
      [{ guildCreateCache: false, guildBots: false }, 2],
    ] as const) {
      bodies = lists = 0;
      const c = ctx(fastPaths);
      const cache = new GuildCreateCache(c);
      const bots = new GuildBots(c, () => true);
      expect(cache.payload("g", "bot", false, false)).toBe(cache.payload("g", "bot", false, false));
      expect(bots.of("g")).toEqual(bots.of("g"));
      expect([bodies, lists]).toEqual([built, built]);
    }
  });
});

const GUILD = {
  id: "g",
  name: "Lab",
  owner_id: "o",
  icon: null,
  description: null,
  preferred_locale: "en-US",
  system_channel_id: null,
  created_at: 0,
};
