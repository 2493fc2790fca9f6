/**
 * Shared plumbing of the benches: child servers that announce themselves with one JSON
 * line, the server's CPU time from /proc, wrk runs (the load generator in its own
 * process, never the bottleneck), percentiles and the one results table.
 *
 * Every bench is loopback only and bounded in time; every child started here is killed
 * by the bench that started it.
 */
import { spawn, type Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const BENCH_DIR = import.meta.dir;
const BIN = join(BENCH_DIR, "../../node_modules/.bin");

export function argOf(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

export function flagOf(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

export interface Child<T> {
  proc: Subprocess<"pipe", "pipe", "inherit">;
  info: T;
  /** The next line the child prints. */
  nextLine(): Promise<string>;
  stop(): Promise<void>;
}

const MAX_UNREAD_LINES = 10_000;

/** A process whose output is read line by line. */
export interface Lines {
  proc: Subprocess<"pipe", "pipe", "inherit">;
  nextLine(): Promise<string>;
}

export function spawnLines(argv: string[]): Lines {
  const proc = spawn(argv, {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, PATH: `${BIN}:${process.env.PATH}` },
  });
  // Read all the time, not only when a line is asked for: a server that logs every
  // request would otherwise fill the pipe and block on its next write.
  const lines: string[] = [];
  let waiting = null as (() => void) | null;
  let ended = false;
  void (async () => {
    const dec = new TextDecoder();
    let buf = "";
    const reader = proc.stdout.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value);
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      // Nobody reads a server's request log: keep only the newest lines.
      if (lines.length > MAX_UNREAD_LINES) lines.splice(0, lines.length - MAX_UNREAD_LINES);
      waiting?.();
    }
    ended = true;
    waiting?.();
  })();
  const nextLine = async () => {
    while (!lines.length) {
      if (ended) throw new Error(`${argv.join(" ")} exited`);
      await new Promise<void>((r) => (waiting = r));
      waiting = null;
    }
    return lines.shift()!;
  };
  return { proc, nextLine };
}

