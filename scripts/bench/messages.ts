/**
 * Message post benchmark (loopback only, bounded in time and count). Both sides run the
 * same way: a server in a child process, this process holding SESSIONS gateway sockets
 * and one closed-loop HTTP client of CONCURRENCY workers posting to CHANNELS channels.
 *
 * - Parley: POST /api/v10/channels/{id}/messages as a bot (rate limits off), received as
 *   MESSAGE_CREATE by SESSIONS real bot sessions (IDENTIFY with GUILD_MESSAGES).
 * - Ceiling: a raw Bun.serve that parses the same JSON body, inserts a row into SQLite
 *   (file, WAL, synchronous NORMAL, one transaction) and publishes a frame of the same
 *   size as Parley's to SESSIONS Bun WebSockets.
 *
 * A message is done when its POST has answered and the last session has its frame
 * (matched by nonce); a worker then posts the next. Latency: POST sent -> the last
 * session receiving the frame. Target: Parley >= 0.5 of the ceiling's throughput.
 * The server's CPU time per message (from /proc, user + system) is printed beside it:
 * on a shared machine it moves far less than throughput does. Sides alternate for
 * --rounds rounds and the best round of each side is compared.
 *
 *   bun scripts/bench/messages.ts [--seconds 3] [--concurrency 32] [--sessions 10] [--channels 50] [--max 50000]
 *     [--profile DIR]   write a CPU profile of the Parley child into DIR
 */
import { spawn } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = Math.min(arg("seconds", 3), 60);
const ROUNDS = Math.min(arg("rounds", 2), 10);
const CONCURRENCY = Math.min(arg("concurrency", 32), 256);
const SESSIONS = Math.min(arg("sessions", 10), 100);
const CHANNELS = Math.min(arg("channels", 50), 500);
const MAX_MESSAGES = Math.min(arg("max", 50_000), 200_000);
const PROFILE_DIR = (() => {
  const i = process.argv.indexOf("--profile");
  return i > 0 ? process.argv[i + 1] : null;
})();
const WARMUP_MS = 500;
const FANOUT_TIMEOUT_MS = 10_000;
const CONTENT = "the quick brown fox jumps over the lazy dog, message ";

interface Child {
  proc: ReturnType<typeof spawn>;
  port: number;
  token: string;
  tokens: string[];
  channels: string[];
}

async function startChild(mode: string, frameBytes = 0): Promise<Child> {
  const prof = PROFILE_DIR && mode === "parley" ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const proc = spawn(["bun", ...prof, join(import.meta.dir, "messages-server.ts"), mode, String(CHANNELS), String(SESSIONS), String(frameBytes)], {
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, PATH: `${join(import.meta.dir, "../../node_modules/.bin")}:${process.env.PATH}` },
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${mode} server exited`);
    buf += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, ...(JSON.parse(buf.split("\n")[0]) as Omit<Child, "proc">) };
}

interface Pending {
  t0: number;
  counted: boolean;
  got: number;
  done: () => void;
}

/** Frames carrying a nonce are counted per nonce; the nonce is found without parsing the frame. */
class Fanout {
  pending = new Map<string, Pending>();
  latencies: number[] = [];
  frameBytes: number[] = [];

  onFrame(data: string): boolean {
    const at = data.indexOf('"nonce":"');
    if (at < 0) return false;
    const start = at + 9;
    const nonce = data.slice(start, data.indexOf('"', start));
    const p = this.pending.get(nonce);
    if (!p) return true;
    if (this.frameBytes.length < 1000) this.frameBytes.push(data.length);
    if (++p.got === SESSIONS) {
      this.pending.delete(nonce);
      if (p.counted) this.latencies.push(performance.now() - p.t0);
      p.done();
    }
    return true;
  }

  expect(nonce: string, t0: number, counted: boolean): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(nonce);
        resolve(false);
      }, FANOUT_TIMEOUT_MS);
      this.pending.set(nonce, {
        t0,
        counted,
        got: 0,
        done: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
  }
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`socket to ${url} failed`));
  });
}

/** SESSIONS bot sessions: HELLO, IDENTIFY (GUILDS | GUILD_MESSAGES), READY; heartbeats kept. */
async function parleySessions(c: Child, fan: Fanout): Promise<() => void> {
  const sockets: WebSocket[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  await Promise.all(
    c.tokens.map(async (token) => {
      const ws = await open(`ws://127.0.0.1:${c.port}/gateway`);
      sockets.push(ws);
      await new Promise<void>((ready, fail) => {
        const t = setTimeout(() => fail(new Error("no READY within 10 s")), 10_000);
        let seq: number | null = null;
        ws.onmessage = (ev) => {
          const data = String(ev.data);
          if (fan.onFrame(data)) return;
          const f = JSON.parse(data) as { op: number; t: string | null; s: number | null; d: any };
          if (f.s !== null) seq = f.s;
          if (f.op === 10) {
            timers.push(setInterval(() => ws.send(JSON.stringify({ op: 1, d: seq })), f.d.heartbeat_interval * 0.9));
            ws.send(JSON.stringify({ op: 2, d: { token, intents: (1 << 0) | (1 << 9), properties: { os: "linux", browser: "bench", device: "bench" } } }));
          } else if (f.op === 0 && f.t === "READY") {
            clearTimeout(t);
            ready();
          }
        };
      });
    }),
  );
  await Bun.sleep(200); // let GUILD_CREATE frames drain before timing
  return () => {
    for (const t of timers) clearInterval(t);
    for (const ws of sockets) ws.close();
  };
}

