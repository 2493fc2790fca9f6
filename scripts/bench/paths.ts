/**
 * The request paths, each measured with wrk (2 threads, its own process, loopback,
 * bounded) beside its ceiling in the same run, with the server's CPU time per request
 * from /proc (user + system):
 * - GET /users/@me: throughput against raw Bun answering the same bytes (target >= 0.6);
 * - GET /channels/{id}/messages/{id}: CPU per request against the ceiling app's
 *   authenticated point select (servers/ceiling.ts; target ceiling/Parley >= 0.5);
 * - POST /channels/{id}/messages, received by SESSIONS gateway sessions: CPU per
 *   request against the ceiling app that authenticates (the token row read, its digest
 *   compared), validates, inserts (WAL) and publishes to as many sockets (target
 *   ceiling/Parley >= 0.8), and against the minimal app (servers/ceiling.ts minimal: the
 *   token in a Map, a compiled TypeBox check, one WAL insert, one publish, the JSON
 *   answer; target >= 0.8, issue 30), and, to say what that gap is made of, against the
 *   minimal app with messages indexed by (channel_id, id) (no target). Every frame is
 *   counted by a listener process; a run whose frames fall short fails. Each side posts
 *   until its compiler threads have been quiet for two seconds running (lib.ts,
 *   settleSeconds; at most 20 s) before the measured run: Parley's post runs far more
 *   code than the ceilings, and compiling it under load takes seconds and over a second
 *   of CPU, paid once per start (and again after each shrink, src/lifecycle.ts).
 * Sides alternate for ROUNDS rounds (twice as many for /users/@me); the best round of each side is kept.
 * The server's resident memory ten seconds after all of it is reported last (target: 80 MiB).
 *   bun scripts/bench/paths.ts [--seconds 3] [--rounds 2] [--sessions 10] [--only me,read,post] [--json]
 */
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { startExecutable } from "./executable";
import { benchWorld, finishWorld, type BenchInfo } from "./servers/world";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  argOf,
  bestByCpu,
  bestByRps,
  fmt,
  framesOf,
  listener,
  report,
  rssMiB,
  startChild,
  wrk,
  type Child,
  type Row,
  type WrkResult,
} from "./lib";

type ParleyInfo = BenchInfo;
interface CeilingInfo {
  port: number;
  token: string;
  channels: string[];
  messages: string[];
}

export interface PathOptions {
  seconds: number;
  rounds: number;
  sessions: number;
  /** Which paths to run (all when absent): "me", "read", "post". */
  only?: string[];
  /** Measure this compiled executable (seeded with --seed) instead of Parley from source. */
  binary?: string;
}

/** The compiled executable serving the bench world (executable.ts). */
async function startBinary(binary: string, channels: number, sessions: number): Promise<Child<ParleyInfo>> {
  const exe = await startExecutable(binary, benchWorld(channels, sessions));
  try {
    return { proc: exe.proc, info: await finishWorld(exe.port, exe.seeded, sessions), nextLine: exe.nextLine, stop: exe.stop };
  } catch (e) {
    await exe.stop();
    throw e;
  }
}

const base = (port: number) => `http://127.0.0.1:${port}`;

/** Post with wrk, then wait (bounded) until every session has every frame. */
async function post(
  pid: number,
  port: number,
  token: string,
  channels: string[],
  l: Child<unknown>,
  sessions: number,
  seconds: number,
): Promise<WrkResult & { missing: number }> {
  let before = 0;
  const r = await wrk({
    url: base(port),
    pid,
    seconds,
    connections: 32,
    script: "post.lua",
    env: { BOT_TOKEN: token, CHANNELS: channels.join(",") },
    warmupSeconds: 1,
    // The post runs the most code of any path: measured once its compilation is done.
    settleSeconds: 20,
    beforeMeasure: async () => {
      before = (await framesOf(l)).frames;
    },
  });
  let got = 0;
  for (let i = 0; i < 100; i++) {
    got = (await framesOf(l)).frames - before;
    if (got >= r.requests * sessions) break;
    await Bun.sleep(50);
  }
  // Counted from the end of the warm-up: at most the frames of its last requests still on
  // their way count twice; the measured run's requests all fan out.
  return { ...r, missing: Math.max(0, r.requests * sessions - got) };
}

