// Group commit (Store.batched): savepoints per write, one commit per turn, events after
// the commit and in order, immediate writers commit an open batch first, and a failed
// commit fails every request that shared (or read) the batch.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";
import { call, makeUnlimitedParley, recordEvents, seedBasic } from "../helpers";

let dir: string;
let store: Store;
/** A second connection: sees only what is committed. */
let other: Database;
let published: unknown[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-batch-"));
  store = new Store({ path: join(dir, "t.db"), synchronous: "NORMAL" });
  // Test-only tables; `child` has a DEFERRED foreign key, checked only at COMMIT: the one
  // real way to make a commit fail after every statement of the batch succeeded.
  store.db.exec("CREATE TABLE t (k TEXT PRIMARY KEY)");
  store.db.exec("CREATE TABLE parent (id TEXT PRIMARY KEY)");
  store.db.exec("CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)");
  other = new Database(join(dir, "t.db"), { readonly: true });
  published = [];
  store.onCommit((events) => {
    // Publishing happens only once the rows are visible to another connection.
    for (const e of events) published.push({ e, committedRows: committed() });
  });
});

afterEach(() => {
  other.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const committed = () => (other.query("SELECT k FROM t ORDER BY k").all() as { k: string }[]).map((r) => r.k);
const ours = () => (store.db.query("SELECT k FROM t ORDER BY k").all() as { k: string }[]).map((r) => r.k);
const insert = (k: string) => store.db.query("INSERT INTO t (k) VALUES (?)").run(k);
const put = (k: string) =>
  store.write(() => {
    insert(k);
    store.emit(k);
    return k;
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
  expect(committed()).toEqual(["a", "c"]);
  expect(published.map((p: any) => p.e)).toEqual(["a", "c"]);
});

test("a failing write larger than a journal chunk rolls back whole; savepoint journals are kept in memory", async () => {
  expect(store.db.query("PRAGMA temp_store").get()).toEqual({ temp_store: 2 });
  const a = store.batched(async () => put("a"));
  // About 2 MiB of rows in one savepoint: its journal spans many in-memory chunks.
  const big = store.batched(async () =>
    store.write(() => {
      for (let i = 0; i < 2000; i++) insert(`big-${String(i).padStart(4, "0")}-${"x".repeat(1000)}`);
      insert("a"); // duplicate key: the whole write is undone
    }),
  );
  const c = store.batched(async () => put("c"));
  const settled = await Promise.allSettled([a, big, c]);
  expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(committed()).toEqual(["a", "c"]);
  expect(store.db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
});

test("batched writes share one open transaction and publish after its commit, in write order", async () => {
  const writes = ["w1", "w2", "w3"].map((k) => store.batched(async () => put(k)));
  // Let every handler run (microtasks) but not the end of the turn.
  await Promise.resolve();
  await Promise.resolve();
  expect(store.db.inTransaction).toBe(true);
  expect(ours()).toEqual(["w1", "w2", "w3"]);
  expect(committed()).toEqual([]);
  expect(published).toEqual([]);
  expect(await Promise.all(writes)).toEqual(["w1", "w2", "w3"]);
  // Once batched() resolves, the rows are committed and every event is out, once each.
  expect(committed()).toEqual(["w1", "w2", "w3"]);
  expect(published).toEqual([
    { e: "w1", committedRows: ["w1", "w2", "w3"] },
    { e: "w2", committedRows: ["w1", "w2", "w3"] },
    { e: "w3", committedRows: ["w1", "w2", "w3"] },
  ]);
  expect(store.db.inTransaction).toBe(false);
});

test("a read-only batched call in the same turn answers only after the open batch commits", async () => {
  const w = store.batched(async () => put("x"));
  await Promise.resolve();
  let seenAtAnswer: string[] | null = null;
  const r = store
    .batched(async () => ours())
    .then((rows) => {
      seenAtAnswer = committed();
      return rows;
    });
  expect(await r).toEqual(["x"]); // it read the uncommitted row...
  expect(seenAtAnswer!).toEqual(["x"]); // ...and answered only once that row was committed
  await w;
});

test("a non-batched write during an open batch commits the batch first, then itself, publishing at once", async () => {
  const batched = store.batched(async () => put("a"));
  await Promise.resolve();
  expect(committed()).toEqual([]);
  expect(put("b")).toBe("b");
  // Synchronously after the immediate write: both committed, events in commit order.
  expect(store.db.inTransaction).toBe(false);
  expect(committed()).toEqual(["a", "b"]);
  expect(published).toEqual([
    { e: "a", committedRows: ["a"] },
    { e: "b", committedRows: ["a", "b"] },
  ]);
  expect(await batched).toBe("a");
  expect(published.length).toBe(2);
});

test("writes a batched call leaves behind (timers) are immediate, not batched", async () => {
  let after: { inTransaction: boolean; published: number } | null = null;
  await store.batched(async () => {
    setTimeout(() => {
      put("late");
      after = { inTransaction: store.db.inTransaction, published: published.length };
    }, 0);
  });
  await Bun.sleep(5);
  expect(after!).toEqual({ inTransaction: false, published: 1 });
  expect(committed()).toEqual(["late"]);
});

test("a failed commit fails every request of the batch, and readers of it; nothing is published", async () => {
  const good = store.batched(async () => put("good"));
  const bad = store.batched(async () =>
    store.write(() => {
      store.db.query("INSERT INTO child (id, parent_id) VALUES ('c', 'missing')").run();
      store.emit("bad");
    }),
  );
  await Promise.resolve();
  const reader = store.batched(async () => ours());
  const settled = await Promise.allSettled([good, bad, reader]);
  for (const s of settled) {
    expect(s.status).toBe("rejected");
    expect(String((s as PromiseRejectedResult).reason)).toContain("FOREIGN KEY");
  }
  expect(store.db.inTransaction).toBe(false);
  expect(ours()).toEqual([]);
  expect(committed()).toEqual([]);
  expect(published).toEqual([]);
  // The store goes on: a later batch commits normally.
  expect(await store.batched(async () => put("next"))).toBe("next");
  expect(committed()).toEqual(["next"]);
});

test("bot API: a post whose group commit fails answers 500 code 0, and no event is published", async () => {
  const p = makeUnlimitedParley();
  try {
    const w = seedBasic(p);
    const token = w.applications.EchoBot.token;
    const channel = w.guilds.Lab.channels.general;
    // Every message insert also inserts a row whose deferred foreign key fails at COMMIT.
    p.store.db.exec("CREATE TABLE doomed (id TEXT PRIMARY KEY, parent_id TEXT REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED)");
    p.store.db.exec("CREATE TRIGGER doom AFTER INSERT ON messages BEGIN INSERT INTO doomed VALUES (NEW.id, 'nobody'); END");
    const events = recordEvents(p);
    const [one, two] = await Promise.all([
      call(p, "POST", `/channels/${channel}/messages`, { token, body: { content: "one" } }),
      call(p, "POST", `/channels/${channel}/messages`, { token, body: { content: "two" } }),
    ]);
    for (const r of [one, two]) {
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ code: 0, message: "500: Internal Server Error" });
    }
    expect(events.count("message.created")).toBe(0);
    expect((p.store.db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n).toBe(0);
    // Without the fault, the same post succeeds and fires exactly one event.
    p.store.db.exec("DROP TRIGGER doom");
    const ok = await call(p, "POST", `/channels/${channel}/messages`, { token, body: { content: "three" } });
    expect(ok.status).toBe(200);
    expect(events.count("message.created")).toBe(1);
  } finally {
    await p.stop();
  }
});
