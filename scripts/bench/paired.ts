/**
 * Paired measurement for the fan-out benches (gateway.ts, live.ts): Parley and its
 * ceiling (raw Bun publish) are both up at once, each with its own client process, and
 * the measurement alternates between them, message by message for latency and burst by
 * burst for throughput, the order flipping every pair. On a shared 2-core machine a
 * neighbour's spell of work, or the kernel's, then lands on both sides alike instead
 * of on whichever side happened to run during it: measured one side after the other,
 * the same code's ratio moved by a third from run to run.
 *
 * Beside throughput: the server process's CPU time (user + system, both servers live in
 * this process, the clients do not) per frame delivered, over the bursts of that side.
 */
import { Clients } from "./clients";
import { fmt, pct, type Row } from "./lib";

export interface Side {
  clients: Clients;
  /** Sockets that each get every message's frame. */
  sockets: number;
  /** Send one message (the promise, if any, settles once the server accepted it). */
  send: () => unknown;
}

export interface SideResult {
  framesPerSec: number;
  /** Message accepted -> last socket's frame counted, ms, one message at a time. */
  lat: number[];
  cpuUsPerFrame: number;
  frameBytes: number;
}

export interface PairedOptions {
  /** Messages per side, one at a time, for latency. */
  messages: number;
  /** Bursts per side, for throughput. */
  bursts: number;
  burst: number;
}

async function one(s: Side): Promise<number> {
  const t0 = performance.now();
  const arrived = s.clients.expect(s.sockets);
  await s.send();
  await arrived;
  return performance.now() - t0;
}

interface Tally {
  ms: number;
  cpuUs: number;
  frames: number;
}

async function burst(s: Side, size: number, into: Tally): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const arrived = s.clients.expect(s.sockets * size);
  await Promise.all(Array.from({ length: size }, s.send));
  await arrived;
  into.ms += performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  into.cpuUs += cpu.user + cpu.system;
  into.frames += s.sockets * size;
}

/** Measure two sides interleaved; `a` is Parley, `b` the ceiling. */
export async function paired(a: Side, b: Side, o: PairedOptions): Promise<[SideResult, SideResult]> {
  const start = [a, b].map((s) => [s.clients.frames, s.clients.bytes]);
  const lat: [number[], number[]] = [[], []];
  for (let i = 0; i < o.messages; i++) {
    // a b, b a, a b, ...: neither side always runs right after the other's frames.
    const first = i % 2;
    lat[first].push(await one(first ? b : a));
    lat[1 - first].push(await one(first ? a : b));
  }
  const tally: [Tally, Tally] = [
    { ms: 0, cpuUs: 0, frames: 0 },
    { ms: 0, cpuUs: 0, frames: 0 },
  ];
  for (let i = 0; i < o.bursts; i++) {
    const first = i % 2;
    await burst(first ? b : a, o.burst, tally[first]);
    await burst(first ? a : b, o.burst, tally[1 - first]);
  }
  return [a, b].map((s, k) => {
    const [frames0, bytes0] = start[k];
    return {
      framesPerSec: tally[k].frames / (tally[k].ms / 1000),
      lat: lat[k],
      cpuUsPerFrame: tally[k].cpuUs / tally[k].frames,
      frameBytes: Math.round((s.clients.bytes - bytes0) / (s.clients.frames - frames0)),
    };
  }) as [SideResult, SideResult];
}

/** A side set up, with the heap its sockets took (per socket), and how to take it down. */
export interface Setup {
  side: Side;
  memPerSocket: number;
  stop(): Promise<void>;
}

/** The heap in use once collected. */
export function heap(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
}

/**
 * The ceiling of both fan-out benches: a raw Bun server that greets every socket and
 * publishes `frame` to all of them on one topic, with its own client process.
 */
export async function rawSide(n: number, greeting: string, frame: string): Promise<Setup> {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("no", { status: 400 })),
    websocket: {
      open(ws) {
        ws.subscribe("all");
        ws.send(greeting);
      },
      message() {},
    },
  });
  const clients = new Clients();
  const before = heap();
  const ready = clients.expect(n);
  await clients.connect(
    `ws://127.0.0.1:${server.port}/`,
    Array.from({ length: n }, () => null),
  );
  await ready;
  return {
    side: { clients, sockets: n, send: () => void server.publish("all", frame) },
    memPerSocket: (heap() - before) / n,
    async stop() {
      await clients.close();
      server.stop(true);
    },
  };
}