export async function pathRows(o: PathOptions): Promise<Row[]> {
  const tmp = mkdtempSync(join(tmpdir(), "parley-bench-sample-"));
  const parley = o.binary
    ? await startBinary(o.binary, 50, o.sessions)
    : await startChild<ParleyInfo>("servers/parley.ts", ["50", String(o.sessions)]);
  const rssStart = rssMiB(parley.proc.pid);
  const children: Child<unknown>[] = [parley];
  try {
    const P = parley.info;
    const auth = { Authorization: `Bot ${P.token}` };
    // The bytes the ceilings answer: Parley's own answers for the same requests.
    const me = await fetch(`${base(P.port)}/api/v10/users/@me`, { headers: auth });
    const headers: Record<string, string> = {};
    me.headers.forEach((v, k) => (headers[k] = v));
    writeFileSync(join(tmp, "me.json"), JSON.stringify({ body: await me.text(), headers }));
    const readUrl = (port: number, c: string, m: string) => `${base(port)}/api/v10/channels/${c}/messages/${m}`;
    const readBytes = (await (await fetch(readUrl(P.port, P.channels[0], P.messages[0]), { headers: auth })).text()).length;
    const pl = await listener(P.port, "parley", P.tokens.join(","));
    children.push(pl);
    const sent = await fetch(`${base(P.port)}/api/v10/channels/${P.channels[0]}/messages`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ content: "the quick brown fox jumps over the lazy dog, message 1", nonce: "w1-1" }),
    });
    const postBytes = (await sent.text()).length;
    await Bun.sleep(200);
    const f = await framesOf(pl);
    const frameBytes = Math.round(f.bytes / Math.max(1, f.frames));

    const raw = await startChild<{ port: number }>("servers/ceiling.ts", ["raw", join(tmp, "me.json")]);
    children.push(raw);
    const app = await startChild<CeilingInfo>("servers/ceiling.ts", ["app", String(Math.max(readBytes, postBytes)), String(frameBytes)]);
    children.push(app);
    const cl = await listener(app.info.port, "raw", String(o.sessions));
    children.push(cl);
    const minimal = await startChild<CeilingInfo>("servers/ceiling.ts", ["minimal"]);
    children.push(minimal);
    const ml = await listener(minimal.info.port, "raw", String(o.sessions));
    children.push(ml);
    const indexed = await startChild<CeilingInfo>("servers/ceiling.ts", ["minimal-indexed"]);
    children.push(indexed);
    const il = await listener(indexed.info.port, "raw", String(o.sessions));
    children.push(il);

    const res: Record<string, WrkResult[]> = {
      me: [],
      meRaw: [],
      read: [],
      readCeil: [],
      post: [],
      postCeil: [],
      postMin: [],
      postIdx: [],
    };
    const missing: number[] = [];
    const get = (pid: number, url: string, token: string) =>
      wrk({ url, pid, seconds: o.seconds, connections: 64, script: "auth.lua", env: { BOT_TOKEN: token }, warmupSeconds: 1 });
    const want = (k: string) => !o.only || o.only.includes(k);
    // The cheap read is judged on throughput, which a neighbour's busy spell moves most:
    // it gets twice the rounds, each side's best kept.
    for (let r = 0; r < o.rounds * 2; r++) {
      if (want("me")) {
        res.me.push(await get(parley.proc.pid, `${base(P.port)}/api/v10/users/@me`, P.token));
        res.meRaw.push(await get(raw.proc.pid, `${base(raw.info.port)}/api/v10/users/@me`, P.token));
      }
      if (r >= o.rounds) continue;
      if (want("read")) {
        res.read.push(await get(parley.proc.pid, readUrl(P.port, P.channels[0], P.messages[0]), P.token));
        res.readCeil.push(await get(app.proc.pid, readUrl(app.info.port, app.info.channels[0], app.info.messages[0]), app.info.token));
      }
      if (want("post")) {
        const pp = await post(parley.proc.pid, P.port, P.token, P.channels, pl, o.sessions, o.seconds);
        const cp = await post(app.proc.pid, app.info.port, app.info.token, app.info.channels, cl, o.sessions, o.seconds);
        const mp = await post(minimal.proc.pid, minimal.info.port, minimal.info.token, minimal.info.channels, ml, o.sessions, o.seconds);
        const ip = await post(indexed.proc.pid, indexed.info.port, indexed.info.token, indexed.info.channels, il, o.sessions, o.seconds);
        res.post.push(pp);
        res.postCeil.push(cp);
        res.postMin.push(mp);
        res.postIdx.push(ip);
        missing.push(pp.missing, cp.missing, mp.missing, ip.missing);
      }
    }
    // Resident memory ten seconds after the last request, once the server has settled: it
    // collects and shrinks after a whole quiet second (src/lifecycle.ts), and the runtime's
    // allocator hands the freed pages back a few seconds after that.
    await Bun.sleep(10_000);
    const rssAfter = rssMiB(parley.proc.pid);
    const rssCeiling = rssMiB(app.proc.pid);
    for (const [k, rs] of Object.entries(res))
      for (const x of rs) if (x.non2xx || x.errors) throw new Error(`${k}: ${x.non2xx} non-2xx answers, ${x.errors} socket errors`);
    if (missing.some((m) => m > 0)) throw new Error(`fan-out incomplete: frames missing per run ${missing.join(", ")}`);

    const side = (x: WrkResult) => `${fmt(x.cpuUs, 1)} us CPU/req, ${fmt(x.rps)} req/s, p99 ${fmt(x.p99ms, 1)} ms`;
    const warmed = (x: WrkResult) => `measured after ${x.warmedSeconds} s of posts`;
    const meP = bestByRps(res.me);
    const meR = bestByRps(res.meRaw);
    const rdP = bestByCpu(res.read);
    const rdC = bestByCpu(res.readCeil);
    const poP = bestByCpu(res.post);
    const poC = bestByCpu(res.postCeil);
    const poM = bestByCpu(res.postMin);
    const poI = bestByCpu(res.postIdx);
    const rows: Row[] = [];
    if (want("me"))
      rows.push({
        path: "GET /users/@me (throughput)",
        parley: `${fmt(meP.rps)} req/s`,
        ceiling: `${fmt(meR.rps)} req/s (raw Bun, same bytes)`,
        ratio: meP.rps / meR.rps,
        target: ">= 0.6",
        met: meP.rps / meR.rps >= 0.6,
        detail: `Parley ${side(meP)}; raw ${side(meR)}; best of ${res.me.length} alternating rounds`,
      });
    if (want("read"))
      rows.push({
        path: "GET /channels/{id}/messages/{id} (CPU/req)",
        parley: `${fmt(rdP.cpuUs, 1)} us`,
        ceiling: `${fmt(rdC.cpuUs, 1)} us (Elysia+TypeBox point select)`,
        ratio: rdC.cpuUs / rdP.cpuUs,
        target: ">= 0.5",
        met: rdC.cpuUs / rdP.cpuUs >= 0.5,
        detail: `Parley ${side(rdP)}; ceiling ${side(rdC)}`,
      });
    if (want("post"))
      rows.push({
        path: `POST message -> ${o.sessions} sessions (CPU/req)`,
        parley: `${fmt(poP.cpuUs, 1)} us`,
        ceiling: `${fmt(poC.cpuUs, 1)} us (Elysia+TypeBox+WAL+publish)`,
        ratio: poC.cpuUs / poP.cpuUs,
        target: ">= 0.8",
        met: poC.cpuUs / poP.cpuUs >= 0.8,
        detail: `Parley ${side(poP)}, ${warmed(poP)}; ceiling ${side(poC)}, ${warmed(poC)}; frame ${frameBytes} B`,
      });
    if (want("post"))
      rows.push({
        path: "POST message vs minimal app (CPU/req)",
        parley: `${fmt(poP.cpuUs, 1)} us`,
        ceiling: `${fmt(poM.cpuUs, 1)} us (Elysia, token in a Map, compiled TypeBox, WAL insert, publish)`,
        ratio: poM.cpuUs / poP.cpuUs,
        target: ">= 0.8",
        met: poM.cpuUs / poP.cpuUs >= 0.8,
        detail: `minimal ${side(poM)}, ${warmed(poM)}; to ${o.sessions} sockets, its answer and frame unpadded`,
      });
    // Not a target: what the row above's gap is made of. The minimal app keeps no index, and
    // a channel's history cannot be read without one (docs/scaling.md, "What the post costs").
    if (want("post"))
      rows.push({
        path: "  the same with its (channel_id, id) index",
        parley: `${fmt(poP.cpuUs, 1)} us`,
        ceiling: `${fmt(poI.cpuUs, 1)} us (the minimal app, messages indexed by channel)`,
        ratio: poI.cpuUs / poP.cpuUs,
        target: "(explains the row above)",
        met: null,
        detail: `indexed ${side(poI)}, ${warmed(poI)}; the index alone costs the minimal app ${fmt(poI.cpuUs - poM.cpuUs, 1)} us a post`,
      });
    rows.push({
      path: "RSS after the loads above (server process)",
      parley: `${fmt(rssAfter, 1)} MiB`,
      ceiling: `${fmt(rssCeiling, 1)} MiB (the Elysia+TypeBox app after its reads and posts)`,
      ratio: rssCeiling / rssAfter,
      target: "<= 80 MiB",
      met: rssAfter <= 80,
      detail: `${o.binary ? "the compiled executable" : "bun running the source"}, ${fmt(rssStart, 1)} MiB at start; ${fmt(res.post.reduce((n, x) => n + x.requests, 0))} messages posted`,
    });
    return rows;
  } finally {
    for (const c of children.reverse()) await c.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const i = process.argv.indexOf("--only");
  const only = i > 0 ? process.argv[i + 1].split(",") : undefined;
  report(await pathRows({ seconds: argOf("seconds", 3), rounds: argOf("rounds", 2), sessions: argOf("sessions", 10), only }));
}
