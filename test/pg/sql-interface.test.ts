/**
 * One piece of code, typed against src/store/sql.ts's SqlDb, run on bun:sqlite and on the
 * Postgres bridge with the same calls: the seam the store is to be wired through.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { SqlDb } from "../../src/store/sql";
import { PgDatabase } from "../../src/store/pg/bridge";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
let bridge: PgDatabase;
beforeAll(async () => {
  pg = await startPostgres();
  bridge = new PgDatabase(pg.socketOptions(await pg.createDatabase()));
  bridge.execNative('CREATE TABLE notes (id text COLLATE "C" PRIMARY KEY, n bigint NOT NULL)');
}, ENGINE_MS);
afterAll(async () => {
  bridge?.close();
  await pg?.close();
}, ENGINE_MS);

/** What a core service does: a write of several statements, then reads. */
function exercise(db: SqlDb) {
  const add = db.query("INSERT OR IGNORE INTO notes (id, n) VALUES ($id, $n)");
  const claimed = db.transaction((ids: string[]) => ids.filter((id, i) => add.run({ id, n: i }).changes > 0))(["b", "a", "b", "c"]);
  let failed = "";
  try {
    db.transaction(() => {
      db.query("UPDATE notes SET n = n + 10").run();
      throw new Error("a rule says no");
    })();
  } catch (e) {
    failed = (e as Error).message;
  }
  return {
    claimed,
    failed,
    inTransaction: db.inTransaction,
    rows: db.query("SELECT id, n FROM notes ORDER BY id").all(),
    one: db.prepare("SELECT count(*) AS c, max(n) AS top FROM notes WHERE n >= ?").get(1),
    values: db.query("SELECT id FROM notes WHERE id IS ? OR n IS ?").values(null, 2),
  };
}

test("the same code gives the same answers on bun:sqlite and on Postgres", () => {
  const lite = new Database(":memory:", { strict: true });
  lite.exec("CREATE TABLE notes (id TEXT PRIMARY KEY, n INTEGER NOT NULL)");
  const expected = exercise(lite);
  expect(expected.claimed).toEqual(["b", "a", "c"]);
  expect(expected.failed).toBe("a rule says no");
  expect(exercise(bridge)).toEqual(expected);
  lite.close();
});
