/**
 * `npm run bench`: every bench, one table. Each figure is printed beside its ceiling
 * measured in the same run (see each file for how), with the ratio (oriented so that
 * higher is better), the target and whether it is met; CPU per operation is printed
 * beside throughput where there is one. Loopback only, bounded (a few minutes), every
 * child process killed by the bench that started it. On a shared machine take the
 * best of several runs; the CPU ratios move far less than throughput does.
 *   bun scripts/bench/index.ts [--only paths,fanout,live,boot,growth,tester] [--quick]
 *
 * - paths.ts: GET /users/@me, a message read, a message post to 10 sessions (wrk), and
 *   the server's memory after them, against the compiled executable;
 * - gateway.ts: MESSAGE_CREATE fan-out to 1000 sessions, beside raw Bun publish;
 * - live.ts: the people's live fan-out to 1000 people, beside raw Bun publish;
 * - boot.ts: the compiled executable's start to the first 200, and its idle memory;
 * - growth.ts: how cost grows (a 1,000,000-message channel, 10,000 members, a bot in
 *   100 servers, 100 commands, 10,000 idle sessions);
 * - tester.ts: the bot tester's costs (world reset, in-process start, say -> bot reply,
 *   the Python helper's per-test overhead), in a child process that prints its rows as JSON.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR, flagOf, fmt, printTable, type Row } from "./lib";
import { pathRows } from "./paths";
import { bootRows, buildParley } from "./boot";
import { growthRows } from "./growth";

const only = (() => {
  const i = process.argv.indexOf("--only");
  return i > 0 ? process.argv[i + 1].split(",") : null;
})();
const quick = flagOf("quick");
const want = (s: string) => !only || only.includes(s);

/**
 * A fan-out bench's table line for `size`: parley frames/s, raw frames/s, ratio, parley
 * p50/p99, raw p50/p99, and (the last two cells) each side's server CPU per frame.
 */
async function fanout(script: string, size: number, trials: number): Promise<{ parley: number; raw: number; p99: number; rawP99: number; p50: number; rawP50: number; cpu: number; rawCpu: number }> {
  const p = Bun.spawn([process.execPath, join(BENCH_DIR, script), "--sizes", String(size), "--trials", String(trials)], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`${script} failed:\n${out}`);
  const line = out.split("\n").find((l) => new RegExp(`^\\s*${size}\\s*\\|`).test(l));
  if (!line) throw new Error(`${script} printed no line for ${size}:\n${out}`);
  const cells = line.split("|").map((c) => c.trim());
  const num = (s: string) => Number(s.replace(/,/g, ""));
  const [p50, p99] = cells[4].split("/").map(Number);
  const [rawP50, rawP99] = cells[5].split("/").map(Number);
  const [cpu, rawCpu] = cells.slice(-2).map(num);
  return { parley: num(cells[1]), raw: num(cells[2]), p50, p99, rawP50, rawP99, cpu, rawCpu };
}

function fanoutRows(name: string, size: number, f: Awaited<ReturnType<typeof fanout>>, targets: boolean): Row[] {
  return [
    {
      path: `${name} fan-out, ${fmt(size)} sockets (frames/s)`,
      parley: `${fmt(f.parley)} frames/s`,
      ceiling: `${fmt(f.raw)} frames/s (raw Bun publish)`,
      ratio: f.parley / f.raw,
      target: targets ? ">= 0.7 (keep)" : "-",
      met: targets ? f.parley / f.raw >= 0.7 : null,
      detail: `server CPU ${fmt(f.cpu, 2)} us/frame (raw ${fmt(f.rawCpu, 2)}); sides measured alternately, trials pooled`,
    },
    {
      path: `${name} fan-out, ${fmt(size)} sockets (p99 latency)`,
      parley: `p99 ${fmt(f.p99, 1)} ms (p50 ${fmt(f.p50, 1)})`,
      ceiling: `p99 ${fmt(f.rawP99, 1)} ms (p50 ${fmt(f.rawP50, 1)})`,
      ratio: f.rawP99 / f.p99,
      target: targets ? "p99 <= 1.2x raw" : "-",
      met: targets ? f.p99 <= 1.2 * f.rawP99 : null,
      detail: "message accepted -> last socket",
    },
  ];
}

/** A bench run as a child process that prints {"rows": [...]} as its last line. */
async function childRows(script: string, args: string[]): Promise<Row[]> {
  const p = Bun.spawn([process.execPath, join(BENCH_DIR, script), "--json", ...args], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`${script} failed:\n${out}`);
  return (JSON.parse(out.trim().split("\n").at(-1)!) as { rows: Row[] }).rows;
}

const t0 = performance.now();
const rows: Row[] = [];
const rounds = quick ? 1 : 3;
// The executable as shipped: the request paths and the start-up run against it.
const bin = mkdtempSync(join(tmpdir(), "parley-bench-exe-"));
const binary = join(bin, "parley");
process.on("exit", () => rmSync(bin, { recursive: true, force: true }));
if (want("paths") || want("boot")) await buildParley(binary);
if (want("paths")) rows.push(...(await pathRows({ seconds: 3, rounds, sessions: 10, binary })));
if (want("fanout")) rows.push(...fanoutRows("gateway", 1000, await fanout("gateway.ts", 1000, quick ? 1 : 2), true));
if (want("live")) rows.push(...fanoutRows("people's live", 1000, await fanout("live.ts", 1000, quick ? 1 : 2), false));
if (want("boot")) rows.push(...(await bootRows(quick ? 3 : 5, binary)));
if (want("growth")) rows.push(...(await growthRows({ seconds: quick ? 2 : 3, messages: 1_000_000, sessions: 10_000 })));
if (want("tester")) rows.push(...(await childRows("tester.ts", ["--runs", quick ? "100" : "300"])));

console.log(`\nParley benches, ${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, ${fmt((performance.now() - t0) / 1000)} s; loopback, wrk -t2; ratio: higher is better\n`);
printTable(rows);
const missed = rows.filter((r) => r.met === false);
console.log(missed.length ? `\n${missed.length} target(s) not met: ${missed.map((r) => r.path).join("; ")}` : "\nevery target met");
process.exit(missed.length ? 1 : 0);
