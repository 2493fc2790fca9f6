/**
 * A disk that fills up under a running server or an operator's command: each says so in
 * one line and a non-zero exit, never a stack trace, and a file it was replacing is left
 * whole. A full disk is made two ways a test may: SQLite's own error (databaseFailure is
 * given it), and a file-size limit on the command (prlimit), which fails its write as a
 * full disk does, midway.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseFailure } from "../../src/cli/errors";
import { oneLine, parley, serve } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-full-"));
const data = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // A world whose export is some hundreds of KiB, larger than the limit below.
  const world = {
    users: Array.from({ length: 1000 }, (_, i) => ({ name: `person_number_${i}`, global_name: `Person number ${i} of the crowd` })),
  };
  writeFileSync(join(dir, "seed.json"), JSON.stringify(world));
  expect((await parley(["import", join(dir, "seed.json"), "--data", data])).code).toBe(0);
}, 30_000);

test("SQLite's 'disk is full' and the kernel's ENOSPC are one line that says the disk is full", () => {
  const config = { data: "/var/lib/parley", dbPath: "/var/lib/parley/parley.db" };
  for (const code of ["SQLITE_FULL", "ENOSPC"]) {
    const e = databaseFailure(Object.assign(new Error("database or disk is full"), { code }), config);
    expect(e?.message).toBe(
      `the disk holding the data directory '/var/lib/parley' is full (${code}): free some space there, then try again`,
    );
  }
});

test("an export cut short by a full disk leaves the one it replaces whole, and no half-written file", async () => {
  const file = join(dir, "world.json");
  expect((await parley(["export", file, "--data", data])).code).toBe(0);
  const before = readFileSync(file, "utf8");
  expect(before.length).toBeGreaterThan(200_000);

  const r = await parley(["export", file, "--force", "--data", data], { wrap: ["prlimit", "--fsize=100000"] });
  oneLine(r, /cannot write the export to .*world\.json: /);
  expect(readFileSync(file, "utf8")).toBe(before);
  expect(existsSync(`${file}.partial`)).toBe(false);

  const fresh = join(dir, "fresh.json");
  oneLine(await parley(["export", fresh, "--data", data], { wrap: ["prlimit", "--fsize=100000"] }), /cannot write the export/);
  expect(existsSync(fresh)).toBe(false);
});

test("a stop whose last write fails (the disk filled meanwhile) logs one line and exits 1, with no stack trace", async () => {
  const s = await serve(["--port", "0", "--data", data]);
  // A request counted: the stop writes the day's counts (core/stats.ts), here refused as a full disk would be.
  expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  const db = new Database(join(data, "parley.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  for (const when of ["INSERT", "UPDATE"])
    db.exec(`CREATE TRIGGER full_${when} BEFORE ${when} ON day_counts BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
  db.close();
  const code = await s.stop();
  for (let i = 0; i < 100 && !s.out().includes("last writes failed"); i++) await Bun.sleep(20);
  expect(code).toBe(1);
  expect(s.out()).toMatch(/ERROR stopped, but the last writes failed error=database or disk is full/);
  expect(s.out()).not.toMatch(/\bat .*:\d+:\d+/);
});
