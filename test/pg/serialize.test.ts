/**
 * Store.serialize on Postgres, with another node played by psql holding the same lock in
 * a transaction it commits a moment later: what is read after the lock, memos included,
 * is what the holder committed; and a rule the unique index already keeps (a name signs
 * up once) still answers the loser as the rule does, never with the index's failure.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createCore, DomainError, SwitchableClock } from "../../src/core";
import { Store } from "../../src/store/db";
import type { PgRelay } from "../../src/store/pg/relay";
import { ENGINE_MS, psqlBackground, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
let database = "";

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
}, ENGINE_MS);
afterAll(async () => {
  await pg?.close();
}, ENGINE_MS);

const open = () => new Store({ path: ":memory:", synchronous: "NORMAL", postgres: pg.socketOptions(database) });

test("a memo looked at after waiting for a lock is not trusted while the holder's commit is unheard", async () => {
  const store = open();
  try {
    store.relay.listen();
    const deadline = Date.now() + 10_000;
    while (!(store.relay as PgRelay).hearing) {
      if (Date.now() > deadline) throw new Error("the store did not listen");
      await Bun.sleep(5);
    }
    const users = store.changes.watch(["users"]);
    // Another node: holds the key, commits (its commit numbered, as every node's is), after a moment.
    const other = psqlBackground(
      pg,
      database,
      "BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('k', 0)); UPDATE parley_clock SET n = n + 1; SELECT pg_sleep(0.5); COMMIT;",
    );
    await other.locked;
    // One turn: the stamp is read (the counter compared), then the write waits for the key.
    const before = users.stamp();
    const after = store.write(() => {
      store.serialize("k");
      return users.stamp();
    });
    expect(await other.ended).toBe(0);
    expect(after).not.toBe(before);
  } finally {
    store.close();
  }
});

test("a name another node is signing up at this moment: refused as taken, not the unique index's failure", async () => {
  const store = open();
  const core = createCore({ clock: new SwitchableClock(), store, key: new Uint8Array(32), sessions: { idleMs: 1e9, absoluteMs: 1e9 } });
  try {
    const name = `twin${crypto.randomUUID().slice(0, 8)}`;
    const other = psqlBackground(
      pg,
      database,
      `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('username:${name}', 0));
       INSERT INTO users (id, kind, username, created_at) VALUES ('${crypto.randomUUID()}', 'person', '${name}', 0);
       SELECT pg_sleep(0.5); COMMIT;`,
    );
    await other.locked;
    let refused: unknown = null;
    try {
      core.users.createPerson({ username: name });
    } catch (e) {
      refused = e;
    }
    expect(await other.ended).toBe(0);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe("conflict");
  } finally {
    core.close();
  }
});
