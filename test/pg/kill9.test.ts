/**
 * Durability of a node on Postgres under kill -9 (test/durability/kill9.test.ts does the
 * same on SQLite): a `parley serve --database` child takes concurrent message posts,
 * and once enough are acknowledged it is killed with SIGKILL while more are in flight.
 * Every acknowledged post must be in Postgres (the answer comes only after the group's
 * COMMIT, which Postgres makes durable: synchronous_commit on), none half-written; the
 * node starts again on the same database for the next round, and Postgres rolled back
 * the open batch of the killed one without anyone's help.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startCluster, type Cluster } from "../support/cluster";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

const ROUNDS = 2;
const WRITERS = 16;
/** Acknowledged posts per round before the kill; the writers keep posting until it lands. */
const ACKS_BEFORE_KILL = 200;

let pg: Postgres;
let cluster: Cluster | null = null;
let database = "";

beforeAll(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase();
}, ENGINE_MS);
afterAll(async () => {
  await cluster?.stop();
  await pg?.close();
}, ENGINE_MS);

const WORLD = {
  users: [{ name: "alice", admin: true }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  applications: [{ name: "Writer", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

test(`kill -9 under ${WRITERS} concurrent writers, ${ROUNDS} times: every acknowledged post is in Postgres`, async () => {
  cluster = await startCluster({
    nodes: 1,
    args: () => ["--database", pg.url(database), "--harness", "--rate-limits", "off", "--log-level", "warn"],
  });
  const node = cluster.nodes[0];
  const seeded = (await (
    await fetch(`${node.base}/api/harness/v1/seed`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(WORLD),
    })
  ).json()) as any;
  const token = seeded.applications.Writer.token;
  const channel = seeded.guilds.Lab.channels.general;
  const acknowledged: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (!node.alive) await node.start();
    const base = node.base;
    let acks = 0;
    let killed = false;
    let kill!: () => void;
    const killedNow = new Promise<void>((resolve) => (kill = resolve));
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const content = `r${round}-w${w}-${i}`;
        try {
          const r = await fetch(`${base}/api/v10/channels/${channel}/messages`, {
            method: "POST",
            headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ content }),
          });
          if (r.status === 200 && !killed) {
            acknowledged.push(content);
            if (++acks === ACKS_BEFORE_KILL) kill();
          } else if (r.status !== 200) throw new Error(`a post answered ${r.status}: ${await r.text()}`);
        } catch (e) {
          if (killed) return; // the node is gone
          throw e;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await killedNow;
    // From here on a failed post is the kill's doing; one acknowledged meanwhile is not counted.
    killed = true;
    await node.kill9(); // with writes still in flight
    await Promise.all(writers);

    const sql = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
    try {
      const stored = new Set((await sql`SELECT content FROM messages`).map((r: { content: string }) => r.content));
      const lost = acknowledged.filter((c) => !stored.has(c));
      expect({ round, lost }).toEqual({ round, lost: [] });
      // Every message has its snowflake: no write was committed in part.
      const [{ n }] =
        await sql`SELECT count(*)::int AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM snowflakes s WHERE s.uuid = m.id)`;
      expect(n).toBe(0);
    } finally {
      await sql.close();
    }
  }
  expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * ACKS_BEFORE_KILL);
  // The database serves again after the last kill.
  await node.start();
  const r = await fetch(`${node.base}/api/v10/channels/${channel}/messages?limit=1`, { headers: { Authorization: `Bot ${token}` } });
  expect(r.status).toBe(200);
}, 120_000);
