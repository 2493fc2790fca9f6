/**
 * The store on Postgres (store/pg/engine.ts): group commit keeps its contract (each
 * write in its own savepoint, events after the commit and in order, a failed commit
 * fails every request of its batch); the change log the memos read is fed by the node's
 * own statements, foreign-key cascades included; and the store's failures reach the
 * surfaces as the spec's answers (a value Postgres cannot hold 400, an outage 503).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Store } from "../../src/store/db";
import type { PgDatabase } from "../../src/store/pg/bridge";
import { PgChanges, targetsOf, type ForeignKey } from "../../src/store/pg/changes";
import { errorToStatusBody } from "../../src/wire/errors";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
let database = "";
let store: Store;
let published: unknown[];

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
}, ENGINE_MS);
afterAll(async () => {
  await pg?.close();
}, ENGINE_MS);

const native = () => store.db as unknown as PgDatabase;

beforeEach(() => {
  store = new Store({ path: ":memory:", synchronous: "NORMAL", postgres: pg.socketOptions(database) });
  store.wipe();
  native().execNative(`
    DROP TABLE IF EXISTS t, child, parent;
    CREATE TABLE t (k text PRIMARY KEY);
    CREATE TABLE parent (id text PRIMARY KEY);
    CREATE TABLE child (id text PRIMARY KEY, parent_id text REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);`);
  published = [];
  store.onCommit((events) => published.push(...events));
});
afterEach(() => store.close());

const insert = (k: string) => store.db.query("INSERT INTO t (k) VALUES (?)").run(k);
const rows = () => (store.db.query("SELECT k FROM t ORDER BY k").all() as { k: string }[]).map((r) => r.k);
const put = (k: string) =>
  store.write(() => {
    insert(k);
    store.emit(k);
    return k;
  });

describe("group commit on Postgres", () => {
  test("the engine is Postgres, migrated", () => {
    expect(store.engine.kind).toBe("postgres");
    expect(store.health()).toMatchObject({ engine: "postgres", writable: true });
    expect(store.health().applied).toBe(store.health().known);
  });

  test("a failing write rolls back to its own savepoint; the batch's other writes commit", async () => {
    const a = store.batched(async () => put("a"));
    const b = store.batched(async () =>
      store.write(() => {
        insert("b");
        store.emit("b");
        insert("a"); // duplicate key: this write fails after its first insert
      }),
    );
    const c = store.batched(async () => put("c"));
    const settled = await Promise.allSettled([a, b, c]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((settled[1] as PromiseRejectedResult).reason as { code: string }).code).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    expect(rows()).toEqual(["a", "c"]);
    expect(published).toEqual(["a", "c"]);
  });

  test("batched writes share one transaction, committed once, events after it in write order", async () => {
    const crossings = native().crossings;
    const all = await Promise.all(["x", "y", "z"].map((k) => store.batched(async () => put(k))));
    expect(all).toEqual(["x", "y", "z"]);
    expect(published).toEqual(["x", "y", "z"]);
    // One crossing per write (its statements, sent with its RELEASE) and one for the COMMIT.
    expect(native().crossings - crossings).toBe(4);
    const other = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
    try {
      expect((await other`SELECT k FROM t ORDER BY k`).map((r: { k: string }) => r.k)).toEqual(["x", "y", "z"]);
    } finally {
      await other.close();
    }
  });

  test("a write whose statements a read already sent ends without a crossing of its own: its RELEASE goes with the COMMIT", async () => {
    const crossings = native().crossings;
    const seen = await store.batched(async () =>
      store.write(() => {
        insert("r");
        return rows();
      }),
    );
    expect(seen).toEqual(["r"]);
    expect(native().crossings - crossings).toBe(2);
    expect(rows()).toEqual(["r"]);
  });

  test("a failed commit fails every request of the batch; nothing is published", async () => {
    const good = store.batched(async () => put("g"));
    const orphan = store.batched(async () =>
      store.write(() => {
        store.db.query("INSERT INTO child (id, parent_id) VALUES ('c1', 'nobody')").run();
        store.emit("orphan");
      }),
    );
    const settled = await Promise.allSettled([good, orphan]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(published).toEqual([]);
    expect(rows()).toEqual([]);
    expect(store.db.inTransaction).toBe(false);
    // And the next write starts clean.
    expect(await store.batched(async () => put("after"))).toBe("after");
    expect(rows()).toEqual(["after"]);
  });
});

describe("the change log on one Postgres node", () => {
  test("a write bumps its table's readers, a read bumps none, a rollback bumps everyone", () => {
    const t = store.changes.watch(["t"]);
    const tExisting = store.changes.watch(["t!"]);
    const parent = store.changes.watch(["parent"]);
    const [s0, e0, p0] = [t.stamp(), tExisting.stamp(), parent.stamp()];
    rows();
    expect([t.stamp(), tExisting.stamp(), parent.stamp()]).toEqual([s0, e0, p0]);
    put("k1");
    // An insert changes the table, not its existing rows.
    expect(t.stamp()).not.toBe(s0);
    expect(tExisting.stamp()).toBe(e0);
    expect(parent.stamp()).toBe(p0);
    const s1 = t.stamp();
    store.write(() => store.db.query("UPDATE t SET k = 'k2' WHERE k = 'k1'").run());
    expect(t.stamp()).not.toBe(s1);
    expect(tExisting.stamp()).not.toBe(e0);
    const p1 = parent.stamp();
    expect(() => store.write(() => (insert("k3"), insert("k3")))).toThrow();
    expect(parent.stamp()).not.toBe(p1);
    expect(rows()).toEqual(["k2"]);
  });

  test("a delete reaches the tables its foreign keys cascade to: a guild's channels, a message's reactions", () => {
    const channels = store.changes.watch(["channels!"]);
    const reactions = store.changes.watch(["reactions!"]);
    const users = store.changes.watch(["users"]);
    const [c0, r0, u0] = [channels.stamp(), reactions.stamp(), users.stamp()];
    store.write(() => store.db.query("DELETE FROM guilds WHERE id = ?").run("none"));
    expect(channels.stamp()).not.toBe(c0);
    expect(users.stamp()).toBe(u0);
    store.write(() => store.db.query("DELETE FROM messages WHERE id = ?").run("none"));
    expect(reactions.stamp()).not.toBe(r0);
  });

  test("what a statement changes, read from its text and the cascades", () => {
    const keys: ForeignKey[] = [
      { child: "b", parent: "a", onDelete: "c", onUpdate: "a" },
      { child: "c", parent: "b", onDelete: "n", onUpdate: "a" },
    ];
    expect(targetsOf("SELECT * FROM a WHERE x = 'DELETE FROM b'", keys)).toBeNull();
    expect(targetsOf("INSERT INTO a (x) VALUES (?)", keys)).toEqual([{ table: "a", existing: false }]);
    expect(targetsOf("INSERT OR IGNORE INTO a (x) VALUES (?)", keys)).toEqual([{ table: "a", existing: false }]);
    expect(targetsOf("INSERT INTO a (x) VALUES (?) ON CONFLICT (x) DO UPDATE SET y = excluded.y", keys)).toEqual([
      { table: "a", existing: true },
    ]);
    expect(targetsOf("UPDATE a SET x = 1", keys)).toEqual([{ table: "a", existing: true }]);
    expect(targetsOf("DELETE FROM a WHERE x = ?", keys)).toEqual([
      { table: "a", existing: true },
      { table: "b", existing: true },
      { table: "c", existing: true },
    ]);
    expect(targetsOf("PRAGMA defer_foreign_keys = ON", keys)).toBeNull();
    expect(targetsOf("TRUNCATE a", keys)).toBe("everything");
    const log = new PgChanges(keys);
    const c = log.watch(["c!"]);
    const before = c.stamp();
    log.statement("DELETE FROM a");
    expect(c.stamp()).not.toBe(before);
  });
});

describe("the store's failures as the surfaces answer them", () => {
  test("a value Postgres cannot hold is a 400 with the spec's body, not a 500", () => {
    let error: unknown = null;
    try {
      store.write(() => insert("a\u0000b"));
    } catch (e) {
      error = e;
    }
    expect((error as { code: string }).code).toBe("PARLEY_STORE_INVALID");
    expect(errorToStatusBody(error)).toEqual({ status: 400, body: { code: 50035, message: "Invalid Form Body" } });
    expect(rows()).toEqual([]);
  });

  test("Postgres stopped: the store's error is a 503 with Retry-After, and health says so; started: it writes again", async () => {
    await pg.stop("fast");
    try {
      let error: unknown = null;
      try {
        put("while away");
      } catch (e) {
        error = e;
      }
      expect(String((error as { code: string }).code)).toMatch(/^PARLEY_STORE_(UNAVAILABLE|TRANSACTION_LOST)$/);
      expect(errorToStatusBody(error)).toEqual({
        status: 503,
        body: { code: 0, message: "503: Service Unavailable" },
        headers: { "Retry-After": "1" },
      });
      expect(store.health()).toMatchObject({ engine: "postgres", writable: false });
    } finally {
      await pg.start();
    }
    expect(put("back")).toBe("back");
    expect(rows()).toEqual(["back"]);
    expect(store.health().writable).toBe(true);
  }, 30_000);
});