/** Start `bun <script> ...args` and wait for the JSON line it prints once ready. */
export async function startChild<T>(script: string, args: string[] = [], bunFlags: string[] = []): Promise<Child<T>> {
  const { proc, nextLine } = spawnLines([process.execPath, ...bunFlags, join(BENCH_DIR, script), ...args]);
  const info = JSON.parse(await nextLine()) as T;
  return {
    proc,
    info,
    nextLine,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

/** A listener child (listener.ts) holding gateway sessions (`parley`: a token each) or bare sockets (`raw`: a count). */
export function listener(port: number, kind: "parley" | "raw", list: string): Promise<Child<{ ready: boolean }>> {
  return startChild<{ ready: boolean }>("listener.ts", [`ws://127.0.0.1:${port}/gateway`, kind, list]);
}

/** The MESSAGE_CREATE frames a listener child has counted so far, and their bytes. */
export async function framesOf(l: Child<unknown>): Promise<{ frames: number; bytes: number }> {
  l.proc.stdin.write("?\n");
  l.proc.stdin.flush();
  return JSON.parse(await l.nextLine());
}

/**
 * CPU seconds (user + system) a process has used so far (or one of its threads, given
 * the thread's stat file); NaN where /proc is missing.
 */
export function cpuSeconds(pid: number, file = `/proc/${pid}/stat`): number {
  try {
    const stat = readFileSync(file, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in ticks of USER_HZ 100
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds (user + system) of a process's main thread alone, where the JavaScript
 * runs; the rest of cpuSeconds() is its other threads' (the compiler's, the collector's).
 */
function mainThreadSeconds(pid: number): number {
  return cpuSeconds(pid, `/proc/${pid}/task/${pid}/stat`);
}

/** Resident set size of a process in MiB (VmRSS). */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  } catch {
    return NaN;
  }
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  non2xx: number;
  errors: number;
  p50ms: number;
  p99ms: number;
  /** Server CPU (user + system) per request over the measured run, in microseconds. */
  cpuUs: number;
  /** Seconds of load before the measured run (the warm-up, and as long as settling took). */
  warmedSeconds: number;
}

export interface WrkRun {
  url: string;
  pid: number;
  seconds: number;
  connections: number;
  /** A Lua script under scripts/bench/wrk/. */
  script: string;
  env: Record<string, string>;
  warmupSeconds?: number;
  /**
   * After the warm-up, go on warming in one-second runs (at most this many seconds more)
   * until the server's threads beside the main one take under an eighth of its CPU two
   * seconds running. While the runtime compiles a hot path its compiler threads take a
   * quarter to a half of the process's CPU, for several seconds under load when the path
   * is long (over a second of CPU for the message post); once compiled they fall to a few
   * per cent (the collector's helpers). CPU per request is a steady state's figure.
   */
  settleSeconds?: number;
  /** Called once warm, just before the measured run starts. */
  beforeMeasure?: () => Promise<void>;
}

/** Whether the server's threads beside the main one took under an eighth of its CPU while `load` ran. */
async function settledWhile(pid: number, load: () => Promise<unknown>): Promise<boolean> {
  const all0 = cpuSeconds(pid);
  const main0 = mainThreadSeconds(pid);
  await load();
  const all = cpuSeconds(pid) - all0;
  const others = all - (mainThreadSeconds(pid) - main0);
  return !(all > 0) || others < all / 8;
}

function toMs(v: string, unit: string): number {
  const n = Number(v);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : n;
}

/** wrk -t2 against one URL; the server's CPU time is read from /proc around the measured run. */
export async function wrk(run: WrkRun): Promise<WrkResult> {
  // The one tool the benches need beyond Bun: say how to get it rather than a spawn's ENOENT.
  if (!Bun.which("wrk")) throw new Error("the load generator wrk is not installed: it is Debian's package wrk (apt-get install wrk)");
  const args = (secs: number) => [
    "wrk",
    "-t2",
    `-c${run.connections}`,
    `-d${secs}s`,
    "--latency",
    "-s",
    join(BENCH_DIR, "wrk", run.script),
    run.url,
  ];
  const env = { ...process.env, ...run.env };
  const warm = (secs: number) => spawn(args(secs), { stdout: "ignore", stderr: "ignore", env }).exited;
  if (run.warmupSeconds) await warm(run.warmupSeconds);
  let warmedSeconds = run.warmupSeconds ?? 0;
  // Compilation comes in bursts: settled means two quiet seconds in a row.
  for (let quiet = 0; quiet < 2 && warmedSeconds < (run.warmupSeconds ?? 0) + (run.settleSeconds ?? 0); warmedSeconds++)
    quiet = (await settledWhile(run.pid, () => warm(1))) ? quiet + 1 : 0;
  await run.beforeMeasure?.();
  const cpu0 = cpuSeconds(run.pid);
  const p = spawn(args(run.seconds), { stdout: "pipe", stderr: "pipe", env });
  const out = await new Response(p.stdout).text();
  await p.exited;
  const cpu1 = cpuSeconds(run.pid);
  const m = /(\d+) requests in ([\d.]+)(m?s)/.exec(out);
  if (!m) throw new Error(`wrk printed no totals:\n${out}${await new Response(p.stderr).text()}`);
  const requests = Number(m[1]);
  const seconds = m[3] === "ms" ? Number(m[2]) / 1000 : Number(m[2]);
  const lat = (q: string) => {
    const l = new RegExp(`^\\s*${q}%\\s+([\\d.]+)(us|ms|s|m)`, "m").exec(out);
    return l ? toMs(l[1], l[2]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    non2xx,
    errors,
    p50ms: lat("50"),
    p99ms: lat("99"),
    cpuUs: ((cpu1 - cpu0) * 1e6) / requests,
    warmedSeconds,
  };
}

export function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

/** One line of the table every bench prints into. */
export interface Row {
  path: string;
  /** What Parley measured (formatted), and the number the ratio uses. */
  parley: string;
  ceiling: string;
  /** Parley's figure relative to the ceiling, oriented so that higher is better; null where there is no ceiling. */
  ratio: number | null;
  target: string;
  met: boolean | null;
  /** CPU per operation and throughput, side by side, when the row has them. */
  detail?: string;
}

export function printTable(rows: Row[]): void {
  const head = ["path", "Parley", "ceiling", "ratio", "target", "met", "detail"];
  const cells = rows.map((r) => [
    r.path,
    r.parley,
    r.ceiling,
    r.ratio === null ? "-" : r.ratio.toFixed(2),
    r.target,
    r.met === null ? "-" : r.met ? "yes" : "NO",
    r.detail ?? "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const c of cells) console.log(line(c));
}

/**
 * A bench module's results for the runner (index.ts): run as a child with `--json`, it
 * prints them as its last line, `{"rows": [...]}`, after whatever it prints for people.
 */
export function printJson(rows: Row[]): void {
  if (flagOf("json")) console.log(JSON.stringify({ rows }));
}

/** A bench module's table when run alone, then its JSON line when asked (printJson). */
export function report(rows: Row[]): void {
  printTable(rows);
  printJson(rows);
}

/** Run `bun <script> ...args --json` (a bench module) and answer the rows of its last line. */
export async function childRows(script: string, args: string[] = []): Promise<Row[]> {
  const p = spawn([process.execPath, join(BENCH_DIR, script), ...args, "--json"], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`${script} failed:\n${out}`);
  const last = out.trimEnd().split("\n").pop() ?? "";
  try {
    return (JSON.parse(last) as { rows: Row[] }).rows;
  } catch {
    throw new Error(`${script} ended without its JSON line:\n${out}`);
  }
}

export const fmt = (x: number, d = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d }) : "n/a";

/** Several rounds, alternating sides so drift on a shared machine hits both; the best (lowest CPU) of each kept. */
export function bestByCpu<R extends WrkResult>(rs: R[]): R {
  return rs.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a), rs[0]);
}

export function bestByRps<R extends WrkResult>(rs: R[]): R {
  return rs.reduce((a, b) => (b.rps > a.rps ? b : a), rs[0]);
}
