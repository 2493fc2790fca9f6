/**
 * Message throughput and latency, beside a raw Bun + SQLite ceiling measured in the same
 * run. Loopback only and bounded (MESSAGES, default 2000). Rate limits are off so the
 * numbers show the service, not the spec's windows.
 *
 *   node_modules/.bin/bun scripts/bench/messages.ts [messages] [concurrency]
 *
 * Latency is measured from sending the POST to the message.created event on the bus:
 * the gateway is built in another branch, so the 10-session fan-out is not in this
 * number (the gateway turns the same bus event into frames).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";

const TOTAL = Math.min(Number(process.argv[2] ?? 2000), 50_000);
const CONCURRENCY = Math.min(Number(process.argv[3] ?? 32), 256);
const CHANNELS = 50;

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function service(dir: string) {
  const p = createParley(testConfig({ dbPath: join(dir, "bench.db"), rateLimits: { ...SPEC_RATE_LIMITS, enabled: false }, host: "127.0.0.1" }));
  p.listen();
  const w = p.seed({
    users: [{ name: "alice" }],
    guilds: [{ name: "Bench", owner: "alice", channels: Array.from({ length: CHANNELS }, (_, i) => ({ name: `c${i}` })) }],
    applications: [{ name: "BenchBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Bench"] }],
  });
  const channels = Object.values(w.guilds.Bench.channels);
  const latencies: number[] = [];
  const pending = new Map<string, number>(); // nonce -> start
  p.core.bus.subscribe((e) => {
    if (e.type !== "message.created") return;
    const m = p.core.messages.get(e.messageId);
    const start = m?.nonce ? pending.get(m.nonce) : undefined;
    if (start !== undefined) {
      latencies.push(performance.now() - start);
      pending.delete(m!.nonce!);
    }
  });
  const url = (ch: string) => `${p.api.urls.base}/api/v10/channels/${ch}/messages`;
  const headers = { Authorization: `Bot ${w.applications.BenchBot.token}`, "Content-Type": "application/json" };
  let next = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) {
        const i = next++;
        const nonce = `n${i}`;
        pending.set(nonce, performance.now());
        const res = await fetch(url(channels[i % channels.length]), { method: "POST", headers, body: JSON.stringify({ content: `message ${i}`, nonce }) });
        if (res.status !== 200) failures++;
        await res.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await p.stop();
  return { perSecond: TOTAL / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), failures };
}

/** The ceiling: the same row inserted by a bare prepared statement and handed to one subscriber. */
function ceiling(dir: string) {
  const db = new Database(join(dir, "raw.db"), { create: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  db.exec("CREATE TABLE m (id TEXT PRIMARY KEY, channel_id TEXT, author_id TEXT, content TEXT, created_at INTEGER)");
  const ins = db.query("INSERT INTO m VALUES (?, ?, ?, ?, ?)");
  const subscribers: ((id: string) => void)[] = [() => {}];
  const latencies: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < TOTAL; i++) {
    const start = performance.now();
    const id = crypto.randomUUID();
    db.transaction(() => ins.run(id, `c${i % CHANNELS}`, "a", `message ${i}`, Date.now()))();
    for (const s of subscribers) s(id);
    latencies.push(performance.now() - start);
  }
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  return { perSecond: TOTAL / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}

const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
try {
  const svc = await service(dir);
  const raw = ceiling(dir);
  const f = (n: number) => n.toFixed(2);
  console.log(`messages=${TOTAL} concurrency=${CONCURRENCY} channels=${CHANNELS} (loopback, rate limits off, file-backed WAL)`);
  console.log(`service : ${f(svc.perSecond)} msg/s, POST->bus p50 ${f(svc.p50)} ms, p99 ${f(svc.p99)} ms, failures ${svc.failures}`);
  console.log(`ceiling : ${f(raw.perSecond)} msg/s (bare insert + publish), p50 ${f(raw.p50)} ms, p99 ${f(raw.p99)} ms`);
  console.log(`ratio   : service/ceiling throughput = ${(svc.perSecond / raw.perSecond).toFixed(3)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
