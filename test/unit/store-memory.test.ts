// Store.releaseMemory: the idle server hands back the database connection's spare cache
// (src/lifecycle.ts). It must never cost a row, whether a write batch is open or the
// database lives in memory, where the pages are the data.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";

let dir: string | null = null;
let store: Store | null = null;

afterEach(() => {
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = dir = null;
});

function fill(s: Store, from: number, n: number): void {
  s.write(() => {
    const put = s.db.query("INSERT INTO t (k, v) VALUES (?, ?)");
    for (let i = from; i < from + n; i++) put.run(i, "x".repeat(200));
  });
}

const count = (s: Store) => (s.db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;

for (const where of ["a file", "memory"] as const)
  test(`handing back the cache keeps every row, a batch open or not (${where})`, async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-memory-"));
    store = new Store({ path: where === "memory" ? ":memory:" : join(dir, "t.db"), synchronous: "NORMAL" });
    const s = store;
    s.db.exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)");
    fill(s, 0, 5000);
    s.releaseMemory();
    expect(count(s)).toBe(5000);

    // A write batch open (the group commit's turn), its rows not yet committed.
    const pending = s.batched(async () => fill(s, 5000, 100));
    s.releaseMemory();
    await pending;
    s.flush();
    s.releaseMemory();
    expect(count(s)).toBe(5100);
    expect((s.db.query("SELECT v FROM t WHERE k = 5099").get() as { v: string }).v).toHaveLength(200);
  });
