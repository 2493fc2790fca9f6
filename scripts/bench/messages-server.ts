// Child process for scripts/bench/messages.ts. Mode "parley": Parley on a file-backed
// store, rate limits off, harness off, a guild of CHANNELS text channels and SESSIONS
// installed bots (GUILD_MESSAGES) for the gateway fan-out plus the posting bot.
// Mode "raw": the ceiling, a bare Bun.serve that does what a message post minimally
// must: parse the JSON body, insert one row in a SQLite transaction (file, WAL,
// synchronous NORMAL) and publish one frame of FRAME_BYTES to every connected socket.
// Prints one JSON line: {port, token, tokens, channels}.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";

const mode = process.argv[2];
const CHANNELS = Number(process.argv[3] ?? 50);
const SESSIONS = Number(process.argv[4] ?? 10);
const FRAME_BYTES = Number(process.argv[5] ?? 0);

const dir = mkdtempSync(join(tmpdir(), `parley-msgbench-${mode}-`));
const cleanup = () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", cleanup);
process.on("SIGINT", cleanup);

if (mode === "parley") {
  const p = createParley(
    testConfig({ dbPath: join(dir, "parley.db"), harness: false, host: "127.0.0.1", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }),
  );
  // A guild shaped like a real one: a few roles, the poster holding one, an overwrite on
  // every channel, so the permission path does its real work.
  const w = p.seed({
    users: [{ name: "alice" }, { name: "bob" }],
    guilds: [
      {
        name: "Bench",
        owner: "alice",
        members: ["bob"],
        roles: [
          { name: "mods", permissions: ["MANAGE_MESSAGES"], members: ["bob"] },
          { name: "posters", permissions: ["SEND_MESSAGES"], members: ["Poster"] },
          { name: "muted", permissions: [] },
        ],
        channels: Array.from({ length: CHANNELS }, (_, i) => ({ name: `c${i}`, overwrites: [{ role: "muted", deny: ["SEND_MESSAGES"] }] })),
      },
    ],
    applications: [
      { name: "Poster", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Bench"] },
      ...Array.from({ length: SESSIONS }, (_, i) => ({ name: `Listener${i}`, owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Bench"] })),
    ],
  });
  const server = p.listen();
  const tokens = Array.from({ length: SESSIONS }, (_, i) => w.applications[`Listener${i}`].token);
  console.log(JSON.stringify({ port: server.port, token: w.applications.Poster.token, tokens, channels: Object.values(w.guilds.Bench.channels) }));
} else {
  const db = new Database(join(dir, "raw.db"), { create: true, strict: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE messages (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, author_id TEXT NOT NULL, content TEXT NOT NULL, nonce TEXT, created_at INTEGER NOT NULL)");
  const insert = db.query("INSERT INTO messages (id, channel_id, author_id, content, nonce, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const tx = db.transaction((row: [string, string, string, string, string | null, number]) => insert.run(...row));
  let seq = 0;
  const channels = Array.from({ length: CHANNELS }, (_, i) => String(1_400_000_000_000_000_000n + BigInt(i)));
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req, srv) {
      const url = new URL(req.url);
      if (url.pathname === "/gateway") return srv.upgrade(req) ? undefined : new Response("no", { status: 400 });
      const channelId = url.pathname.split("/")[4];
      const body = (await req.json()) as { content: string; nonce?: string };
      const id = crypto.randomUUID();
      const now = Date.now();
      tx([id, channelId, "author", body.content, body.nonce ?? null, now]);
      const d = { id, channel_id: channelId, content: body.content, nonce: body.nonce, timestamp: new Date(now).toISOString() };
      const head = `{"op":0,"s":${++seq},"t":"MESSAGE_CREATE","d":`;
      const json = JSON.stringify(d);
      // Padded inside `d` to the size of Parley's frame for the same message.
      const pad = Math.max(0, FRAME_BYTES - head.length - json.length - 10);
      const padded = `${json.slice(0, -1)},"pad":"${"x".repeat(pad)}"}`;
      srv.publish("all", `${head}${padded}}`);
      // The answer is the same message object, as Parley answers with the message.
      return new Response(padded, { headers: { "Content-Type": "application/json" } });
    },
    websocket: {
      open(ws) {
        ws.subscribe("all");
      },
      message() {},
    },
  });
  console.log(JSON.stringify({ port: server.port, token: "raw", tokens: [], channels }));
}
