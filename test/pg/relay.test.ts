/**
 * Two stores on one Postgres database, as two nodes have (store/pg/relay.ts): what one
 * commits reaches the other's change log and bus through one notification per write, in
 * commit order; a message over one notification's size arrives whole; a write rolled
 * back tells nobody; each commit's events carry its number on both stores; and a store
 * that is not listening trusts none of its memos.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Store } from "../../src/store/db";
import type { PgDatabase } from "../../src/store/pg/bridge";
import type { PgRelay } from "../../src/store/pg/relay";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
let database = "";
let a: Store;
let b: Store;
let heardByB: unknown[];

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
}, ENGINE_MS);
afterAll(async () => {
  await pg?.close();
}, ENGINE_MS);

const open = () => new Store({ path: ":memory:", synchronous: "NORMAL", postgres: pg.socketOptions(database) });
const relayOf = (s: Store) => s.relay as PgRelay;

async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

beforeEach(async () => {
  a = open();
  b = open();
  (a.db as unknown as PgDatabase).execNative("DROP TABLE IF EXISTS t; CREATE TABLE t (k text PRIMARY KEY);");
  heardByB = [];
  b.onCommit((events) => heardByB.push(...events));
  b.relay.listen();
  await until("B to listen", () => relayOf(b).hearing);
});
afterEach(() => {
  a.close();
  b.close();
});

const put = (s: Store, k: string, events: unknown[]) =>
  s.write(() => {
    s.db.query("INSERT INTO t (k) VALUES (?)").run(k);
    for (const e of events) s.emit(e);
  });

describe("one notification per write between processes on one database", () => {
  test("a commit on A moves B's stamps for its tables (and not others), then B publishes its events, in order", async () => {
    const t = b.changes.watch(["t"]);
    const other = b.changes.watch(["elsewhere"]);
    const [before, otherBefore] = [t.stamp(), other.stamp()];
    put(a, "one", [{ type: "first" }]);
    put(a, "two", [{ type: "second" }]);
    await until("B to hear both", () => heardByB.length === 2);
    expect(heardByB).toEqual([{ type: "first" }, { type: "second" }]);
    expect(t.stamp()).not.toBe(before);
    expect(other.stamp()).toBe(otherBefore);
    // A hears nothing of its own.
    expect(relayOf(a).receive()).toEqual([]);
  });

  test("a message larger than one notification arrives whole", async () => {
    const big = Array.from({ length: 40 }, (_, i) => ({ type: "message.created", i, text: "é".repeat(400) }));
    put(a, "big", big);
    await until("B to hear the big write", () => heardByB.length === big.length);
    expect(heardByB).toEqual(big);
  });

  test("a write rolled back inside a group commit tells nobody; the batch's others do, after its commit", async () => {
    const done = [
      a.batched(async () => put(a, "kept", [{ type: "kept" }])),
      a.batched(async () =>
        a.write(() => {
          a.db.query("INSERT INTO t (k) VALUES (?)").run("gone");
          a.emit({ type: "gone" });
          throw new Error("changed my mind");
        }),
      ),
    ];
    const [kept, gone] = await Promise.allSettled(done);
    expect(kept.status).toBe("fulfilled");
    expect(gone.status === "rejected" && String(gone.reason)).toContain("changed my mind");
    put(a, "after", [{ type: "after" }]);
    await until("B to hear the write after", () => heardByB.length === 2);
    expect(heardByB).toEqual([{ type: "kept" }, { type: "after" }]);
  });

  test("each commit's events carry its number, the same on the store that made it and the one that heard it", async () => {
    const madeByA: [unknown[], number][] = [];
    const numbered: [unknown[], number][] = [];
    a.onCommit((events, at) => madeByA.push([events, at]));
    b.onCommit((events, at) => numbered.push([events, at]));
    put(a, "first", [{ type: "first" }]);
    // A group commit: two writes, one transaction, one number for both writes' events.
    await Promise.all([a.batched(async () => put(a, "x", [{ type: "x" }])), a.batched(async () => put(a, "y", [{ type: "y" }]))]);
    put(b, "own", [{ type: "own" }]);
    await until("B to hear A's two commits", () => numbered.length === 4);
    const [first, x, y] = madeByA.map(([, at]) => at);
    expect(first).toBeGreaterThan(0);
    expect(x).toBeGreaterThan(first);
    expect(y).toBe(x);
    const own = numbered.find(([events]) => (events[0] as { type: string }).type === "own")![1];
    expect(own).toBeGreaterThan(x);
    // B heard A's with the numbers A's commits took, in order, whenever its own came.
    expect(numbered.filter(([events]) => (events[0] as { type: string }).type !== "own")).toEqual([
      [[{ type: "first" }], first],
      [[{ type: "x" }], x],
      [[{ type: "y" }], x],
    ]);
    // Everything up to its own commit has been published on B; it began hearing before any of them.
    expect(b.relay.order!.through()).toBeGreaterThanOrEqual(own);
    expect(b.relay.order!.since()).toBeLessThan(first);
  });

  test("a read on B in the same turn as A's commit, before B could hear of it, trusts nothing B kept", async () => {
    const t = b.changes.watch(["t"]);
    const other = b.changes.watch(["elsewhere"]);
    put(a, "warm", [{ type: "warm" }]);
    await until("B to hear it", () => heardByB.length === 1);
    let kept = t.stamp();
    await until("B's stamps to hold still", async () => {
      await Bun.sleep(1);
      const same = t.stamp() === kept;
      kept = t.stamp();
      return same;
    });
    const keptOther = other.stamp();
    await Bun.sleep(1);
    // Nothing committed: a new turn keeps every stamp.
    expect([t.stamp(), other.stamp()]).toEqual([kept, keptOther]);
    await Bun.sleep(1);
    // A commits, and B looks before its event loop could take A's notification: the newest
    // commit's number is one B has not heard of, so this turn's stamps all move.
    put(a, "unheard", []);
    const now = t.stamp();
    expect(now).not.toBe(kept);
    expect(other.stamp()).not.toBe(keptOther);
    // Within the turn the stamps hold still (one comparison per turn).
    expect(t.stamp()).toBe(now);
  });

  test("a store's own commits are numbers it need not hear: its memos stay on between its writes", async () => {
    const t = b.changes.watch(["t"]);
    const other = b.changes.watch(["elsewhere"]);
    put(b, "own", []);
    await Bun.sleep(1);
    const [kept, keptOther] = [t.stamp(), other.stamp()];
    await Bun.sleep(1);
    expect([t.stamp(), other.stamp()]).toEqual([kept, keptOther]);
    put(b, "own again", []);
    await Bun.sleep(1);
    // Its own write moved its own table's stamp, and no other.
    expect(t.stamp()).not.toBe(kept);
    expect(other.stamp()).toBe(keptOther);
  });

  test("a store that is not listening keeps no memo (every look is a change), and its health says so", () => {
    const deaf = open();
    try {
      // Listening is confirmed asynchronously: until then, nothing is heard.
      deaf.relay.listen();
      expect(relayOf(deaf).hearing).toBe(false);
      const w = deaf.changes.watch(["t"]);
      expect(w.stamp()).not.toBe(w.stamp());
      expect(deaf.health().notices).toEqual([expect.stringContaining("not listening")]);
    } finally {
      deaf.close();
    }
  });

  test("Postgres restarted: the listener hears again by itself and reports the gap once; writes after it arrive", async () => {
    let gaps = 0;
    relayOf(b).gap = () => gaps++;
    await pg.restart("fast");
    // The store's own connection comes back at its next statement; the listener by itself.
    await until("B to hear again after the restart", () => relayOf(b).hearing && gaps > 0);
    expect(gaps).toBe(1);
    a.db.query("SELECT 1").get();
    put(a, "after restart", [{ type: "after restart" }]);
    await until("B to hear a write after the restart", () => heardByB.length === 1);
    expect(heardByB).toEqual([{ type: "after restart" }]);
  }, 30_000);
});
