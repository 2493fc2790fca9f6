/**
 * Gateway fan-out benchmark (loopback only, bounded): for 10, 100 and 1000 connected
 * bot sessions in one guild, a person's message is dispatched as MESSAGE_CREATE to
 * every session. Reported beside raw Bun `server.publish` of same-size frames to the
 * same number of sockets: frames/s, p50/p99 latency from the message being accepted to
 * the last socket receiving it, the ratio (target >= 0.5 at 1000), and idle memory per
 * session beyond a bare socket.
 *
 * Fairness: the sockets live in child processes (clients.ts, one per side) that count
 * frames without parsing them, for both servers alike, so the server process measured
 * does only server work; "received" means counted by a client. The children report over
 * IPC, which adds the same small delay to both latencies. Both servers are up at once
 * and the measurement alternates between them (paired.ts); each trial sets both up
 * afresh, and figures are pooled over the trials. Server CPU per frame is printed
 * beside throughput.
 *
 *   bun scripts/bench/gateway.ts [--sizes 10,100,1000] [--messages 500] [--bursts 6] [--trials 2] [--json]
 */
import { parleySide } from "./gateway-side";
import { fanoutRows, frameOf, paired, pool, rawSide, resultLine, warmUp, type SideResult } from "./paired";
import { argOf, fmt, pct, printJson, type Row } from "./lib";

const sizesAt = process.argv.indexOf("--sizes");
const SIZES = (sizesAt > 0 ? process.argv[sizesAt + 1] : "10,100,1000").split(",").map(Number);
const OPTIONS = { messages: argOf("messages", 500), bursts: argOf("bursts", 6), burst: 50 };
/** Fresh set-ups of both sides: what one set-up's socket order or heap happens to be is not the figure. */
const TRIALS = argOf("trials", 2);

interface Trial {
  parley: SideResult;
  raw: SideResult;
  mem: [number, number];
  cohorts?: number;
}

async function trial(n: number): Promise<Trial> {
  const p = await parleySide(n);
  const frameBytes = await warmUp(p.side);
  // The same mean size as Parley's frames (half of its sessions get the content-less view).
  const r = await rawSide(
    n,
    "hello",
    frameOf(frameBytes, (d) => JSON.stringify({ op: 0, s: 100, t: "MESSAGE_CREATE", d })),
  );
  const [parley, raw] = await paired(p.side, r.side, OPTIONS);
  const cohorts = p.cohorts?.();
  await p.stop();
  await r.stop();
  return { parley, raw, mem: [p.memPerSocket, r.memPerSocket], cohorts };
}

console.log(
  `gateway fan-out, Parley and raw Bun publish up at once and measured alternately: ${OPTIONS.messages} messages each one at a time for latency, ${OPTIONS.bursts} bursts of ${OPTIONS.burst} each for throughput; ${TRIALS} trials pooled`,
);
console.log(
  "clients in child processes (one per side) counting frames unparsed; latency = message accepted -> last frame counted; CPU = this process (both servers), user + system",
);
console.log(
  "Parley publishes each frame once per cohort (live sessions sharing seq and intents; half the bots here lack MESSAGE_CONTENT: 2 cohorts)\n",
);
console.log(
  "sessions | parley frames/s | raw publish frames/s | ratio | parley p50/p99 ms | raw p50/p99 ms | frame bytes | cohorts | idle KiB/session (beyond bare socket) | parley CPU us/frame | raw CPU us/frame",
);
const rows: Row[] = [];
for (const n of SIZES) {
  const trials: Trial[] = [];
  for (let i = 0; i < TRIALS; i++) trials.push(await trial(n));
  const [p, r] = [pool(trials.map((t) => t.parley)), pool(trials.map((t) => t.raw))];
  const mem = (k: 0 | 1) =>
    pct(
      trials.map((t) => t.mem[k]),
      0.5,
    );
  const idle = `${fmt((mem(0) - mem(1)) / 1024, 1)} (${fmt(mem(0) / 1024, 1)} total)`;
  console.log(resultLine(n, p, r, [String(trials[0].cohorts ?? "-").padStart(7), idle.padStart(36)]));
  rows.push(...fanoutRows("gateway", n, p, r, true));
}
printJson(rows);
process.exit(0);
