/**
 * Several Parley nodes for a test, each a `parley serve` child process of its own (so a
 * kill -9 is a real one: no in-process shortcut survives it), behind a small round-robin
 * balancer in Bun that passes HTTP requests and WebSockets through, as an operator's
 * balancer would. A node that does not answer is skipped (the request goes to the next
 * one); a WebSocket stays on the node it was opened on and closes when that node goes.
 *
 * Each node gets a data directory of its own unless its arguments name one (or, later,
 * a shared database).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Server, ServerWebSocket } from "bun";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const START_MS = 30_000;
const STOP_MS = 10_000;

export interface ClusterNode {
  readonly index: number;
  /** http://127.0.0.1:port of this node while it runs. */
  readonly base: string;
  readonly pid: number | null;
  readonly alive: boolean;
  /** Everything it printed. */
  out(): string;
  /** SIGKILL: no shutdown of any kind. */
  kill9(): Promise<void>;
  /** SIGTERM, and wait for the exit (SIGKILL past a deadline). */
  stop(): Promise<number | null>;
  /** Start again (a new port), with the same arguments. */
  start(): Promise<void>;
}

export interface Balancer {
  /** http://127.0.0.1:port */
  readonly base: string;
  /** ws://127.0.0.1:port */
  readonly ws: string;
  /** Requests and WebSockets each node was given. */
  readonly hits: number[];
  stop(): Promise<void>;
}