/** `shell(d)` padded with `d` = "xxx…" to `bytes` in all: raw frames as large as Parley's mean frame. */
export function frameOf(bytes: number, shell: (d: string) => string): string {
  return shell("x".repeat(Math.max(0, bytes - shell("").length)));
}

/** Parley's mean frame size, from a warm-up that also settles the JIT (and the gateway's cohorts). */
export async function warmUp(s: Side): Promise<number> {
  const [frames0, bytes0] = [s.clients.frames, s.clients.bytes];
  for (let i = 0; i < 50; i++) {
    const arrived = s.clients.expect(s.sockets);
    await s.send();
    await arrived;
  }
  return Math.round((s.clients.bytes - bytes0) / (s.clients.frames - frames0));
}

/** Trials pooled: frames over time and CPU over frames (each trial ran as many bursts), every latency. */
export function pool(xs: SideResult[]): SideResult {
  const mean = (f: (x: SideResult) => number) => xs.reduce((a, x) => a + f(x), 0) / xs.length;
  return {
    framesPerSec: 1 / mean((x) => 1 / x.framesPerSec),
    cpuUsPerFrame: mean((x) => x.cpuUsPerFrame),
    lat: xs.flatMap((x) => x.lat),
    frameBytes: xs[0].frameBytes,
  };
}

/**
 * A fan-out bench's line: size, both sides' frames/s and their ratio, both sides' p50/p99,
 * Parley's frame size, then `middle` (the bench's own cells), then both sides' CPU per
 * frame.
 */
export function resultLine(n: number, p: SideResult, r: SideResult, middle: string[] = []): string {
  return [
    String(n).padStart(8),
    fmt(p.framesPerSec).padStart(15),
    fmt(r.framesPerSec).padStart(20),
    fmt(p.framesPerSec / r.framesPerSec, 2).padStart(5),
    `${fmt(pct(p.lat, 0.5), 2)}/${fmt(pct(p.lat, 0.99), 2)}`.padStart(17),
    `${fmt(pct(r.lat, 0.5), 2)}/${fmt(pct(r.lat, 0.99), 2)}`.padStart(14),
    String(p.frameBytes).padStart(11),
    ...middle,
    fmt(p.cpuUsPerFrame, 3).padStart(19),
    fmt(r.cpuUsPerFrame, 3).padStart(16),
  ].join(" | ");
}

/** A fan-out bench's rows of the results table at one size (targets: the bots' gateway only). */
export function fanoutRows(name: string, size: number, p: SideResult, r: SideResult, targets: boolean): Row[] {
  const [p50, p99, rawP50, rawP99] = [pct(p.lat, 0.5), pct(p.lat, 0.99), pct(r.lat, 0.5), pct(r.lat, 0.99)];
  return [
    {
      path: `${name} fan-out, ${fmt(size)} sockets (frames/s)`,
      parley: `${fmt(p.framesPerSec)} frames/s`,
      ceiling: `${fmt(r.framesPerSec)} frames/s (raw Bun publish)`,
      ratio: p.framesPerSec / r.framesPerSec,
      target: targets ? ">= 0.7 (keep)" : "-",
      met: targets ? p.framesPerSec / r.framesPerSec >= 0.7 : null,
      detail: `server CPU ${fmt(p.cpuUsPerFrame, 2)} us/frame (raw ${fmt(r.cpuUsPerFrame, 2)}); sides measured alternately, trials pooled`,
    },
    {
      path: `${name} fan-out, ${fmt(size)} sockets (p99 latency)`,
      parley: `p99 ${fmt(p99, 1)} ms (p50 ${fmt(p50, 1)})`,
      ceiling: `p99 ${fmt(rawP99, 1)} ms (p50 ${fmt(rawP50, 1)})`,
      ratio: rawP99 / p99,
      target: targets ? "p99 <= 1.2x raw" : "-",
      met: targets ? p99 <= 1.2 * rawP99 : null,
      detail: "message accepted -> last socket",
    },
  ];
}
