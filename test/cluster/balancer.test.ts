/**
 * The cluster helper itself (test/support/cluster.ts): Parley nodes as child processes
 * behind a round-robin balancer that passes HTTP and the gateway's WebSocket through,
 * skips a node killed with SIGKILL, and takes it back once it is up again. The nodes here
 * keep their own SQLite data (a shared store comes with the Postgres engine), so this
 * tests the plumbing, not shared state.
 */
import { afterAll, expect, test } from "bun:test";
import { startCluster, type Cluster } from "../support/cluster";
import { ENGINE_MS } from "../support/engines";

let cluster: Cluster | null = null;
afterAll(async () => {
  await cluster?.stop();
}, ENGINE_MS);

/** The first frame of a gateway connection through the balancer, and the socket. */
async function hello(url: string): Promise<{ ws: WebSocket; frame: any; closed: Promise<number> }> {
  const ws = new WebSocket(`${url}/gateway?v=10&encoding=json`);
  const closed = new Promise<number>((r) => ws.addEventListener("close", (e) => r(e.code)));
  const frame = await new Promise<any>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("no HELLO within 10 s")), 10_000);
    ws.addEventListener(
      "message",
      (e) => {
        clearTimeout(timer);
        ok(JSON.parse(String(e.data)));
      },
      { once: true },
    );
    ws.addEventListener("error", () => fail(new Error("the socket failed")));
  });
  return { ws, frame, closed };
}

test("requests go round the nodes, a killed node is skipped, and a restarted one comes back", async () => {
  cluster = await startCluster({ nodes: 2, args: () => ["--rate-limits", "off"] });
  const { balancer, nodes } = cluster;
  const served: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${balancer.base}/api/v10/gateway`);
    expect(res.status).toBe(200);
    expect((await res.json()).url).toStartWith("ws");
    served.push(res.headers.get("x-cluster-node")!);
  }
  expect(served).toEqual(["0", "1", "0", "1"]);

  // A WebSocket through the balancer reaches a node's gateway, and a heartbeat is answered.
  const a = await hello(balancer.ws);
  expect(a.frame.op).toBe(10);
  const ack = new Promise<any>((r) => a.ws.addEventListener("message", (e) => r(JSON.parse(String(e.data))), { once: true }));
  a.ws.send(JSON.stringify({ op: 1, d: null }));
  expect((await ack).op).toBe(11);
  const before = [...balancer.hits];
  const b = await hello(balancer.ws);
  const nodeOfB = balancer.hits.findIndex((h, i) => h !== before[i]);
  const nodeOfA = 1 - nodeOfB;

  // kill -9 of B's node: its socket closes, and every request goes to the other node.
  const victim = nodes[nodeOfB];
  await victim.kill9();
  expect(victim.alive).toBe(false);
  expect(await b.closed).toBeGreaterThanOrEqual(1000);
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${balancer.base}/api/v10/gateway`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cluster-node")).toBe(String(nodeOfA));
  }
  // A's socket, on the node that lives, is still open.
  expect(a.ws.readyState).toBe(WebSocket.OPEN);

  await victim.start();
  const seen = new Set<string>();
  for (let i = 0; i < 4; i++) seen.add((await fetch(`${balancer.base}/api/v10/gateway`)).headers.get("x-cluster-node")!);
  expect([...seen].sort()).toEqual(["0", "1"]);
  a.ws.close();
  await a.closed;
}, 90_000);
