/**
 * The bot tester's costs (issue 25), each beside an empty request to the same server (the
 * harness's GET /cursor, answered from memory: the floor any harness call pays):
 *
 * - world reset: POST /reset, median (target <= 1 ms); and reset + seed of a small world,
 *   what a test's fixture does (no target);
 * - in-process server start: startParley() with the modules loaded, median (target
 *   <= 20 ms), beside starting and stopping a bare Bun.serve;
 * - say -> bot reply: a person's "!ping" to a discord.js bot in this process, until the
 *   SDK's wait sees the bot's "pong", median (target <= 5 ms);
 * - the Python helper's per-test overhead: what its `parley` fixture does around a test
 *   (reset, seed, mark, stop bots), median (target <= 10 ms), beside an empty request
 *   from Python.
 *
 * Prints the table; with --json, one JSON line {"rows": [...]} instead (index.ts reads it).
 *   bun scripts/bench/tester.ts [--runs 200] [--json]
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Client, GatewayIntentBits } from "discord.js";
import { startParley, type RunningParley } from "../../src/testing";
import { argOf, flagOf, fmt, pct, printTable, type Row } from "./lib";

const ROOT = join(import.meta.dir, "../..");
const RUNS = argOf("runs", 200);
const WORLD = {
  users: [{ name: "alice" }, { name: "bob" }, { name: "carol" }],
  guilds: [{ name: "Lab", owner: "alice", members: ["bob", "carol"] }],
  applications: [
    {
      name: "EchoBot",
      owner: "alice",
      install: ["Lab"],
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"],
      approved_privileged: ["MESSAGE_CONTENT"],
    },
  ],
};

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const ms = (xs: number[]) => `median ${fmt(pct(xs, 0.5), 2)} ms (p99 ${fmt(pct(xs, 0.99), 2)})`;

function row(path: string, xs: number[], floor: number[], floorName: string, target: number | null, detail: string): Row {
  const median = pct(xs, 0.5);
  return {
    path,
    parley: ms(xs),
    ceiling: `${ms(floor)} (${floorName})`,
    ratio: pct(floor, 0.5) / median,
    target: target === null ? "-" : `<= ${target} ms median`,
    met: target === null ? null : median <= target,
    detail,
  };
}

async function harnessRows(p: RunningParley): Promise<Row[]> {
  const empty = await timed(RUNS, () => p.harness("GET", "/cursor"));
  const reset = await timed(RUNS, () => p.harness("POST", "/reset"));
  const world = await timed(RUNS, () => p.reset(WORLD));
  return [
    row("world reset (POST /reset)", reset, empty, "empty request", 1, `${RUNS} runs, in-process server, over HTTP`),
    row("world reset + seed (3 people, 1 server, 1 bot)", world, empty, "empty request", null, "what a test's fixture does before it"),
  ];
}

async function startRows(): Promise<Row[]> {
  const n = Math.max(10, Math.round(RUNS / 10));
  const bare: number[] = [];
  const start: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    let t0 = performance.now();
    const s = Bun.serve({ port: 0, fetch: () => new Response("") });
    if (i >= 5) bare.push(performance.now() - t0);
    await s.stop(true);
    t0 = performance.now();
    const p = await startParley();
    if (i >= 5) start.push(performance.now() - t0);
    await p.stop();
  }
  return [
    row(
      "in-process server start (startParley)",
      start,
      bare,
      "bare Bun.serve start",
      20,
      `${n} runs, modules loaded (the first start of a process loads them too)`,
    ),
  ];
}

async function roundTripRows(p: RunningParley): Promise<Row[]> {
  await p.reset(WORLD);
  // discord.js holds itself to 50 requests a second: without this every 50th round trip waits out its second.
  const rest = { globalRequestsPerSecond: 100_000 };
  const bot = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent], rest });
  bot.on("messageCreate", (m) => void (m.content === "!ping" && m.channel.isSendable() && m.channel.send("pong")));
  await p.login(bot, "EchoBot");
  const empty = await timed(RUNS, () => p.harness("GET", "/cursor"));
  const trip = await timed(RUNS, async () => {
    await p.as("alice").say("general", "!ping");
    await p.waitForEvent((e) => e.t === "MESSAGE_CREATE" && e.d.content === "pong");
  });
  await p.stopBots();
  return [
    row(
      "say -> discord.js reply (in-process)",
      trip,
      empty,
      "empty request",
      5,
      `${RUNS} runs: say, the bot's send, the SDK's wait sees it`,
    ),
  ];
}

/** The Python helper's fixture work around a test, in Python (PYTHONPATH: clients/python), as JSON. */
function pythonRows(): Row[] {
  const code = `
import json, time
from parley_testing import Parley
W = json.loads(${JSON.stringify(JSON.stringify(WORLD))})
def timed(n, fn):
    for _ in range(20): fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter(); fn(); out.append((time.perf_counter() - t0) * 1000)
    return out
with Parley() as p:
    empty = timed(${RUNS}, lambda: p.harness("GET", "/cursor"))
    def fixture():
        p.reset(W); p.mark(); p.stop_bots()
    print(json.dumps({"empty": empty, "fixture": timed(${RUNS}, fixture)}))
`;
  const r = spawnSync("/usr/bin/python3", ["-c", code], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: join(ROOT, "clients/python"), PARLEY_COMMAND: `${process.execPath} ${join(ROOT, "src/main.ts")}` },
    timeout: 300_000,
  });
  if (r.status !== 0)
    return [
      {
        path: "Python helper per-test overhead",
        parley: "n/a",
        ceiling: "-",
        ratio: null,
        target: "<= 10 ms median",
        met: false,
        detail: r.stderr.trim().split("\n").at(-1) ?? "",
      },
    ];
  const got = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { empty: number[]; fixture: number[] };
  return [
    row(
      "Python helper per-test overhead (reset, seed, mark, stop bots)",
      got.fixture,
      got.empty,
      "empty request from Python",
      10,
      `${RUNS} runs, the server a child process`,
    ),
  ];
}

// Rate limits off: the round trip sends hundreds of messages a second into one channel.
const p = await startParley({ rateLimits: "off" });
const rows: Row[] = [];
try {
  rows.push(...(await harnessRows(p)), ...(await startRows()), ...(await roundTripRows(p)), ...pythonRows());
} finally {
  await p.stop();
}
if (flagOf("json")) console.log(JSON.stringify({ rows }));
else printTable(rows);
process.exit(0);
