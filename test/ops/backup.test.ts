/**
 * `parley backup` beside a server under write load: the copy passes SQLite's integrity
 * check and holds every write acknowledged before the backup began.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { parley, serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a backup taken during a write load is whole and holds every acknowledged write", async () => {
  const seed = join(dir, "world.json");
  writeFileSync(
    seed,
    JSON.stringify({
      users: [{ name: "alice" }],
      guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "a" }, { name: "b" }] }],
      applications: [{ name: "Bot", owner: "alice", install: ["Lab"] }],
    }),
  );
  const data = join(dir, "data");
  const s = await serve(["--port", "0", "--data", data, "--seed", seed, "--rate-limits", "off", "--log-level", "warn"]);
  const seeded = JSON.parse(/seeded world: (.*)/.exec(s.out())![1]);
  const token = seeded.applications.Bot.token;
  const channels = Object.values(seeded.guilds.Lab.channels) as string[];
  const acked: { id: string; at: number }[] = [];
  let running = true;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const r = await fetch(`${s.base}/api/v10/channels/${channels[w % 2]}/messages`, {
        method: "POST",
        headers: { Authorization: `Bot ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ content: `w${w} #${i}` }),
      });
      expect(r.status).toBe(200);
      acked.push({ id: ((await r.json()) as any).id, at: performance.now() });
    }
  };
  const load = [0, 1, 2, 3].map(worker);
  try {
    while (acked.length < 200) await Bun.sleep(10);
    const began = performance.now();
    const before = acked.filter((a) => a.at < began).map((a) => a.id);
    const file = join(dir, "copy.db");
    const b = await parley(["backup", file, "--data", data]);
    expect(b.code).toBe(0);
    expect(b.out).toContain(`backup written to ${file}`);
    const during = acked.length;
    running = false;
    await Promise.all(load);
    expect(during).toBeGreaterThan(before.length); // the load really went on beside the backup

    const copy = new Database(file, { readonly: true });
    expect(copy.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    // A message's number is its position's (migration 023), or a pair in the id map.
    const has = copy.query(
      "SELECT 1 AS x FROM messages WHERE position = ?1 UNION ALL SELECT 1 FROM snowflakes s JOIN messages m ON m.id = s.uuid WHERE s.flake = ?2",
    );
    const missing = before.filter((id) => !has.get(Number(BigInt(id) >> 10n), BigInt(id)));
    copy.close();
    expect(missing).toEqual([]);
    expect((await parley(["backup", file, "--data", data])).err).toContain("exists");
  } finally {
    running = false;
    await s.stop();
  }
}, 60_000);
