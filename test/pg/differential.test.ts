/**
 * The differential test's scripted session (test/diff/script.ts: bots on REST and the
 * gateway, people on their API and live connections, the harness, a RESUME, a token
 * rotated) run on a Parley node whose store is Postgres, against the same session on
 * SQLite: every answer and every frame must be the same. Both rotate the token in the
 * server's process (the operator's commands run on SQLite only).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSession, type SessionOptions } from "../diff/script";
import { ALL_FAST_PATHS, type FastPaths } from "../../src/config/fast-paths";
import { firstDifference, normalise } from "../diff/record";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";

let pg: Postgres;
const dirs: string[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await pg?.close();
}, ENGINE_MS);

async function run(opts: SessionOptions, fastPaths: Partial<FastPaths> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "parley-pgdiff-"));
  dirs.push(dir);
  const rec = await runSession(dir, fastPaths, { rotate: "in-process", ...opts });
  return { lines: normalise(rec.lines), writingGets: rec.writingGets, engine: rec.engine };
}

describe("a node on Postgres answers what a node on SQLite answers", () => {
  test("the whole scripted session: every answer and frame the same, and no GET writes", async () => {
    const lite = await run({});
    const database = await pg.createDatabase();
    const post = await run({ database: pg.url(database) });
    expect([lite.engine, post.engine]).toEqual(["sqlite", "postgres"]);
    // The session's rows are in Postgres, not in a file beside it.
    const sql = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
    try {
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM messages`;
      expect(n).toBeGreaterThan(5);
    } finally {
      await sql.close();
    }
    expect(lite.lines.length).toBeGreaterThan(80);
    expect(post.writingGets).toEqual([]);
    expect(firstDifference(lite.lines, post.lines)).toBeNull();
    expect(post.lines.length).toBe(lite.lines.length);
  }, 120_000);

  test("with every cache and fast path off, a Postgres node still answers what SQLite answers with them on", async () => {
    const allOff = Object.fromEntries(Object.keys(ALL_FAST_PATHS).map((k) => [k, false])) as Partial<FastPaths>;
    const lite = await run({});
    const post = await run({ database: pg.url(await pg.createDatabase()) }, allOff);
    expect(post.engine).toBe("postgres");
    expect(post.writingGets).toEqual([]);
    expect(firstDifference(lite.lines, post.lines)).toBeNull();
  }, 120_000);
});
