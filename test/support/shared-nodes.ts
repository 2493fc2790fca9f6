/**
 * Parley nodes on one Postgres database (and, when asked, one Redis), as an operator runs
 * them: each node a `parley serve` child process with a data directory of its own holding
 * the same `secret.key` (copied from the first node), in test mode, behind the cluster
 * helper's balancer (cluster.ts); a world seeded through the first node.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCluster, type Cluster } from "./cluster";
import { startPostgres, startRedis, type Postgres, type Redis } from "./engines";

export interface SharedNodesOptions {
  /** The world document to seed through the first node. */
  world: unknown;
  nodes?: number;
  redis?: boolean;
  /** `--rate-limits`: off, unless this names a file in `dir` (written there by `setup`). */
  rateLimits?: string;
  /** More arguments for node `i`; `dir` is a temporary directory removed with the nodes. */
  args?: (i: number, dir: string) => string[];
  /** Before the nodes start: files they are to find in `dir`. */
  setup?: (dir: string) => void;
}

export interface SharedNodes {
  pg: Postgres;
  redis: Redis | null;
  cluster: Cluster;
  /** The seed's answer: ids and tokens. */
  world: any;
  dir: string;
  stop(): Promise<void>;
}

export async function startSharedNodes(o: SharedNodesOptions): Promise<SharedNodes> {
  const [pg, redis] = await Promise.all([startPostgres(), o.redis ? startRedis() : null]);
  const dir = mkdtempSync(join(tmpdir(), "parley-nodes-"));
  const stopEngines = async () => {
    await Promise.all([pg.close(), redis?.close()]);
    rmSync(dir, { recursive: true, force: true });
  };
  let cluster: Cluster | null = null;
  try {
    const database = await pg.createDatabase();
    const n = o.nodes ?? 2;
    const key = crypto.getRandomValues(new Uint8Array(32));
    for (let i = 0; i < n; i++) {
      mkdirSync(join(dir, `node${i}`));
      writeFileSync(join(dir, `node${i}`, "secret.key"), key, { mode: 0o600 });
    }
    o.setup?.(dir);
    cluster = await startCluster({
      nodes: n,
      args: (i) => [
        ...["--database", pg.url(database), ...(redis ? ["--redis", redis.url] : []), "--data", join(dir, `node${i}`)],
        ...[
          "--harness",
          "--rate-limits",
          o.rateLimits ? join(dir, o.rateLimits) : "off",
          "--log-level",
          "warn",
          ...(o.args?.(i, dir) ?? []),
        ],
      ],
    });
    const seeded = await fetch(`${cluster.nodes[0]!.base}/api/harness/v1/seed`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(o.world),
    });
    if (seeded.status !== 200) throw new Error(`seeding answered ${seeded.status}: ${await seeded.text()}`);
    const world = await seeded.json();
    await heardEverywhere(cluster);
    const running = cluster;
    return {
      pg,
      redis,
      cluster: running,
      world,
      dir,
      async stop() {
        await running.stop();
        await stopEngines();
      },
    };
  } catch (e) {
    await cluster?.stop();
    await stopEngines();
    throw e;
  }
}

/**
 * Until every node has heard every commit the first has made (GET /commits): a session
 * opened on another node before it heard the seed would get the seed's events late, the
 * token's rotation among them (op 9).
 */
async function heardEverywhere(cluster: Cluster): Promise<void> {
  const commits = async (base: string) =>
    (await (await fetch(`${base}/api/harness/v1/commits`)).json()) as { newest: number | null; heard: number | null };
  const { newest } = await commits(cluster.nodes[0]!.base);
  if (newest === null) throw new Error("the first node does not say which commits it has heard");
  const deadline = Date.now() + 10_000;
  for (const node of cluster.nodes) {
    while (((await commits(node.base)).heard ?? 0) < newest) {
      if (Date.now() > deadline) throw new Error(`${node.base} has not heard commit ${newest} within 10 s`);
      await Bun.sleep(10);
    }
  }
}

/** A node's gateway URL, as a bot library asks for it. */
export const gatewayOf = (node: { base: string }) => `${node.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`;

/** Polls `fn` until it answers something, within `ms` (the machine may be busy: deadlines are generous). */
export async function within<T>(ms: number, what: string, fn: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}
