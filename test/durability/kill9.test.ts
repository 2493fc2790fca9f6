/**
 * Durability under kill -9 (docs/security.md, ARCHITECTURE.md "group commit"): a child
 * `parley serve` on a file database takes concurrent message posts; once enough are
 * acknowledged it is killed with SIGKILL while more are in flight. Every acknowledged
 * write must be in the database when it is opened again, and it must pass
 * `PRAGMA integrity_check`; then the server starts again on it for the next round.
 */
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROUNDS = 3;
const WRITERS = 16;
/** Acknowledged posts per round before the kill; the writers keep posting until it lands. */
const ACKS_BEFORE_KILL = 300;
const MAIN = join(import.meta.dir, "../../src/main.ts");

const dir = mkdtempSync(join(tmpdir(), "parley-kill9-"));
const children: ReturnType<typeof Bun.spawn>[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function start(seed: boolean): Promise<{ proc: ReturnType<typeof Bun.spawn>; base: string; seeded: any }> {
  const args = [process.execPath, MAIN, "serve", "--port", "0", "--data", join(dir, "data"), "--rate-limits", "off"];
  if (seed) args.push("--seed", join(dir, "world.json"));
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  children.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!/listening on (\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const seededLine = /seeded world: (.*)/.exec(text);
  return { proc, base: /listening on (\S+)/.exec(text)![1], seeded: seededLine ? JSON.parse(seededLine[1]) : null };
}

test(`kill -9 under ${WRITERS} concurrent writers, ${ROUNDS} times: every acknowledged write is found after restart`, async () => {
  writeFileSync(
    join(dir, "world.json"),
    JSON.stringify({
      users: [{ name: "alice", admin: true }],
      guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
      applications: [{ name: "Writer", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] }],
    }),
  );
  let token = "";
  let channel = "";
  let acknowledged: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { proc, base, seeded } = await start(round === 0);
    if (seeded) [token, channel] = [seeded.applications.Writer.token, seeded.guilds.Lab.channels.general];
    let acks = 0;
    let killed = false;
    let kill!: () => void;
    const killedNow = new Promise<void>((resolve) => (kill = resolve));
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const content = `r${round}-w${w}-${i}`;
        try {
          const r = await fetch(`${base}/api/v10/channels/${channel}/messages`, {
            method: "POST",
            headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ content }),
          });
          if (r.status === 200 && !killed) {
            acknowledged.push(content);
            if (++acks === ACKS_BEFORE_KILL) kill();
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await killedNow;
    proc.kill("SIGKILL"); // with writes still in flight
    killed = true;
    await proc.exited;
    await Promise.all(writers);

    const db = new Database(join(dir, "data", "parley.db"));
    try {
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const stored = new Set((db.query("SELECT content FROM messages").all() as { content: string }[]).map((r) => r.content));
      const lost = acknowledged.filter((c) => !stored.has(c));
      expect({ round, lost }).toEqual({ round, lost: [] });
    } finally {
      db.close();
    }
  }
  expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * ACKS_BEFORE_KILL);
  // The database serves again after the last kill.
  const { proc, base } = await start(false);
  const r = await fetch(`${base}/api/v10/channels/${channel}/messages?limit=1`, { headers: { Authorization: `Bot ${token}` } });
  expect(r.status).toBe(200);
  proc.kill("SIGKILL");
  await proc.exited;
  acknowledged = [];
}, 60_000);
