/**
 * SIGTERM: no new work, every request already in flight answered and committed, every
 * gateway socket closed with 4000 (libraries reconnect and RESUME), the WAL folded into
 * the database file, exit code 0.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORLD = {
  users: [{ name: "alice" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
  applications: [{ name: "Bot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
};

test("SIGTERM drains requests, closes the gateway with 4000, checkpoints and exits 0", async () => {
  const seed = join(dir, "world.json");
  writeFileSync(seed, JSON.stringify(WORLD));
  const data = join(dir, "data");
  const s = await serve(["--port", "0", "--data", data, "--seed", seed, "--rate-limits", "off"]);
  const seeded = JSON.parse(/seeded world: (.*)/.exec(s.out())![1]);
  const token = seeded.applications.Bot.token;
  const channel = seeded.guilds.Lab.channels.general;

  const ws = new WebSocket(s.base.replace(/^http/, "ws") + "/gateway");
  const frames: any[] = [];
  const closed = new Promise<number>((r) => (ws.onclose = (e) => r(e.code)));
  await new Promise<void>((r) => (ws.onmessage = (m) => (frames.push(JSON.parse(String(m.data))), r())));
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)));
  ws.send(JSON.stringify({ op: 2, d: { token, intents: 513, properties: {} } }));
  while (!frames.some((f) => f.t === "READY")) await Bun.sleep(5);

  // Requests in flight when the signal lands: each is answered (and then committed) or
  // refused whole; none is lost after a 200.
  const posts = Array.from({ length: 40 }, (_, i) =>
    fetch(`${s.base}/api/v10/channels/${channel}/messages`, {
      method: "POST",
      headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: `m${i}` }),
    }).then(
      async (r) => ({ status: r.status, id: r.status === 200 ? ((await r.json()) as any).id : null }),
      () => ({ status: 0, id: null }),
    ),
  );
  // The first answer shows the server busy with the batch; the signal lands among the rest.
  await Promise.race(posts);
  s.child.kill("SIGTERM");
  const answers = await Promise.all(posts);
  expect(await closed).toBe(4000);
  expect(await s.exited).toBe(0);
  expect(s.out()).toMatch(/shutting down .*SIGTERM/);
  expect(s.out()).toMatch(/stopped gateway_sockets_closed=1/);

  const acknowledged = answers.filter((a) => a.status === 200);
  expect(acknowledged.length).toBeGreaterThan(0);
  for (const a of answers) expect([0, 200, 503]).toContain(a.status);
  const wal = join(data, "parley.db-wal");
  expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  const db = new Database(join(data, "parley.db"), { readonly: true });
  const stored = (db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  db.close();
  expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
}, 30_000);
