/**
 * What nodes share of presence (core/presence.ts, core/presence-nodes.ts), with two cores
 * on one Postgres database in this process, each on a virtual clock of its own, so that
 * one node can be made to stop beating while the other watches: a node taken for dead
 * while it still runs claims its holds again at its next beat, and a node that stops
 * cleanly is let go of at the others' next beat without waiting out the window. A node
 * that starts sets offline whoever shows otherwise with no live node holding them, but
 * never someone another node is taking hold of at that moment.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { createCore, SwitchableClock, type Core } from "../../src/core";
import { BEAT_MS, LIVENESS_MS } from "../../src/core/presence-nodes";
import { Store } from "../../src/store/db";
import { ENGINE_MS, psqlBackground, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
let database = "";
interface Node {
  core: Core;
  clock: SwitchableClock;
  store: Store;
}
let a: Node;
let b: Node;
let bob: string;

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
}, ENGINE_MS);
afterAll(async () => {
  await pg?.close();
}, ENGINE_MS);

function node(): Node {
  const clock = new SwitchableClock();
  clock.set(Date.parse("2026-01-01T00:00:00Z"));
  const store = new Store({ path: ":memory:", synchronous: "NORMAL", postgres: pg.socketOptions(database) });
  const core = createCore({ clock, store, key: new Uint8Array(32), sessions: { idleMs: 1e9, absoluteMs: 1e9 } });
  core.serve();
  return { core, clock, store };
}

let closed: Core[] = [];
beforeEach(() => {
  a = node();
  b = node();
  bob = a.core.users.createPerson({ username: `bob${crypto.randomUUID().slice(0, 8)}` }).id;
  closed = [];
});
afterEach(() => {
  for (const n of [a, b]) if (!closed.includes(n.core)) n.core.close();
});

/** Read from the database: these stores do not listen to each other, so their memos may lag. */
const presence = (n: Node) => (n.store.db.query("SELECT presence FROM users WHERE id = ?").get(bob) as { presence: string }).presence;
const holders = () =>
  (b.store.db.query("SELECT node_id FROM presence_holds WHERE user_id = ?").all(bob) as { node_id: string }[]).map((r) => r.node_id);

test("a node taken for dead while it still runs claims its holds again at its next beat", () => {
  a.core.presence.connected(bob);
  expect(presence(b)).toBe("online");
  expect(holders()).toHaveLength(1);
  // A's clock stands still, so A does not beat; B watches its beat not move for the window.
  for (let waited = 0; waited <= LIVENESS_MS + BEAT_MS && presence(b) === "online"; waited += BEAT_MS) b.clock.advance(BEAT_MS);
  expect(presence(b)).toBe("offline");
  expect(holders()).toEqual([]);
  a.clock.advance(BEAT_MS);
  expect(presence(b)).toBe("online");
  expect(holders()).toHaveLength(1);
  // Held again: B's next beats let it be.
  b.clock.advance(BEAT_MS);
  expect(presence(b)).toBe("online");
  a.core.presence.disconnected(bob);
  expect(presence(b)).toBe("offline");
});

test("a node that stops is let go of at the others' next beat, whatever it still held", () => {
  a.core.presence.connected(bob);
  const [held] = holders();
  expect(holders()).toEqual([held!]);
  a.core.close();
  closed.push(a.core);
  expect(presence(b)).toBe("online");
  b.clock.advance(BEAT_MS);
  expect(presence(b)).toBe("offline");
  expect(holders()).toEqual([]);
  expect(b.store.db.query("SELECT id FROM parley_nodes WHERE id = ?").all(held)).toEqual([]);
});

test("held on both nodes: offline only once both have let go, in either order", () => {
  a.core.presence.connected(bob);
  b.core.presence.connected(bob);
  b.core.presence.connected(bob);
  a.core.presence.disconnected(bob);
  b.core.presence.disconnected(bob);
  expect(presence(a)).toBe("online");
  b.core.presence.disconnected(bob);
  expect(presence(a)).toBe("offline");
});

/** Another person, showing `presence` as a row left behind would. */
function showing(presence: string): string {
  const id = a.core.users.createPerson({ username: `p${crypto.randomUUID().slice(0, 8)}` }).id;
  a.store.db.query("UPDATE users SET presence = ? WHERE id = ?").run(presence, id);
  return id;
}
const presenceOf = (id: string) => (b.store.db.query("SELECT presence FROM users WHERE id = ?").get(id) as { presence: string }).presence;

test("a node that starts sets offline whoever shows online, idle or dnd while no live node holds them", () => {
  const left = ["online", "idle", "dnd"].map(showing);
  a.core.presence.connected(bob);
  const c = node();
  try {
    expect(left.map(presenceOf)).toEqual(["offline", "offline", "offline"]);
    expect(presence(b)).toBe("online");
  } finally {
    c.core.close();
  }
});

test("a node that starts leaves online someone another node is taking hold of at that moment", async () => {
  const carol = showing("online");
  const other = `other-${crypto.randomUUID()}`;
  // Another node's first connection for carol, under her lock, not yet committed when the node starts.
  const connecting = psqlBackground(
    pg,
    database,
    `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('presence:${carol}', 0));
     INSERT INTO parley_nodes (id, beat, dead) VALUES ('${other}', 0, 0);
     INSERT INTO presence_holds (node_id, user_id) VALUES ('${other}', '${carol}');
     SELECT pg_sleep(1); COMMIT;`,
  );
  const sql = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
  try {
    await connecting.locked;
    const c = node();
    c.core.close();
    expect(await connecting.ended).toBe(0);
    expect(presenceOf(carol)).toBe("online");
  } finally {
    await connecting.ended;
    await sql`DELETE FROM presence_holds WHERE node_id = ${other}`;
    await sql`DELETE FROM parley_nodes WHERE id = ${other}`;
    await sql.close();
  }
});
