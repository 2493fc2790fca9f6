/**
 * Memory under a long gateway load (loopback only, bounded): the compiled executable
 * with BOTS bots x SESSIONS gateway sessions (GUILDS | GUILD_MESSAGES, in two listener
 * children) in one server, the bots posting in turn, MESSAGES messages at RATE a second.
 * Each message reaches every session, and its author's sessions see its content where
 * the others do not (spec 5.9), so every frame has two views. Resident memory of the
 * server is sampled from /proc every 200 ms from the first IDENTIFY to the last
 * delivery; the peak is the figure (target: under
 * 100 MiB, with no delivery missing), printed beside the same sockets held by a bare
 * compiled Bun server (servers/soak-raw.ts) that publishes each message's answer to all
 * of them, measured in the same run. The heap comes from the server's /metrics.
 *
 * The default run (600 messages at 10 a second) fills each ring as far as ten minutes at
 * one a second would; `--full` is the ten minutes.
 *   bun scripts/bench/soak.ts [--full] [--messages 600] [--rate 10] [--bots 100] [--sessions 10] [--binary <executable>] [--json]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildParley, compile } from "./boot";
import { startExecutable } from "./executable";
import { argOf, BENCH_DIR, flagOf, fmt, framesOf, listener, report, rssMiB, spawnLines, type Child, type Row } from "./lib";

export interface SoakOptions {
  messages: number;
  /** Messages a second. */
  rate: number;
  bots: number;
  /** Sessions per bot. */
  sessions: number;
  /** The compiled executable (the runner builds one for every bench); otherwise one is built here. */
  binary?: string;
}

/** The default run, and `--full`: a message a second for ten minutes. */
export const SOAK = { messages: 600, rate: 10 };
export const SOAK_FULL = { messages: 600, rate: 1 };

function soakWorld(bots: number) {
  return {
    users: [{ name: "alice" }],
    guilds: [{ name: "Soak", owner: "alice", channels: [{ name: "general" }] }],
    applications: Array.from({ length: bots }, (_, i) => ({
      name: `Bot${i}`,
      owner: "alice",
      intents: ["GUILDS", "GUILD_MESSAGES"],
      install: ["Soak"],
    })),
  };
}

/** The highest resident memory of each process, sampled every 200 ms until stopped (a process gone reads NaN: skipped). */
function peaks(pids: number[]): { stop(): number[] } {
  const top = pids.map((pid) => rssMiB(pid) || 0);
  const sample = () => pids.forEach((pid, i) => (top[i] = Math.max(top[i], rssMiB(pid) || 0)));
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...top];
    },
  };
}

/** The server's JavaScript heap in use, MiB, from its /metrics (prom-client's nodejs_heap_size_used_bytes). */
async function heapMiB(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN) / 1048576;
}

/** Wait (bounded) until the listeners have counted `expected` frames each; answers how many are missing in all. */
async function missingOf(ls: Child<unknown>[], expected: number[], before: number[]): Promise<number> {
  let missing = 0;
  for (let i = 0; i < 150; i++) {
    const got = await Promise.all(ls.map(async (l, k) => (await framesOf(l)).frames - before[k]));
    missing = got.reduce((n, g, k) => n + Math.max(0, expected[k] - g), 0);
    if (!missing) break;
    await Bun.sleep(100);
  }
  return missing;
}

