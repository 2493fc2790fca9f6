/**
 * The synchronous Postgres bridge (src/store/pg/bridge.ts) against a real Postgres:
 * answers shaped as bun:sqlite's, statements deferred until one must wait, each error
 * thrown in the write that caused it, and every kind of trouble (a slow statement, a
 * stalled server, a restart, a server gone) ending in a StoreError rather than a hang.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { PgDatabase } from "../../src/store/pg/bridge";
import { StoreError } from "../../src/store/pg/errors";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
const open: PgDatabase[] = [];
beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  for (const db of open) db.close();
  await pg?.close();
}, ENGINE_MS);

async function bridge(opts: { timeoutMs?: number } = {}): Promise<PgDatabase> {
  const db = new PgDatabase({ ...pg.socketOptions(await pg.createDatabase()), ...opts });
  open.push(db);
  return db;
}

const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof StoreError || e instanceof Error ? String((e as { code?: string }).code ?? e.constructor.name) : String(e);
  }
  return "no error";
};

const TABLE = `CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, label TEXT, flag INTEGER NOT NULL DEFAULT 0)`;
const TABLE_PG = `CREATE TABLE t (id text COLLATE "C" PRIMARY KEY, n bigint, label text COLLATE "C", flag bigint NOT NULL DEFAULT 0)`;

describe("answers as bun:sqlite gives them", () => {
  test("get, all, values and run on the same statements and rows give the same answers", async () => {
    const db = await bridge();
    const lite = new Database(":memory:", { strict: true });
    lite.exec(TABLE);
    db.execNative(TABLE_PG);
    const rows: [string, number | null, string | null, number][] = [
      ["a-1", 1, "één", 1],
      ["a_2", -7, null, 0],
      ["b", 2 ** 40, "x'y", 1],
      ["A", null, "", 0],
    ];
    for (const db_ of [lite, db]) for (const r of rows) db_.query("INSERT INTO t (id, n, label, flag) VALUES (?, ?, ?, ?)").run(...r);
    const statements: [string, unknown[]][] = [
      ["SELECT * FROM t ORDER BY id", []],
      ["SELECT id, n = 1 AS one, flag = 1 AS on_, n IS NULL AS none FROM t ORDER BY id", []],
      ["SELECT count(*) AS n, max(n) AS top, min(label) AS low FROM t", []],
      ["SELECT * FROM t WHERE id = ?", ["zzz"]],
      ["SELECT id, id AS id FROM t WHERE id < ? ORDER BY id DESC", ["\uffff"]],
      ["SELECT 1 AS x, 'y' AS x", []],
      ["SELECT id FROM t WHERE label IS ? ORDER BY id", [null]],
    ];
    for (const [sql, args] of statements) {
      expect({ sql, all: db.query(sql).all(...(args as never[])) }).toEqual({ sql, all: lite.query(sql).all(...(args as never[])) });
      expect({ sql, get: db.query(sql).get(...(args as never[])) }).toEqual({ sql, get: lite.query(sql).get(...(args as never[])) });
      expect({ sql, values: db.query(sql).values(...(args as never[])) }).toEqual({
        sql,
        values: lite.query(sql).values(...(args as never[])),
      });
    }
    const upd = "UPDATE t SET flag = 1 - flag WHERE n < ?";
    expect(db.query(upd).run(100).changes).toBe(lite.query(upd).run(100).changes);
    expect(db.query("SELECT id, flag FROM t ORDER BY id").all()).toEqual(lite.query("SELECT id, flag FROM t ORDER BY id").all());
    lite.close();
  });

  test("64-bit integers: numbers while exact, exact text past 2^53, BigInt with safeIntegers", async () => {
    const db = await bridge();
    db.execNative("CREATE TABLE snowflakes (uuid text PRIMARY KEY, flake bigint NOT NULL UNIQUE)");
    const big = 1234567890123456789n;
    db.query("INSERT INTO snowflakes (uuid, flake) VALUES (?, ?)").run("u1", big);
    db.query("INSERT INTO snowflakes (uuid, flake) VALUES (?, ?)").run("u2", 42);
    const row = db.query("SELECT flake FROM snowflakes WHERE uuid = ?").get("u1") as { flake: unknown };
    // bun:sqlite would round this to a double; the exact digits keep BigInt(row.flake) right.
    expect(BigInt(row.flake as string)).toBe(big);
    expect(db.query("SELECT flake FROM snowflakes WHERE uuid = ?").get("u2")).toEqual({ flake: 42 });
    expect(db.query("SELECT uuid FROM snowflakes WHERE flake = ?").get(big)).toEqual({ uuid: "u1" });
    const safe = db.prepare("SELECT flake, length(uuid) AS len FROM snowflakes ORDER BY uuid").safeIntegers();
    expect(safe.all()).toEqual([
      { flake: big, len: 2n },
      { flake: 42n, len: 2n },
    ]);
  });

  test("named parameters bind from an object, with or without their prefix; bad calls are refused as bun:sqlite refuses them", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    db.query("INSERT INTO t (id, n, label) VALUES ($id, $n, :label)").run({ id: "x", $n: 5, label: "l" });
    expect(db.query("SELECT n, label FROM t WHERE id = $id").get({ $id: "x" })).toEqual({ n: 5, label: "l" });
    expect(() => db.query("SELECT * FROM t WHERE id = $id").get({ other: 1 } as never)).toThrow(RangeError);
    expect(() => db.query("SELECT * FROM t WHERE id = ? AND n = ?").get("x")).toThrow(RangeError);
    expect(() => db.query("SELECT * FROM t WHERE id = ?").get(new Date() as never)).toThrow(TypeError);
    // true binds as 1, as in bun:sqlite.
    db.query("UPDATE t SET flag = ? WHERE id = ?").run(true, "x");
    expect(db.query("SELECT flag FROM t").get()).toEqual({ flag: 1 });
  });

  test("a page of thousands of rows crosses (the shared buffer grows)", async () => {
    const db = await bridge();
    const rows = db.native("SELECT g AS n, repeat('x', 1000) AS pad FROM generate_series(1, 5000) g").all() as { n: number; pad: string }[];
    expect(rows.length).toBe(5000);
    expect(rows[4999]).toEqual({ n: 5000, pad: "x".repeat(1000) });
  });
});

describe("deferral", () => {
  test("inside a transaction, statements nobody reads wait for the next that must: one crossing for a write", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    const ins = db.query("INSERT INTO t (id, n) VALUES (?, ?)");
    const before = db.crossings;
    db.transaction(() => {
      for (let i = 0; i < 5; i++) ins.run(`k${i}`, i);
    })();
    expect(db.crossings - before).toBe(1);
    // Outside a transaction each statement commits on its own, so each is waited for.
    const outside = db.crossings;
    ins.run("o1", 1);
    ins.run("o2", 2);
    expect(db.crossings - outside).toBe(2);
    expect((db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n).toBe(7);
  });

  test("a read inside the transaction sees the queued rows; reading `changes` waits for its statement", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    db.transaction(() => {
      db.query("INSERT INTO t (id, n) VALUES (?, ?)").run("a", 1);
      const r = db.query("UPDATE t SET n = n + 1 WHERE id = ?").run("a");
      const sent = db.crossings;
      expect(r.changes).toBe(1);
      expect(db.crossings).toBe(sent + 1);
      expect(db.query("SELECT n FROM t WHERE id = ?").get("a")).toEqual({ n: 2 });
    })();
  });

  test("an error is thrown in the write that made it: the nested write rolls back, the outer one commits", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    const ins = db.query("INSERT INTO t (id, n) VALUES (?, ?)");
    let inner = "";
    db.transaction(() => {
      ins.run("kept", 1);
      try {
        db.transaction(() => {
          ins.run("gone", 2);
          ins.run("kept", 3); // a duplicate: Postgres refuses it, in this write
        })();
      } catch (e) {
        inner = (e as StoreError).code;
      }
      ins.run("after", 4);
    })();
    expect(inner).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    expect(db.query("SELECT id, n FROM t ORDER BY id").all()).toEqual([
      { id: "after", n: 4 },
      { id: "kept", n: 1 },
    ]);
  });

  test("a failure queued before a nested write began is the outer write's: the nested one sends no rollback of its own", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    db.query("INSERT INTO t (id, n) VALUES (?, ?)").run("dup", 0);
    let inner = "";
    let outer = "";
    try {
      db.transaction(() => {
        db.query("INSERT INTO t (id, n) VALUES (?, ?)").run("dup", 1); // queued; fails when sent
        try {
          db.transaction(() => db.query("SELECT count(*) AS n FROM t").get())();
        } catch (e) {
          inner = (e as StoreError).code;
        }
      })();
    } catch (e) {
      outer = (e as Error).message;
    }
    expect(inner).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    // The outer write's COMMIT finds its transaction failed, rather than a rollback to a
    // savepoint that never existed.
    expect(outer).toMatch(/rolled back/);
    expect(db.inTransaction).toBe(false);
    db.transaction(() => db.query("INSERT INTO t (id, n) VALUES (?, ?)").run("next", 2))();
    expect(db.query("SELECT id, n FROM t ORDER BY id").all()).toEqual([
      { id: "dup", n: 0 },
      { id: "next", n: 2 },
    ]);
  });

  test("a write that throws before anything was sent costs no crossing and leaves nothing", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    const before = db.crossings;
    expect(() =>
      db.transaction(() => {
        db.query("INSERT INTO t (id) VALUES (?)").run("never");
        throw new Error("refused by a rule");
      })(),
    ).toThrow("refused by a rule");
    expect(db.crossings).toBe(before);
    expect(db.inTransaction).toBe(false);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  });

  test("a COMMIT that Postgres turned into a ROLLBACK is an error, not a silent loss", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    db.exec("BEGIN");
    db.query("INSERT INTO t (id) VALUES (?)").run("one");
    expect(codeOf(() => db.query("INSERT INTO t (id) VALUES (?)").run("one").changes)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    expect(codeOf(() => db.exec("COMMIT"))).toBe("PARLEY_STORE_ERROR");
    expect(db.inTransaction).toBe(false);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  });
});

describe("trouble ends in an error, never a hang", () => {
  test("a statement over the timeout is cancelled by Postgres; the next one runs", async () => {
    const db = await bridge({ timeoutMs: 300 });
    expect(codeOf(() => db.native("SELECT pg_sleep(5)").get())).toBe("PARLEY_STORE_TIMEOUT");
    expect(db.query("SELECT 1 AS one").get()).toEqual({ one: 1 });
    expect(db.restarts).toBe(0);
  });

  test("a server that stops answering (its backend stalled): the bridge gives up, starts afresh, and the transaction is reported lost", async () => {
    const db = await bridge({ timeoutMs: 300 });
    db.execNative(TABLE_PG);
    const { pid } = db.native("SELECT pg_backend_pid() AS pid").get() as { pid: number };
    db.exec("BEGIN");
    db.query("INSERT INTO t (id) VALUES (?)").run("lost");
    process.kill(pid, "SIGSTOP");
    try {
      expect(codeOf(() => db.query("SELECT count(*) AS n FROM t").get())).toBe("PARLEY_STORE_TRANSACTION_LOST");
      expect(db.restarts).toBe(1);
      // Nothing of the lost transaction can go on; rolling it back is what is left to do.
      expect(codeOf(() => db.query("INSERT INTO t (id) VALUES (?)").run("more"))).toBe("PARLEY_STORE_TRANSACTION_LOST");
      db.exec("ROLLBACK");
      expect(db.inTransaction).toBe(false);
      expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });

  test("a Postgres restart between statements is not seen; one inside a transaction loses it, and says so", async () => {
    const db = await bridge();
    db.execNative(TABLE_PG);
    db.query("INSERT INTO t (id) VALUES (?)").run("before");
    await pg.restart("fast");
    expect(db.query("SELECT id FROM t").all()).toEqual([{ id: "before" }]);
    const ins = db.query("INSERT INTO t (id) VALUES (?)");
    db.exec("BEGIN");
    ins.run("inside");
    db.flush();
    await pg.restart("fast");
    expect(codeOf(() => db.exec("COMMIT"))).toBe("PARLEY_STORE_TRANSACTION_LOST");
    expect(db.inTransaction).toBe(false);
    expect(db.query("SELECT id FROM t").all()).toEqual([{ id: "before" }]);
    // transaction() rolls back what a lost connection took with it, and the next write works.
    db.exec("BEGIN");
    ins.run("inside again");
    db.flush();
    await pg.restart("fast");
    expect(codeOf(() => db.transaction(() => ins.run("nested").changes)())).toBe("PARLEY_STORE_TRANSACTION_LOST");
    db.exec("ROLLBACK");
    db.transaction(() => ins.run("after"))();
    expect(db.query("SELECT id FROM t ORDER BY id").all()).toEqual([{ id: "after" }, { id: "before" }]);
  }, 60_000);

  test("a server that is down fails each statement at once, and is used again once it is back", async () => {
    const db = await bridge();
    await pg.stop("fast");
    try {
      expect(codeOf(() => db.query("SELECT 1 AS one").get())).toBe("PARLEY_STORE_UNAVAILABLE");
      expect(codeOf(() => db.query("SELECT 1 AS one").get())).toBe("PARLEY_STORE_UNAVAILABLE");
    } finally {
      await pg.start();
    }
    expect(db.query("SELECT 1 AS one").get()).toEqual({ one: 1 });
  }, 60_000);

  test("a server out of connections is unavailable (a 503 for the request), not a bug", async () => {
    const name = await pg.createDatabase();
    const admin = new Bun.SQL({ ...pg.socketOptions(), max: 1 });
    try {
      // A role of its own: the superuser is exempt from connection limits.
      await admin.unsafe(`CREATE ROLE limited LOGIN CONNECTION LIMIT 1`);
    } finally {
      await admin.close();
    }
    const as = { ...pg.socketOptions(name), username: "limited" };
    open.push(new PgDatabase(as));
    expect(codeOf(() => new PgDatabase(as))).toBe("PARLEY_STORE_UNAVAILABLE");
  });

  test("opening a bridge to nowhere is refused", () => {
    expect(codeOf(() => new PgDatabase({ path: `${pg.dataDir}/no-such-socket`, username: "postgres", connectTimeoutMs: 1000 }))).toBe(
      "PARLEY_STORE_UNAVAILABLE",
    );
  });
});