export interface Cluster {
  nodes: ClusterNode[];
  balancer: Balancer;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  nodes: number;
  /** Arguments for `parley serve` beyond --port (and --data, unless given here). */
  args?: (index: number) => string[];
  env?: (index: number) => Record<string, string>;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), "parley-cluster-"));
  dirs.add(dir);
  const nodes: ClusterNode[] = [];
  try {
    for (let i = 0; i < o.nodes; i++) {
      const args = o.args?.(i) ?? [];
      const withData = args.includes("--data") ? args : [...args, "--data", join(dir, `node${i}`)];
      const node = makeNode(i, withData, o.env?.(i) ?? {});
      await node.start();
      nodes.push(node);
    }
  } catch (e) {
    await Promise.all(nodes.map((n) => n.kill9()));
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const balancer = startBalancer(nodes);
  return {
    nodes,
    balancer,
    async stop() {
      await balancer.stop();
      await Promise.all(nodes.map((n) => n.stop()));
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
  };
}

/** Every node child still running, killed with the test process (the runner's group kill covers SIGKILL of it), and its data removed. */
const running = new Set<ChildProcess>();
const dirs = new Set<string>();
process.once("exit", () => {
  for (const c of running) c.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function makeNode(index: number, args: string[], env: Record<string, string>): ClusterNode {
  let child: ChildProcess | null = null;
  let base = "";
  let out = "";
  const isAlive = () => child !== null && child.exitCode === null && child.signalCode === null;
  const exit = (c: ChildProcess) =>
    new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once("exit", (code) => r(code))));
  const node: ClusterNode = {
    index,
    get base() {
      return base;
    },
    get pid() {
      return isAlive() ? child!.pid! : null;
    },
    get alive() {
      return isAlive();
    },
    out: () => out,
    async kill9() {
      if (!child || !isAlive()) return;
      child.kill("SIGKILL");
      await exit(child);
    },
    async stop() {
      if (!child) return null;
      if (!isAlive()) return child.exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child?.kill("SIGKILL"), STOP_MS);
      const code = await exit(child);
      clearTimeout(timer);
      return code;
    },
    async start() {
      if (isAlive()) return;
      const c = spawn(process.execPath, [MAIN, "serve", "--port", "0", ...args], {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = c;
      running.add(c);
      c.once("exit", () => running.delete(c));
      const take = (d: Buffer) => {
        out += String(d);
        if (out.length > 200_000) out = out.slice(-100_000);
      };
      c.stdout!.on("data", take);
      c.stderr!.on("data", take);
      const deadline = Date.now() + START_MS;
      const from = out.length;
      for (;;) {
        const m = /parley listening on (\S+)/.exec(out.slice(from));
        if (m) {
          base = m[1];
          return;
        }
        if (!isAlive()) throw new Error(`node ${index} exited before listening:\n${out.slice(from)}`);
        if (Date.now() > deadline) {
          c.kill("SIGKILL");
          throw new Error(`node ${index} did not listen within ${START_MS / 1000} s:\n${out.slice(from)}`);
        }
        await Bun.sleep(20);
      }
    },
  };
  return node;
}

interface Pipe {
  target: string;
  headers: Record<string, string>;
  upstream: WebSocket | null;
  /** What the client sent before the node's side was open. */
  early: (string | Buffer)[];
}

/** Request headers a proxy does not pass on (hop-by-hop), and the encoding Bun's fetch would undo on the way back. */
const HOP = new Set([
  "connection",
  "keep-alive",
  "upgrade",
  "transfer-encoding",
  "host",
  "accept-encoding",
  "sec-websocket-key",
  "sec-websocket-version",
  "sec-websocket-extensions",
]);

function startBalancer(nodes: ClusterNode[]): Balancer {
  let next = 0;
  const hits = nodes.map(() => 0);
  /** The live nodes in round-robin order from the next one. */
  const order = () => {
    const start = next++ % nodes.length;
    return nodes.map((_, k) => nodes[(start + k) % nodes.length]).filter((n) => n.alive);
  };
  const server: Server<Pipe> = Bun.serve<Pipe>({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req, srv) {
      const url = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => {
        if (!HOP.has(k)) headers[k] = v;
      });
      headers["x-forwarded-for"] = srv.requestIP(req)?.address ?? "127.0.0.1";
      if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
        const node = order()[0];
        if (!node) return new Response("no node is up", { status: 502 });
        hits[node.index]++;
        const target = `${node.base.replace(/^http/, "ws")}${url.pathname}${url.search}`;
        return srv.upgrade(req, { data: { target, headers, upstream: null, early: [] } })
          ? undefined
          : new Response("upgrade failed", { status: 400 });
      }
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      for (const node of order()) {
        let res: Response;
        try {
          res = await fetch(`${node.base}${url.pathname}${url.search}`, { method: req.method, headers, body, redirect: "manual" });
        } catch {
          continue; // not answering: the next node
        }
        hits[node.index]++;
        const out = new Headers(res.headers);
        out.delete("content-encoding");
        out.delete("content-length");
        out.set("x-cluster-node", String(node.index));
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
      }
      return new Response("no node is up", { status: 502 });
    },
    websocket: {
      open(ws: ServerWebSocket<Pipe>) {
        const up = new WebSocket(ws.data.target, { headers: ws.data.headers } as never);
        up.binaryType = "nodebuffer" as BinaryType;
        ws.data.upstream = up;
        up.onopen = () => {
          for (const m of ws.data.early) up.send(m);
          ws.data.early = [];
        };
        up.onmessage = (e) => ws.send(e.data as string | Buffer);
        up.onclose = (e) => ws.close(closable(e.code), e.reason);
        up.onerror = () => ws.close(1011, "node gone");
      },
      message(ws, message) {
        const up = ws.data.upstream;
        if (up && up.readyState === WebSocket.OPEN) up.send(message);
        else ws.data.early.push(message);
      },
      close(ws, code, reason) {
        ws.data.upstream?.close(closable(code), reason);
      },
    },
  });
  return {
    base: `http://127.0.0.1:${server.port}`,
    ws: `ws://127.0.0.1:${server.port}`,
    hits,
    async stop() {
      await server.stop(true);
    },
  };
}

/** 1005 and 1006 say "no code" and "no close frame": they cannot be sent; 1000 stands for them. */
function closable(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 ? 1000 : code;
}
