// Child process of the path benches: Parley on a file-backed store (WAL, as served),
// rate limits off, harness off. A guild shaped like a real one: a few roles, the
// posting bot holding one, an overwrite on every channel, so the permission path does
// its real work; SESSIONS listening bots (GUILD_MESSAGES) for the gateway fan-out; one
// message per channel for the reads. Prints one JSON line and serves until killed.
//   bun servers/parley.ts <channels> <sessions>
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../../src/config";

const CHANNELS = Number(process.argv[2] ?? 50);
const SESSIONS = Number(process.argv[3] ?? 10);
export const CONTENT = "the quick brown fox jumps over the lazy dog, message 1";

const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
const p = createParley(testConfig({ dbPath: join(dir, "parley.db"), harness: false, host: "127.0.0.1", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
const cleanup = async () => {
  await p.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", cleanup);
process.on("SIGINT", cleanup);

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
const channels = Object.values(w.guilds.Bench.channels) as string[];
const token = w.applications.Poster.token as string;
// One message per channel, posted the way bots post, for the point reads.
const messages: string[] = [];
for (const c of channels) {
  const r = await fetch(`http://127.0.0.1:${server.port}/api/v10/channels/${c}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content: CONTENT }),
  });
  messages.push(((await r.json()) as { id: string }).id);
}
const tokens = Array.from({ length: SESSIONS }, (_, i) => w.applications[`Listener${i}`].token as string);
console.log(JSON.stringify({ port: server.port, token, tokens, channels, messages }));
