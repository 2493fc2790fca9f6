/**
 * People's live fan-out benchmark (loopback only, bounded): with 100 and 1000 people
 * connected to /api/client/v1/live, all members of one server, one person's message
 * (POST /api/client/v1/channels/{id}/messages, handled in-process) reaches every live
 * socket as a message.created event. Reported beside raw Bun `server.publish` of frames
 * of the same size to the same number of sockets, measured in the same run: frames/s,
 * p50/p99 latency from the message being sent to the last socket receiving it, and the
 * ratio. The bots' gateway figures are scripts/bench/gateway.ts.
 *
 * Fairness: the sockets live in a child process (clients.ts) that counts
 * frames without parsing them, for both servers alike; it reports over IPC, which adds
 * the same small delay to both latencies. Sides alternate per trial; throughput is the
 * median per side, latency percentiles are over every trial's messages.
 *
 *   bun scripts/bench/live.ts [--sizes 100,1000] [--messages 200] [--trials 3]
 */
import { Clients } from "./clients";
import { createParley } from "../../src/app";
import { testConfig, SPEC_RATE_LIMITS } from "../../src/config";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  args.set(a.replace(/^--/, ""), process.argv[++i]);
}
const SIZES = (args.get("sizes") ?? "100,1000").split(",").map(Number);
const MESSAGES = Number(args.get("messages") ?? 200);
const TRIALS = Number(args.get("trials") ?? 3);
const BURST = 50;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

interface Result {
  framesPerSec: number;
  lat: number[];
  frameBytes: number;
}

/** Latency: one message at a time; throughput: bursts of BURST messages. */
async function measure(c: Clients, n: number, send: () => unknown): Promise<Result> {
  const [frames0, bytes0] = [c.frames, c.bytes];
  const lat: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const t0 = performance.now();
    const arrived = c.expect(n);
    await send();
    await arrived;
    lat.push(performance.now() - t0);
  }
  const rounds = Math.max(1, Math.floor(MESSAGES / BURST));
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const arrived = c.expect(n * BURST);
    await Promise.all(Array.from({ length: BURST }, send));
    await arrived;
  }
  const secs = (performance.now() - t0) / 1000;
  return { lat, framesPerSec: (rounds * BURST * n) / secs, frameBytes: Math.round((c.bytes - bytes0) / (c.frames - frames0)) };
}

async function benchParley(n: number): Promise<Result> {
  const p = createParley(testConfig({ harness: false, rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
  const w = p.seed({ users: [{ name: "alice" }], guilds: [{ name: "Bench", owner: "alice", channels: [{ name: "general" }] }] });
  const channelId = p.api.flakes.uuid(w.guilds.Bench.channels.general)!;
  const guildId = p.api.flakes.uuid(w.guilds.Bench.id)!;
  // The seed document caps its lists, so the crowd is made through the core.
  const tokens = p.core.transaction(() =>
    Array.from({ length: n }, (_, i) => {
      const u = p.core.users.createPerson({ username: `person${i}` });
      p.core.guilds.addMember(guildId, u.id);
      return p.core.users.openSession(u.id);
    }),
  );
  const hellos = tokens.map((token) => JSON.stringify({ op: "hello", token }));
  p.listen();
  p.clock.advance(0); // virtual time: no idle deadline fires during the run
  const c = new Clients();
  // Each socket: ready, then every other person's presence.updated as they come online.
  const ready = c.expect(n + (n * (n - 1)) / 2);
  await c.connect(`${p.api.urls.base.replace(/^http/, "ws")}/api/client/v1/live`, hellos);
  await ready;
  const post = new Request(`${p.api.urls.base}/api/client/v1/channels/${channelId}/messages`);
  const body = JSON.stringify({ content: "the quick brown fox jumps over the lazy dog ".repeat(2) });
  // Posters take turns: each person's writes are limited per window (clientapi/limits.ts),
  // and the virtual clock never ends one.
  let turn = 0;
  const auth = () => ({ Authorization: `Session ${tokens[turn++ % tokens.length]}`, "Content-Type": "application/json" });
  const r = await measure(c, n, () => p.handle(new Request(post, { method: "POST", headers: auth(), body })));
  await c.close();
  await p.stop();
  return r;
}

async function benchRaw(n: number, frameBytes: number): Promise<Result> {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("no", { status: 400 })),
    websocket: {
      open(ws) {
        ws.subscribe("all");
        ws.send("ready");
      },
      message() {},
    },
  });
  const c = new Clients();
  const ready = c.expect(n);
  await c.connect(`ws://127.0.0.1:${server.port}/`, Array.from({ length: n }, () => null));
  await ready;
  const shell = (d: string) => `{"op":"event","seq":100,"type":"message.created","data":${JSON.stringify(d)}}`;
  const frame = shell("x".repeat(Math.max(0, frameBytes - shell("").length)));
  const r = await measure(c, n, () => server.publish("all", frame));
  await c.close();
  server.stop(true);
  return { ...r, frameBytes: frame.length };
}

const fmt = (x: number, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(`people's live fan-out, ${MESSAGES} messages one at a time for latency, bursts of ${BURST} for throughput, median of ${TRIALS} trials`);
console.log("clients in a child process (same for both) counting frames unparsed; latency = message posted -> last frame counted");
console.log("Parley numbers each person's events (resume), so every socket gets its own frame; raw Bun publishes one frame to a topic\n");
console.log("people | parley frames/s | raw publish frames/s | ratio | parley p50/p99 ms | raw p50/p99 ms | frame bytes");
for (const n of SIZES) {
  const ps: Result[] = [];
  const rs: Result[] = [];
  for (let i = 0; i < TRIALS; i++) {
    ps.push(await benchParley(n));
    rs.push(await benchRaw(n, ps[i].frameBytes));
  }
  const fps = (xs: Result[]) => pct(xs.map((x) => x.framesPerSec), 50);
  const lat = (xs: Result[]) => xs.flatMap((x) => x.lat);
  const [pf, rf, pl, rl] = [fps(ps), fps(rs), lat(ps), lat(rs)];
  console.log(
    [
      String(n).padStart(6),
      fmt(pf).padStart(15),
      fmt(rf).padStart(20),
      fmt(pf / rf, 2).padStart(5),
      `${fmt(pct(pl, 50), 2)}/${fmt(pct(pl, 99), 2)}`.padStart(17),
      `${fmt(pct(rl, 50), 2)}/${fmt(pct(rl, 99), 2)}`.padStart(14),
      String(ps[0].frameBytes).padStart(11),
    ].join(" | "),
  );
}
process.exit(0);
