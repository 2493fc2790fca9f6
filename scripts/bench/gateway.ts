/**
 * Gateway fan-out benchmark (loopback only, bounded): for 10, 100 and 1000 connected
 * bot sessions in one guild, a person's message is dispatched as MESSAGE_CREATE to
 * every session. Reported beside raw Bun `server.publish` of same-size frames to the
 * same number of sockets: frames/s, p50/p99 latency from the message being accepted to
 * the last socket receiving it, the ratio (target >= 0.5 at 1000), and idle memory per
 * session beyond a bare socket. Clients run in this process for both servers, so
 * their cost is the same on both sides of the ratio.
 *
 *   bun scripts/bench/gateway.ts [--sizes 10,100,1000] [--messages 200]
 */
import { createParley, type Parley } from "../../src/app";
import { testConfig, SPEC_RATE_LIMITS } from "../../src/config";
import { INTENTS } from "../../src/core/permissions";
import { createApplicationWithToken, rotateToken } from "../../src/botapi/operator";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ""), process.argv[i + 1]);
const SIZES = (args.get("sizes") ?? "10,100,1000").split(",").map(Number);
const MESSAGES = Number(args.get("messages") ?? 200);
const BURST = 50;
const CONNECT_BATCH = 100;

interface Fleet {
  sockets: WebSocket[];
  received: number;
  target: number;
  onTarget: (() => void) | null;
}

function fleet(): Fleet {
  return { sockets: [], received: 0, target: Infinity, onTarget: null };
}

/** Count frames without parsing them: the client's cost must not dominate the server's. */
function attach(f: Fleet, ws: WebSocket) {
  ws.onmessage = () => {
    if (++f.received >= f.target && f.onTarget) {
      const cb = f.onTarget;
      f.onTarget = null;
      cb();
    }
  };
}