export async function soakRows(o: SoakOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "parley-soak-"));
  const stops: (() => Promise<void>)[] = [];
  try {
    const binary = o.binary ?? join(dir, "parley");
    if (!o.binary) await buildParley(binary);
    compile(join(BENCH_DIR, "servers/soak-raw.ts"), join(dir, "soak-raw"));
    const exe = await startExecutable(binary, soakWorld(o.bots));
    stops.push(exe.stop);
    const raw = spawnLines([join(dir, "soak-raw")]);
    stops.push(async () => {
      raw.proc.kill();
      await raw.proc.exited;
    });
    const rawPort = (JSON.parse(await raw.nextLine()) as { port: number }).port;
    // From the sessions' IDENTIFYs on: the connecting burst counts as much as the messages.
    const sampled = peaks([exe.proc.pid, raw.proc.pid]);
    stops.push(async () => void sampled.stop());

    const tokens = Array.from({ length: o.bots }, (_, i) => exe.seeded.applications[`Bot${i}`].token as string);
    const half = Math.ceil(o.bots / 2);
    const sessionsOf = (ts: string[]) => ts.flatMap((t) => Array<string>(o.sessions).fill(t)).join(",");
    const ls: Child<unknown>[] = [];
    // One after the other: a thousand IDENTIFYs at once would only test the READY deadline.
    for (const list of [sessionsOf(tokens.slice(0, half)), sessionsOf(tokens.slice(half))]) {
      const l = await listener(exe.port, "parley", list);
      stops.push(l.stop);
      ls.push(l);
    }
    const rl = await listener(rawPort, "raw", String(o.bots * o.sessions));
    stops.push(rl.stop);
    await Bun.sleep(1000);
    const heap0 = await heapMiB(exe.port);
    const connected = [rssMiB(exe.proc.pid), rssMiB(raw.proc.pid)];
    const before = await Promise.all([...ls, rl].map(async (l) => (await framesOf(l)).frames));

    const channel = exe.seeded.guilds.Soak.channels.general as string;
    const t0 = performance.now();
    let failed = 0;
    for (let i = 0; i < o.messages; i++) {
      const wait = t0 + (i * 1000) / o.rate - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const r = await fetch(`http://127.0.0.1:${exe.port}/api/v10/channels/${channel}/messages`, {
        method: "POST",
        headers: { Authorization: `Bot ${tokens[i % o.bots]}`, "Content-Type": "application/json" },
        body: JSON.stringify({ content: `soak message ${i}: the quick brown fox jumps over the lazy dog` }),
      });
      const answer = await r.text();
      if (r.status !== 200) failed++;
      await (await fetch(`http://127.0.0.1:${rawPort}/publish`, { method: "POST", body: answer })).arrayBuffer();
    }
    const seconds = (performance.now() - t0) / 1000;
    const per = o.sessions * o.messages;
    const expected = [half * per, (o.bots - half) * per, o.bots * per];
    const missing = await missingOf([...ls, rl], expected, before);
    const heap1 = await heapMiB(exe.port);
    const end = rssMiB(exe.proc.pid);
    const [peak, rawPeak] = sampled.stop();
    if (failed) throw new Error(`${failed} of ${o.messages} posts failed`);

    const deliveries = expected[0] + expected[1];
    return [
      {
        path: `gateway soak: ${o.bots} bots x ${o.sessions} sessions, ${fmt(o.messages)} messages at ${fmt(o.rate)}/s (peak RSS)`,
        parley: `${fmt(peak, 1)} MiB peak`,
        ceiling: `${fmt(rawPeak, 1)} MiB (bare compiled Bun, same sockets and messages)`,
        ratio: rawPeak / peak,
        target: "< 100 MiB, 0 missing",
        met: peak < 100 && missing === 0,
        detail: `the compiled executable: ${fmt(connected[0], 1)} MiB once connected (bare: ${fmt(connected[1], 1)}), ${fmt(end, 1)} at the end; heap used ${fmt(heap0, 1)} -> ${fmt(heap1, 1)} MiB; ${fmt(missing)} of ${fmt(deliveries)} deliveries missing; ${fmt(seconds)} s; the bots post in turn`,
      },
    ];
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const base = flagOf("full") ? SOAK_FULL : SOAK;
  const at = process.argv.indexOf("--binary");
  const binary = at > 0 ? process.argv[at + 1] : undefined;
  report(
    await soakRows({
      messages: argOf("messages", base.messages),
      rate: argOf("rate", base.rate),
      bots: argOf("bots", 100),
      sessions: argOf("sessions", 10),
      binary,
    }),
  );
}