async function rawSessions(c: Child, fan: Fanout): Promise<() => void> {
  const sockets = await Promise.all(Array.from({ length: SESSIONS }, () => open(`ws://127.0.0.1:${c.port}/gateway`)));
  for (const ws of sockets) ws.onmessage = (ev) => void fan.onFrame(String(ev.data));
  return () => {
    for (const ws of sockets) ws.close();
  };
}

/** CPU seconds (user + system) a process has used so far; null where /proc is missing. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

interface Result {
  cpuUsPerMessage: number | null;
  perSecond: number;
  p50: number;
  p99: number;
  postP50: number;
  postP99: number;
  messages: number;
  failures: number;
  frameBytes: number;
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

async function load(c: Child, fan: Fanout, tag: string): Promise<Result> {
  const headers = { Authorization: `Bot ${c.token}`, "Content-Type": "application/json" };
  const url = (i: number) => `http://127.0.0.1:${c.port}/api/v10/channels/${c.channels[i % c.channels.length]}/messages`;
  let next = 0;
  let failures = 0;
  let measuring = false;
  let done = 0;
  const postLat: number[] = [];
  const warmEnd = performance.now() + WARMUP_MS;
  let end = warmEnd + SECONDS * 1000;
  let tStart = 0;
  let cpu0: number | null = null;
  const worker = async () => {
    while (performance.now() < end && done < MAX_MESSAGES) {
      if (!measuring && performance.now() >= warmEnd) {
        measuring = true;
        tStart = performance.now();
        cpu0 = cpuSeconds(c.proc.pid);
      }
      const counted = measuring;
      const i = next++;
      const nonce = `${tag}${i}`;
      const t0 = performance.now();
      const fanned = fan.expect(nonce, t0, counted);
      const res = await fetch(url(i), { method: "POST", headers, body: JSON.stringify({ content: CONTENT + i, nonce }) });
      await res.arrayBuffer();
      if (counted) postLat.push(performance.now() - t0);
      const ok = res.status === 200 && (await fanned);
      if (!counted) continue;
      if (ok) done++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - tStart) / 1000;
  const cpu1 = cpuSeconds(c.proc.pid);
  end = 0;
  return {
    cpuUsPerMessage: cpu0 !== null && cpu1 !== null && done ? ((cpu1 - cpu0) * 1e6) / done : null,
    perSecond: done / seconds,
    p50: pct(fan.latencies, 0.5),
    p99: pct(fan.latencies, 0.99),
    postP50: pct(postLat, 0.5),
    postP99: pct(postLat, 0.99),
    messages: done,
    failures,
    frameBytes: fan.frameBytes.length ? Math.round(fan.frameBytes.reduce((a, b) => a + b, 0) / fan.frameBytes.length) : 0,
  };
}

async function side(mode: "parley" | "raw", frameBytes: number): Promise<Result> {
  const child = await startChild(mode, frameBytes);
  const fan = new Fanout();
  let close: (() => void) | null = null;
  try {
    close = mode === "parley" ? await parleySessions(child, fan) : await rawSessions(child, fan);
    return await load(child, fan, mode[0]);
  } finally {
    close?.();
    child.proc.kill();
    await child.proc.exited;
  }
}

const best = (rs: Result[]) => rs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const parleys: Result[] = [];
const raws: Result[] = [];
for (let r = 0; r < ROUNDS; r++) {
  parleys.push(await side("parley", 0));
  raws.push(await side("raw", parleys[0].frameBytes));
}
const parley = best(parleys);
const raw = best(raws);
const f = (n: number) => n.toFixed(2);
const cpu = (r: Result) => (r.cpuUsPerMessage === null ? "n/a" : `${r.cpuUsPerMessage.toFixed(0)} us`);
const line = (name: string, r: Result) =>
  `${name} ${r.perSecond.toFixed(0).padStart(6)} msg/s   POST->${SESSIONS}th session p50 ${f(r.p50)} ms p99 ${f(r.p99)} ms   POST answer p50 ${f(r.postP50)} ms p99 ${f(r.postP99)} ms   server CPU/msg ${cpu(r)}   frame ${r.frameBytes} B   messages ${r.messages}${r.failures ? `   FAILURES ${r.failures}` : ""}`;
console.log(`POST /channels/{id}/messages -> MESSAGE_CREATE to ${SESSIONS} sessions; ${CONCURRENCY} concurrent posters over ${CHANNELS} channels, ${SECONDS} s x ${ROUNDS} rounds each (best shown), loopback, file-backed WAL`);
console.log(`rounds msg/s: Parley ${parleys.map((r) => r.perSecond.toFixed(0)).join(", ")}; raw ${raws.map((r) => r.perSecond.toFixed(0)).join(", ")}`);
console.log(line("raw Bun+SQLite", raw));
console.log(line("Parley        ", parley));
const ratio = parley.perSecond / raw.perSecond;
console.log(`ratio Parley/ceiling: ${ratio.toFixed(3)} (target >= 0.50) ${ratio >= 0.5 ? "MET" : "NOT MET"}`);
if (parley.cpuUsPerMessage && raw.cpuUsPerMessage)
  console.log(`server CPU per message, ceiling/Parley: ${(raw.cpuUsPerMessage / parley.cpuUsPerMessage).toFixed(3)}`);
const failed = [...parleys, ...raws].some((r) => r.failures);
process.exit(failed ? 1 : 0);
