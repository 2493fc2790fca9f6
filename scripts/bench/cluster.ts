/**
 * The cluster rows (docs/scaling.md, "Several nodes"): Postgres and Redis started on
 * temporary directories on 127.0.0.1 (test/support/engines.ts; Postgres with fsync on),
 * nodes as `parley serve` children from source, each beside a single SQLite node in the
 * same run:
 * - CPU per message post (wrk, 10 sessions listening on the node) and per authenticated
 *   message read, on a cluster node (Postgres + Redis) against the single node; the
 *   cluster node's figure is its own process, and Postgres's backends' CPU per request
 *   is given beside it;
 * - gateway fan-out: SESSIONS sessions on one node against SESSIONS split over two nodes
 *   (posts through the first), CPU per frame summed over the nodes;
 * - a post through node A to its MESSAGE_CREATE on node B, p50/p99, against the same
 *   frame on node A itself.
 * Bounded (about two minutes), every child stopped at the end.
 *   bun scripts/bench/cluster.ts [--seconds 3] [--sessions 1000] [--posts 200] [--json]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, startRedis } from "../../test/support/engines";
import { argOf, cpuSeconds, fmt, framesOf, listener, pct, report, spawnLines, wrk, type Child, type Row, type WrkResult } from "./lib";
import { benchWorld, finishWorld, type BenchInfo } from "./servers/world";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const seconds = argOf("seconds", 3);
const SESSIONS = argOf("sessions", 1000);
const POSTS = argOf("posts", 200);

interface Node {
  pid: number;
  port: number;
  seeded: any;
  stop(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), "parley-bench-cluster-"));
const key = crypto.getRandomValues(new Uint8Array(32));
let nodes = 0;

/** `parley serve` from source on a data directory of its own (the same key), seeded when `world` is given. */
async function startNode(extra: string[], world?: unknown): Promise<Node> {
  const data = join(dir, `node${nodes++}`);
  mkdirSync(data);
  writeFileSync(join(data, "secret.key"), key, { mode: 0o600 });
  const seed = world ? ["--seed", join(data, "world.json")] : [];
  if (world) writeFileSync(join(data, "world.json"), JSON.stringify(world));
  const argv = [process.execPath, MAIN, "serve", "--data", data, "--port", "0", "--rate-limits", "off", "--log-level", "error"];
  const { proc, nextLine } = spawnLines([...argv, ...seed, ...extra]);
  let seeded: unknown = null;
  let port = 0;
  while ((world && !seeded) || !port) {
    const line = await nextLine();
    if (line.startsWith("seeded world: ")) seeded = JSON.parse(line.slice("seeded world: ".length));
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
    if (m) port = Number(m[1]);
  }
  return { pid: proc.pid, port, seeded, stop: async () => (proc.kill(), void (await proc.exited)) };
}

/** CPU seconds of every process whose parent is `pid` (Postgres's backends under the postmaster). */
function childrenCpu(pid: number): number {
  let sum = 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) sum += cpuSeconds(Number(p));
    } catch {}
  }
  return sum;
}

const base = (port: number) => `http://127.0.0.1:${port}`;

/** One wrk run against a node, with Postgres's backends' CPU per request over the same run. */
async function measured(node: Node, path: string, script: string, env: Record<string, string>, pgPid: number | null) {
  const pg0 = pgPid ? childrenCpu(pgPid) : 0;
  const r = await wrk({ url: `${base(node.port)}${path}`, pid: node.pid, seconds, connections: 32, script, env, warmupSeconds: 1 });
  if (r.non2xx || r.errors) throw new Error(`${path}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
  const pgUs = pgPid ? ((childrenCpu(pgPid) - pg0) * 1e6) / r.requests : 0;
  return { ...r, pgUs };
}

/** Posts through `from` (8 at a time), until every listener holds every frame; CPU per frame over `pids`. */
async function fanOut(from: BenchInfo, listeners: Child<unknown>[], pids: number[], sessions: number) {
  const before = await Promise.all(listeners.map(async (l) => (await framesOf(l)).frames));
  const cpu0 = pids.map((pid) => cpuSeconds(pid));
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < POSTS) {
        sent++;
        const r = await fetch(`${base(from.port)}/api/v10/channels/${from.channels[0]}/messages`, {
          method: "POST",
          headers: { Authorization: `Bot ${from.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ content: `fan-out ${sent}` }),
        });
        if (r.status !== 200) throw new Error(`post: ${r.status}`);
      }
    }),
  );
  let got = 0;
  for (let i = 0; i < 400 && got < POSTS * sessions; i++) {
    got = (await Promise.all(listeners.map(async (l, k) => (await framesOf(l)).frames - before[k]))).reduce((a, b) => a + b, 0);
    if (got < POSTS * sessions) await Bun.sleep(50);
  }
  if (got < POSTS * sessions) throw new Error(`fan-out incomplete: ${got} of ${POSTS * sessions} frames`);
  const cpu = pids.map((p, i) => cpuSeconds(p) - cpu0[i]);
  return { usPerFrame: (cpu.reduce((a, b) => a + b, 0) * 1e6) / got, perNode: cpu.map((c) => (c * 1e6) / got) };
}

