/**
 * `npm run bench`: every bench, one table. Each figure is printed beside its ceiling
 * measured in the same run (see each file for how), with the ratio (oriented so that
 * higher is better), the target and whether it is met; CPU per operation is printed
 * beside throughput where there is one. Loopback only, bounded (a few minutes), every
 * child process killed by the bench that started it. On a shared machine take the
 * best of several runs; the CPU ratios move far less than throughput does.
 *   bun scripts/bench/index.ts [--only paths,fanout,live,boot,growth,soak,tester,media,cluster,search] [--quick]
 *
 * - paths.ts: GET /users/@me, a message read, a message post to 10 sessions (wrk), and
 *   the server's memory after them, against the compiled executable;
 * - gateway.ts: MESSAGE_CREATE fan-out to 1000 sessions, beside raw Bun publish;
 * - live.ts: the people's live fan-out to 1000 people, beside raw Bun publish;
 * - boot.ts: the compiled executable's start to the first 200, and its idle memory;
 * - growth.ts: how cost grows (a 1,000,000-message channel, 10,000 members, a bot in
 *   100 servers, 100 commands, 10,000 idle sessions);
 * - soak.ts: memory under a long gateway load (100 bots x 10 sessions, the bots posting
 *   in turn), against the compiled executable; `bun scripts/bench/soak.ts --full` is the
 *   ten-minute run.
 * - tester.ts: the bot tester's costs (world reset, in-process start, say -> bot reply,
 *   the Python helper's per-test overhead), in a child process that prints its rows as JSON.
 * - media.ts: a 10 MiB upload beside Bun.write, its download beside a bare Bun.file
 *   response, and memory under 100 concurrent downloads; attachments.ts: a message with
 *   10 attachments fanned out to 1000 bot sessions beside a plain one (CPU per frame),
 *   and both beside raw publish of the same frames.
 * - cluster.ts: nodes on Postgres and Redis (started on temporary directories) beside a
 *   single SQLite node: CPU per post and per read, fan-out to 1000 sessions over two
 *   nodes, and the time from a post on node A to its frame on node B.
 * - search.ts: search in a server of 1,000,000 messages (p50/p99 through the core and over
 *   HTTP) and the index's share of a post's CPU; with live.ts --mentions, the people's
 *   live fan-out of messages that mention people and a role, beside raw publish.
 * The fan-out benches measure CPU in their own process, so they run as children and
 * report their rows as JSON (lib.ts, printJson); the others are called in-process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childRows, flagOf, fmt, printTable, type Row } from "./lib";
import { pathRows } from "./paths";
import { bootRows, buildParley } from "./boot";
import { growthRows } from "./growth";
import { SOAK, soakRows } from "./soak";

const only = (() => {
  const i = process.argv.indexOf("--only");
  return i > 0 ? process.argv[i + 1].split(",") : null;
})();
const quick = flagOf("quick");
const want = (s: string) => !only || only.includes(s);

const t0 = performance.now();
const rows: Row[] = [];
const rounds = quick ? 1 : 3;
// The executable as shipped: the request paths, the start-up and the soak run against it.
const bin = mkdtempSync(join(tmpdir(), "parley-bench-exe-"));
const binary = join(bin, "parley");
process.on("exit", () => rmSync(bin, { recursive: true, force: true }));
if (want("paths") || want("boot") || want("soak")) await buildParley(binary);
if (want("paths")) rows.push(...(await pathRows({ seconds: 3, rounds, sessions: 10, binary })));
const trials = ["--sizes", "1000", "--trials", quick ? "1" : "2"];
if (want("fanout")) rows.push(...(await childRows("gateway.ts", trials)));
if (want("live")) rows.push(...(await childRows("live.ts", trials)));
if (want("boot")) rows.push(...(await bootRows(quick ? 3 : 5, binary)));
if (want("growth")) rows.push(...(await growthRows({ seconds: quick ? 2 : 3, messages: 1_000_000, sessions: 10_000 })));
if (want("soak")) rows.push(...(await soakRows({ ...SOAK, bots: 100, sessions: 10, binary })));
if (want("media")) {
  rows.push(...(await childRows("media.ts", ["--rounds", quick ? "3" : "5"])));
  rows.push(...(await childRows("attachments.ts", ["--trials", quick ? "1" : "2"])));
}
if (want("cluster"))
  rows.push(...(await childRows("cluster.ts", ["--seconds", quick ? "2" : "3", "--posts", quick ? "100" : "200", "--sessions", "1000"])));
if (want("search")) {
  rows.push(...(await childRows("search.ts", quick ? ["--runs", "100", "--posts", "500"] : ["--runs", "300", "--posts", "2000"])));
  rows.push(...(await childRows("live.ts", [...trials, "--mentions"])));
}
if (want("tester")) rows.push(...(await childRows("tester.ts", ["--runs", quick ? "100" : "300"])));

console.log(
  `\nParley benches, ${new Date().toISOString()}, ${navigator.hardwareConcurrency} cores, ${fmt((performance.now() - t0) / 1000)} s; loopback, wrk -t2; ratio: higher is better\n`,
);
printTable(rows);
const missed = rows.filter((r) => r.met === false);
console.log(missed.length ? `\n${missed.length} target(s) not met: ${missed.map((r) => r.path).join("; ")}` : "\nevery target met");
process.exit(missed.length ? 1 : 0);
