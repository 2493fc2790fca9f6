/**
 * Rate limits across two nodes sharing Redis (`--redis`, botapi/shared-limits.ts): a
 * bot's bucket and the global window are counted once, whichever node answers; with
 * Redis away each node counts on its own and /readyz says so, and the shared windows
 * count again once Redis is back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Cluster, ClusterNode } from "../support/cluster";
import { startSharedNodes, type SharedNodes } from "../support/shared-nodes";
import { ENGINE_MS, type Redis } from "../support/engines";
import { BASIC_WORLD } from "../helpers";

let nodes: SharedNodes;
let redis: Redis;
let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;
let world: any;

/** Small enough to reach in a test, long enough that no window ends during one. */
const GLOBAL = 9;

beforeAll(async () => {
  nodes = await startSharedNodes({
    world: BASIC_WORLD,
    redis: true,
    setup: (dir) => writeFileSync(join(dir, "limits.json"), JSON.stringify({ global: { limit: GLOBAL, windowMs: 60_000 } })),
    rateLimits: "limits.json",
  });
  ({ cluster, world } = nodes);
  redis = nodes.redis!;
  [a, b] = cluster.nodes;
}, ENGINE_MS);
afterAll(async () => {
  await nodes?.stop();
}, ENGINE_MS);

async function on(node: ClusterNode, method: string, path: string, body?: unknown) {
  const res = await fetch(`${node.base}/api/v10${path}`, {
    method,
    headers: {
      Authorization: `Bot ${world.applications.EchoBot.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const readyz = async (node: ClusterNode) => (await (await fetch(`${node.base}/readyz`)).json()) as any;

describe("rate limits shared through Redis", () => {
  test("six posts over two nodes meet the bucket's 429 on the sixth, and the global window holds across nodes", async () => {
    expect((await readyz(a)).degraded).toBeUndefined();
    const general = world.guilds.Lab.channels.general;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await on(i % 2 ? b : a, "POST", `/channels/${general}/messages`, { content: `post ${i}` });
      statuses.push(r.status);
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const sixth = await on(b, "POST", `/channels/${general}/messages`, { content: "post 5" });
    expect(sixth.status).toBe(429);
    expect(sixth.body.global).toBe(false);
    expect(sixth.headers.get("x-ratelimit-remaining")).toBe("0");

    // Six counted globally so far (the refused one too): three more fit, on either node.
    for (const node of [a, b, a]) expect((await on(node, "GET", "/users/@me")).status).toBe(200);
    const over = await on(b, "GET", "/users/@me");
    expect(over.status).toBe(429);
    expect(over.body.global).toBe(true);
    expect(over.headers.get("x-ratelimit-global")).toBe("true");
  }, 30_000);

  test("Redis away: each node counts on its own and /readyz says so (still ready); back: shared again", async () => {
    await redis.stop();
    try {
      // The node notices at its next bucketed request (answered from its own windows).
      const answered = await on(a, "GET", "/users/@me");
      expect(answered.status).not.toBe(500);
      const ready = await readyz(a);
      expect(ready.status).toBe("ready");
      // Among what else degrades without Redis (the people's throttles, RESUME on another node).
      expect(ready.degraded).toEqual(expect.arrayContaining(["Redis: not reachable; rate limits are counted per node"]));
    } finally {
      await redis.start();
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      await on(a, "GET", "/users/@me");
      if ((await readyz(a)).degraded === undefined) break;
      if (Date.now() > deadline) throw new Error("node A did not use Redis again");
      await Bun.sleep(200);
    }
  }, 30_000);
});