/** A gateway session that notes when each message arrives, by id (listeners see no content without the privileged intent). */
async function watcher(port: number, token: string): Promise<{ at(id: string): Promise<number>; close(): void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/gateway?v=10&encoding=json`);
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (t: number) => void>();
  await new Promise<void>((ready, fail) => {
    setTimeout(() => fail(new Error("no READY in 15 s")), 15_000);
    ws.onmessage = (ev) => {
      const f = JSON.parse(String(ev.data));
      if (f.op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents: (1 << 0) | (1 << 9), properties: {} } }));
      else if (f.t === "READY") ready();
      else if (f.t === "MESSAGE_CREATE") {
        const t = performance.now();
        arrived.set(f.d.id, t);
        waiting.get(f.d.id)?.(t);
      }
    };
  });
  return {
    at: (id) => (arrived.has(id) ? Promise.resolve(arrived.get(id)!) : new Promise<number>((r) => waiting.set(id, r))),
    close: () => ws.close(),
  };
}

/** POSTS posts through `a`, one at a time: ms from each POST's start to its frame on `watch`. */
async function postToFrame(a: BenchInfo, w: Awaited<ReturnType<typeof watcher>>, label: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < POSTS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base(a.port)}/api/v10/channels/${a.channels[0]}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${a.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: `${label} ${i}` }),
    });
    const { id } = (await res.json()) as { id: string };
    out.push((await w.at(id)) - t0);
  }
  return out;
}

const stops: (() => Promise<void>)[] = [];
const rows: Row[] = [];
try {
  const pg = await startPostgres({ durable: true });
  stops.push(() => pg.close());
  const redis = await startRedis();
  stops.push(() => redis.close());
  const clusterArgs = (db: string) => ["--database", pg.url(db), "--redis", redis.url];
  const pgPid = () => pg.pid!;

  // 1. CPU per post and per read: the single node against a cluster node, alternating.
  const world = benchWorld(4, 10);
  const single = await startNode([], world);
  stops.push(single.stop);
  const one = await startNode(clusterArgs(await pg.createDatabase()), world);
  stops.push(one.stop);
  const S = await finishWorld(single.port, single.seeded, 10);
  const C = await finishWorld(one.port, one.seeded, 10);
  const ls = await listener(S.port, "parley", S.tokens.join(","));
  const lc = await listener(C.port, "parley", C.tokens.join(","));
  stops.push(ls.stop, lc.stop);
  const post = (n: Node, i: BenchInfo, p: number | null) =>
    measured(n, "", "post.lua", { BOT_TOKEN: i.token, CHANNELS: i.channels.join(",") }, p);
  const read = (n: Node, i: BenchInfo, p: number | null) =>
    measured(n, `/api/v10/channels/${i.channels[0]}/messages/${i.messages[0]}`, "auth.lua", { BOT_TOKEN: i.token }, p);
  const best = <T extends WrkResult>(rs: T[]) => rs.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
  const r = { sp: [] as any[], cp: [] as any[], sr: [] as any[], cr: [] as any[] };
  for (let round = 0; round < 2; round++) {
    r.sp.push(await post(single, S, null));
    r.cp.push(await post(one, C, pgPid()));
    r.sr.push(await read(single, S, null));
    r.cr.push(await read(one, C, pgPid()));
  }
  const side = (x: WrkResult) => `${fmt(x.rps)} req/s, p99 ${fmt(x.p99ms, 1)} ms`;
  for (const [what, s, c] of [
    ["POST /channels/{id}/messages (10 sessions)", best(r.sp), best(r.cp)],
    ["GET /channels/{id}/messages/{id}", best(r.sr), best(r.cr)],
  ] as const)
    rows.push({
      path: `cluster node: ${what} (CPU/req)`,
      parley: `${fmt(c.cpuUs, 1)} us (+ Postgres ${fmt(c.pgUs, 1)} us)`,
      ceiling: `${fmt(s.cpuUs, 1)} us (single SQLite node)`,
      ratio: s.cpuUs / c.cpuUs,
      target: "-",
      met: null,
      detail: `cluster ${side(c)}; single ${side(s)}; best of 2 alternating rounds`,
    });
  await Promise.all([ls.stop(), lc.stop(), single.stop(), one.stop()]);

  // 2. Fan-out: SESSIONS on one node against SESSIONS over two nodes; then post-to-frame across nodes.
  // A seed holds at most 100 applications: each listening bot holds several sessions.
  const bots = Math.min(50, SESSIONS);
  const big = benchWorld(1, bots);
  const spread = (tokens: string[]) => Array.from({ length: SESSIONS }, (_, i) => tokens[i % tokens.length]);
  const lone = await startNode([], big);
  stops.push(lone.stop);
  const L = await finishWorld(lone.port, lone.seeded, bots);
  const ll = await listener(L.port, "parley", spread(L.tokens).join(","));
  stops.push(ll.stop);
  const alone = await fanOut(L, [ll], [lone.pid], SESSIONS);
  await Promise.all([ll.stop(), lone.stop()]);

  const db = await pg.createDatabase();
  const a = await startNode(clusterArgs(db), big);
  stops.push(a.stop);
  const b = await startNode(clusterArgs(db));
  stops.push(b.stop);
  const A = await finishWorld(a.port, a.seeded, bots);
  const half = SESSIONS / 2;
  const la = await listener(A.port, "parley", spread(A.tokens).slice(0, half).join(","));
  const lb = await listener(b.port, "parley", spread(A.tokens).slice(half).join(","));
  stops.push(la.stop, lb.stop);
  const pg0 = childrenCpu(pgPid());
  const split = await fanOut(A, [la, lb], [a.pid, b.pid], SESSIONS);
  const pgPerPost = ((childrenCpu(pgPid()) - pg0) * 1e6) / POSTS;
  rows.push({
    path: `gateway fan-out, ${SESSIONS} sessions over two nodes (CPU/frame, both nodes)`,
    parley: `${fmt(split.usPerFrame, 2)} us`,
    ceiling: `${fmt(alone.usPerFrame, 2)} us (${SESSIONS} on one SQLite node)`,
    ratio: alone.usPerFrame / split.usPerFrame,
    target: "-",
    met: null,
    detail: `node A (posts, ${half} sessions) ${fmt(split.perNode[0], 2)} us, node B (${half} sessions) ${fmt(split.perNode[1], 2)} us; Postgres ${fmt(pgPerPost)} us per post; ${POSTS} posts`,
  });
  await Promise.all([la.stop(), lb.stop()]);

  const onB = await watcher(b.port, A.tokens[0]);
  const onA = await watcher(a.port, A.tokens[1]);
  const cross = await postToFrame(A, onB, "to-b");
  const same = await postToFrame(A, onA, "to-a");
  onA.close();
  onB.close();
  rows.push({
    path: "post through node A to MESSAGE_CREATE on node B (p50 / p99)",
    parley: `${fmt(pct(cross, 0.5), 2)} / ${fmt(pct(cross, 0.99), 2)} ms`,
    ceiling: `${fmt(pct(same, 0.5), 2)} / ${fmt(pct(same, 0.99), 2)} ms (the frame on node A)`,
    ratio: pct(same, 0.5) / pct(cross, 0.5),
    target: "-",
    met: null,
    detail: `${POSTS} posts one at a time, from the POST's start to the frame`,
  });
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
report(rows);
process.exit(0);
