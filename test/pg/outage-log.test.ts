/**
 * What a node's log says while Postgres or Redis is away, as an operator tails it during a
 * database restart. Every request then answers 503 with Retry-After (test/pg/node.test.ts),
 * which is the service working as documented, not a bug: so the log must not fill with
 * "internal error" lines and stack traces (docs/operations.md keeps those for bugs), one
 * per request and one per presence beat. It says, as a warning without a stack, that the
 * database (or Redis) cannot be reached, and not once per request; and a scrape of
 * /metrics says what /readyz says (parley_ready, parley_database_writable, parley_degraded),
 * so an alert needs no second probe.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startCluster, type Cluster, type ClusterNode } from "../support/cluster";
import { ENGINE_MS, startPostgres, startRedis, type Postgres, type Redis } from "../support/engines";
import { BASIC_WORLD } from "../helpers";

let pg: Postgres;
let redis: Redis;
let cluster: Cluster;
let node: ClusterNode;

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  const database = await pg.createDatabase();
  cluster = await startCluster({
    nodes: 1,
    args: () => ["--database", pg.url(database), "--redis", redis.url, "--harness", "--log-format", "json", "--log-level", "warn"],
  });
  node = cluster.nodes[0]!;
}, ENGINE_MS);
afterAll(async () => {
  await cluster?.stop();
  await Promise.all([pg?.close(), redis?.close()]);
}, ENGINE_MS);

/** The node's JSON log lines written since `from` (its output also holds the start-up banner). */
function lines(from: number): any[] {
  return node
    .out()
    .slice(from)
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

/** The node's readiness gauges, as Prometheus scrapes them. */
async function gauges(): Promise<Record<string, number>> {
  const text = await (await fetch(`${node.base}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(parley_ready|parley_database_writable|parley_degraded) (\S+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

async function within(ms: number, what: string, fn: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

test("Postgres and Redis away: requests answer 503, /metrics says not ready, and the log warns without an internal error or a stack trace", async () => {
  const from = node.out().length;
  // Seeded just now: the search index reads whether a backfill is left at its next poll (a
  // quarter second), which then meets the outage; that throw once ended the process.
  const seeded = await fetch(`${node.base}/api/harness/v1/seed`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(BASIC_WORLD),
  });
  expect(seeded.status).toBe(200);
  const world = (await seeded.json()) as any;
  await Promise.all([redis.stop(), pg.stop("immediate")]);
  const general = world.guilds.Lab.channels.general;
  const bot = { Authorization: `Bot ${world.applications.EchoBot.token}`, "Content-Type": "application/json" };
  const person = { Authorization: `Session ${world.users.alice.token}`, "Content-Type": "application/json" };
  try {
    for (let i = 0; i < 10; i++) {
      const post = await fetch(`${node.base}/api/v10/channels/${general}/messages`, {
        method: "POST",
        headers: bot,
        body: JSON.stringify({ content: `while away ${i}` }),
      });
      expect(post.status).toBe(503);
      expect(post.headers.get("retry-after")).toBe("1");
      const guilds = await fetch(`${node.base}/api/client/v1/guilds`, { headers: person }).catch((e) => {
        throw new Error(`${e}: ${node.out().slice(from)}`);
      });
      expect(guilds.status).toBe(503);
    }
    // Long enough for the presence beat (every 5 s) and the search index's poll to meet the outage too.
    await Bun.sleep(6_000);
    expect(node.alive).toBe(true);
    // What a Prometheus scrape says meanwhile: not ready, the database not writable, something degraded.
    const away = await gauges();
    expect([away.parley_ready, away.parley_database_writable]).toEqual([0, 0]);
    expect(away.parley_degraded).toBeGreaterThan(0);
  } finally {
    await Promise.all([pg.start(), redis.start()]);
  }
  await within(20_000, "the node to be ready again", async () => (await fetch(`${node.base}/readyz`)).status === 200);
  const back = await gauges();
  expect([back.parley_ready, back.parley_database_writable]).toEqual([1, 1]);
  // Every line is JSON, what the runtime's own SQL client printed while it retried included.
  const raw = node
    .out()
    .slice(from)
    .split("\n")
    .filter((l) => l.trim() !== "");
  expect(raw.filter((l) => !l.startsWith("{"))).toEqual([]);
  const logged = lines(from);
  const text = JSON.stringify(logged);
  expect(logged.filter((l) => l.msg === "internal error" || l.msg === "unexpected failure")).toEqual([]);
  expect(text).not.toContain("stack");
  const warned = logged.filter((l) => l.level === "warn" || l.level === 40);
  expect(warned.some((l) => /database unavailable/.test(l.msg) && /connect/i.test(l.reason))).toBe(true);
  expect(warned.some((l) => /Redis unavailable/.test(l.msg))).toBe(true);
  // Twenty refused requests and a beat or two: a few lines, not one per request.
  expect(warned.length).toBeLessThanOrEqual(4);
}, 60_000);
