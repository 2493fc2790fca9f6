/**
 * What a posted message costs SQLite, part by part: the statements a bot API post runs
 * in the group commit (a savepoint per write, the message row with its position,
 * migration 023) and its share of the batch's COMMIT, against the same work without one
 * part at a time. Run on a copy of a real Parley database (every migration, the bench
 * world of 50 channels, 300 messages in each), in batches of 22 posts (what the paths
 * bench's 32 connections make per commit), the posts spread over the channels in turn as
 * the paths bench spreads them. CPU time, so a busy machine moves it less than wall time.
 * The search entry is not here: a post writes none (migration 022). Not a row of
 * `npm run bench`: it explains one (docs/scaling.md, "What the post costs").
 *   bun scripts/bench/post-storage.ts [--batches 600] [--rounds 3]
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { SwitchableClock } from "../../src/core/clock";
import { IdGenerator, positionOf } from "../../src/core/ids";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";
import { BulkSeed } from "./servers/bulk";
import { benchWorld } from "./servers/world";
import { argOf, fmt } from "./lib";

const PER_BATCH = 22;

interface Variant {
  name: string;
  savepoint: boolean;
  /** The row keeps its position (the unique index, and the trigger that checks the id map). */
  position: boolean;
  channelIndex: boolean;
  foreignKeys: boolean;
  /** Posts per COMMIT. */
  batch: number;
}

const served: Variant = { name: "as served", savepoint: true, position: true, channelIndex: true, foreignKeys: true, batch: PER_BATCH };
const VARIANTS: Variant[] = [
  served,
  { ...served, name: "without the position", position: false },
  { ...served, name: "without the savepoint", savepoint: false },
  { ...served, name: "without foreign keys", foreignKeys: false },
  { ...served, name: "without the (channel_id, id) index", channelIndex: false },
  {
    name: "the minimal app's: one insert, its own commit",
    savepoint: false,
    position: false,
    channelIndex: false,
    foreignKeys: false,
    batch: 1,
  },
];

/** A database as a bench server holds it: every migration, the bench world, 300 messages a channel. */
async function template(dir: string): Promise<string> {
  const path = join(dir, "template.db");
  const p = createParley(testConfig({ dbPath: path, harness: false, rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
  p.seed(benchWorld(50, 10));
  const author = (p.store.db.query("SELECT bot_user_id AS id FROM applications LIMIT 1").get() as { id: string }).id;
  const bulk = new BulkSeed(p.store, p.clock);
  for (const c of p.store.db.query("SELECT id FROM channels WHERE guild_id IS NOT NULL").all() as { id: string }[])
    bulk.messages(c.id, author, 300);
  await p.stop();
  return path;
}

/** CPU microseconds per post: the statements, and the share of the commit. */
function measure(file: string, v: Variant, batches: number): { statements: number; commit: number } {
  const db = new Database(file, { strict: true });
  try {
    // As the store opens it (store/engine.ts).
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec(`PRAGMA foreign_keys = ${v.foreignKeys ? "ON" : "OFF"}`);
    db.exec("PRAGMA wal_autocheckpoint = 10000");
    db.exec("PRAGMA temp_store = MEMORY");
    if (!v.channelIndex) db.exec("DROP INDEX messages_channel");
    const row = db.query("SELECT * FROM messages LIMIT 1").get() as Record<string, unknown>;
    const channels = (db.query("SELECT id FROM channels WHERE guild_id IS NOT NULL").all() as { id: string }[]).map((c) => c.id);
    const cols = Object.keys(row);
    const insert = db.query(`INSERT INTO messages (${cols.join(", ")}) VALUES (${cols.map((c) => `$${c}`).join(", ")})`);
    const ids = new IdGenerator(new SwitchableClock());
    const savepoint = db.prepare("SAVEPOINT w");
    const release = db.prepare("RELEASE w");
    let n = 0;
    let statements = 0;
    let commit = 0;
    const posts = batches * PER_BATCH;
    for (let done = 0; done < posts; done += v.batch) {
      const rows = Array.from({ length: v.batch }, () => {
        const id = ids.next();
        return {
          ...row,
          id,
          position: v.position ? positionOf(id) : null,
          channel_id: channels[n++ % channels.length],
          content: `the quick brown fox jumps over the lazy dog, message ${n}`,
          nonce: `w1-${n}`,
        };
      });
      const t0 = process.cpuUsage();
      db.exec("BEGIN");
      for (const r of rows) {
        if (v.savepoint) savepoint.run();
        insert.run(r as never);
        if (v.savepoint) release.run();
      }
      const t1 = process.cpuUsage();
      db.exec("COMMIT");
      const t2 = process.cpuUsage();
      statements += t1.user + t1.system - (t0.user + t0.system);
      commit += t2.user + t2.system - (t1.user + t1.system);
    }
    return { statements: statements / posts, commit: commit / posts };
  } finally {
    db.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.main) {
  const batches = argOf("batches", 600);
  const rounds = argOf("rounds", 3);
  const dir = mkdtempSync(join(tmpdir(), "parley-post-storage-"));
  try {
    const base = await template(dir);
    const got = new Map<string, { statements: number[]; commit: number[] }>(VARIANTS.map((v) => [v.name, { statements: [], commit: [] }]));
    // Rounds alternate the variants, each on a fresh copy, so that a busy spell spreads over all.
    for (let r = 0; r < rounds; r++)
      for (const v of VARIANTS) {
        const file = join(dir, "copy.db");
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
        copyFileSync(base, file);
        const m = measure(file, v, batches);
        got.get(v.name)!.statements.push(m.statements);
        got.get(v.name)!.commit.push(m.commit);
      }
    console.log(`CPU per post, median of ${rounds} rounds of ${batches * PER_BATCH} posts (${PER_BATCH} per commit unless said)`);
    for (const v of VARIANTS) {
      const g = got.get(v.name)!;
      const s = median(g.statements);
      const c = median(g.commit);
      console.log(`${v.name.padEnd(48)} ${fmt(s + c, 1).padStart(6)} us  (statements ${fmt(s, 1)}, commit ${fmt(c, 1)})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