function expect(f: Fleet, n: number): Promise<void> {
  f.target = f.received + n;
  if (f.received >= f.target) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out waiting for ${n} frames (${f.target - f.received} missing)`)), 30_000);
    f.onTarget = () => {
      clearTimeout(t);
      resolve();
    };
  });
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error("socket failed"));
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function heap(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
}

interface Result {
  framesPerSec: number;
  p50: number;
  p99: number;
  memPerSocket: number;
  frameBytes: number;
}

/** Latency: one message at a time; throughput: bursts of BURST messages. */
async function measure(f: Fleet, n: number, send: () => void): Promise<{ lat: number[]; framesPerSec: number }> {
  const lat: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const done = expect(f, n);
    const t0 = performance.now();
    send();
    await done;
    lat.push(performance.now() - t0);
  }
  const rounds = Math.max(1, Math.floor(MESSAGES / BURST));
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const done = expect(f, n * BURST);
    for (let i = 0; i < BURST; i++) send();
    await done;
  }
  const secs = (performance.now() - t0) / 1000;
  return { lat, framesPerSec: (rounds * BURST * n) / secs };
}

async function benchParley(n: number): Promise<Result> {
  const p: Parley = createParley(testConfig({ harness: false, rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
  const w = p.seed({ users: [{ name: "alice", admin: true }], guilds: [{ name: "Bench", owner: "alice", channels: [{ name: "general" }] }] });
  const channelId = p.api.flakes.uuid(w.guilds.Bench.channels.general)!;
  const guildId = p.api.flakes.uuid(w.guilds.Bench.id)!;
  const alice = p.api.flakes.uuid(w.users.alice.id)!;
  // The seed document caps applications at 100, so the fleet is built through the core.
  const apps = Array.from({ length: n }, (_, i) => {
    const { app } = createApplicationWithToken(p.api, { ownerId: alice, name: `Bot${i}`, intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT });
    // Half the bots hold MESSAGE_CONTENT: two views of every message, as in real guilds.
    if (i % 2 === 0) p.core.apps.approvePrivileged(app.id, null, INTENTS.MESSAGE_CONTENT);
    const token = rotateToken(p.api, app.id);
    p.core.apps.install(app.id, guildId, alice);
    return { token, content: i % 2 === 0 };
  });
  p.listen();
  p.clock.advance(0); // virtual time: no heartbeat deadline fires during the run

  const f = fleet();
  const before = heap();
  for (let i = 0; i < n; i += CONNECT_BATCH) {
    const batch = await Promise.all(
      apps.slice(i, i + CONNECT_BATCH).map(async (a) => {
        const ws = await openSocket(p.api.urls.gateway);
        attach(f, ws);
        const intents = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | (a.content ? INTENTS.MESSAGE_CONTENT : 0);
        ws.send(JSON.stringify({ op: 2, d: { token: a.token, intents } }));
        return ws;
      }),
    );
    f.sockets.push(...batch);
  }
  await expect(f, 0);
  // HELLO + READY + GUILD_CREATE per socket.
  while (f.received < n * 3) await Bun.sleep(10);
  const mem = (heap() - before) / n;

  let frameBytes = 0;
  const probe = f.sockets[0];
  const prev = probe.onmessage;
  probe.onmessage = (ev) => {
    frameBytes = String(ev.data).length;
    (prev as any)?.call(probe, ev);
  };
  const text = "the quick brown fox jumps over the lazy dog ".repeat(2);
  const { lat, framesPerSec } = await measure(f, n, () => {
    p.core.messages.create({ channelId, authorId: alice, content: text });
  });
  for (const ws of f.sockets) ws.close();
  await p.stop();
  return { framesPerSec, p50: pct(lat, 50), p99: pct(lat, 99), memPerSocket: mem, frameBytes };
}

async function benchRaw(n: number, frameBytes: number): Promise<Result> {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req, srv) {
      return srv.upgrade(req) ? undefined : new Response("no", { status: 400 });
    },
    websocket: {
      open(ws) {
        ws.subscribe("all");
        ws.send("hello");
      },
      message() {},
    },
  });
  const f = fleet();
  const before = heap();
  for (let i = 0; i < n; i += CONNECT_BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, n - i) }, () => openSocket(`ws://127.0.0.1:${server.port}/`)));
    for (const ws of batch) attach(f, ws);
    f.sockets.push(...batch);
  }
  while (f.received < n) await Bun.sleep(10);
  const mem = (heap() - before) / n;
  const frame = JSON.stringify({ op: 0, s: 1, t: "MESSAGE_CREATE", d: "x".repeat(Math.max(0, frameBytes - 48)) });
  const { lat, framesPerSec } = await measure(f, n, () => {
    server.publish("all", frame);
  });
  for (const ws of f.sockets) ws.close();
  server.stop(true);
  return { framesPerSec, p50: pct(lat, 50), p99: pct(lat, 99), memPerSocket: mem, frameBytes: frame.length };
}

const fmt = (x: number, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

console.log(`gateway fan-out, ${MESSAGES} messages one at a time for latency, bursts of ${BURST} for throughput\n`);
console.log("sessions | parley frames/s | raw publish frames/s | ratio | parley p50/p99 ms | raw p50/p99 ms | frame bytes | idle KiB/session (beyond bare socket)");
for (const n of SIZES) {
  const parley = await benchParley(n);
  const raw = await benchRaw(n, parley.frameBytes);
  const ratio = parley.framesPerSec / raw.framesPerSec;
  console.log(
    [
      String(n).padStart(8),
      fmt(parley.framesPerSec).padStart(15),
      fmt(raw.framesPerSec).padStart(20),
      fmt(ratio, 2).padStart(5),
      `${fmt(parley.p50, 2)}/${fmt(parley.p99, 2)}`.padStart(17),
      `${fmt(raw.p50, 2)}/${fmt(raw.p99, 2)}`.padStart(14),
      String(parley.frameBytes).padStart(11),
      `${fmt((parley.memPerSocket - raw.memPerSocket) / 1024, 1)} (${fmt(parley.memPerSocket / 1024, 1)} total)`,
    ].join(" | "),
  );
}
process.exit(0);
