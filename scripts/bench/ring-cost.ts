/**
 * What writing gateway replay rings to Redis (`--redis`, gateway/shared-sessions.ts)
 * costs per dispatched frame: `sessions` sessions each get `events` frames of a message
 * payload, numbered and recorded as the gateway does for one cohort, once on a single node (its own
 * rings only) and once on a cluster node (its own rings plus the shared store's batched
 * write, one script per turn of the event loop). Prints the node's CPU per frame in
 * each case and Redis's own CPU per frame. Needs redis-server (started here on a
 * temporary port).
 *
 *   bun scripts/bench/ring-cost.ts [sessions=1000] [events=100]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { RedisClient } from "bun";
import { Session } from "../../src/gateway/session";
import { SharedSessions } from "../../src/gateway/shared-sessions";
import { dispatchFrame } from "../../src/gateway/protocol";
import { RedisLink } from "../../src/wire/redis-link";

const SESSIONS = Number(process.argv[2] ?? 1000);
const EVENTS = Number(process.argv[3] ?? 100);
const PAYLOAD = JSON.stringify({
  id: "1300000000000000001",
  channel_id: "1300000000000000002",
  guild_id: "1300000000000000003",
  author: { id: "1300000000000000004", username: "alice", global_name: "Alice", avatar: null, discriminator: "0" },
  content: "a message of an ordinary length, as people write them in a busy channel",
  timestamp: "2026-11-27T04:00:00.000000+00:00",
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  pinned: false,
  type: 0,
});

const port = 20000 + Math.floor(Math.random() * 20000);
const dir = mkdtempSync(join(tmpdir(), "ring-cost-"));
const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], {
  stdio: "ignore",
});
const url = `redis://127.0.0.1:${port}`;
const probe = new RedisClient(url);
for (let i = 0; ; i++) {
  try {
    await probe.send("PING", []);
    break;
  } catch {
    if (i > 100) throw new Error("redis-server did not start");
    await Bun.sleep(50);
  }
}

const redisCpu = async () => {
  const info = String(await probe.send("INFO", ["cpu"]));
  const v = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return v("used_cpu_user") + v("used_cpu_sys");
};

function sessions(prefix: string): Session[] {
  const owner = { appId: "app", appFlake: "1", botUserId: "bot" };
  return Array.from({ length: SESSIONS }, (_, i) => new Session(`${prefix}${i.toString(16).padStart(32, "0")}`, owner, 33281, 0));
}

/** Number and record every frame for every session (a closed session's path: its own ring), plus `also`. */
async function run(ss: Session[], also: ((s: Session, frame: string, at: number) => void) | null, settle: () => Promise<unknown>) {
  const before = process.cpuUsage();
  for (let e = 0; e < EVENTS; e++) {
    // One cohort: every member gets frame seq e + 1, built once (cohorts.ts publishes it once).
    const frame = dispatchFrame("MESSAGE_CREATE", e + 1, PAYLOAD);
    for (const s of ss) {
      s.record("MESSAGE_CREATE", PAYLOAD, e + 1, e);
      also?.(s, frame, e + 1);
    }
    await settle();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (SESSIONS * EVENTS);
}

const turn = () => new Promise((r) => setImmediate(r));
const single = await run(sessions("a"), null, turn);

const link = new RedisLink(url);
for (let i = 0; !link.connected; i++) {
  if (i > 100) throw new Error("no link to redis");
  await Bun.sleep(20);
}
const shared = new SharedSessions(link);
const ss = sessions("b");
shared.attach({ lose: () => {}, holds: () => true, all: () => ss, published: () => EVENTS });
for (const s of ss) shared.created(s);
const r0 = await redisCpu();
const cluster = await run(
  ss,
  // Each frame with its event's commit number, as a node on Postgres records them.
  (s, f, at) => shared.recorded(s, f, at),
  async () => {
    await turn(); // the store's write goes out at the end of the turn
    await link.send("PING", []); // and has been answered once this is (one connection, in order)
  },
);
const r1 = await redisCpu();

console.log(`${SESSIONS} sessions x ${EVENTS} frames, payload ${PAYLOAD.length} bytes`);
console.log(`node CPU per frame, single node (own rings):        ${single.toFixed(2)} us`);
console.log(`node CPU per frame, cluster node (+ Redis rings):   ${cluster.toFixed(2)} us`);
console.log(`Redis CPU per frame:                                ${(((r1 - r0) * 1e6) / (SESSIONS * EVENTS)).toFixed(2)} us`);

link.close();
probe.close();
server.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true });
process.exit(0);
