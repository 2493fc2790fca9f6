/**
 * The differential test (issue 30): one scripted session of every surface (script.ts),
 * run with every fast path on, with every one off, and with each one off alone
 * (config/fast-paths.ts). Every answer and every frame must be what the all-on run
 * recorded, so a cache or a fast path can only ever save work, never change what anyone
 * sees; and no GET may write to the store in any run. A failure names the first line
 * that differs and its step.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_FAST_PATHS, type FastPaths } from "../../src/config/fast-paths";
import { runSession } from "./script";
import { firstDifference, normalise, type Line } from "./record";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(fastPaths: Partial<FastPaths>) {
  const dir = mkdtempSync(join(tmpdir(), "parley-diff-"));
  dirs.push(dir);
  const rec = await runSession(dir, fastPaths);
  return { lines: normalise(rec.lines), writingGets: rec.writingGets, fanOut: rec.fanOut };
}

const SWITCHES = Object.keys(ALL_FAST_PATHS) as (keyof FastPaths)[];
const allOff = Object.fromEntries(SWITCHES.map((k) => [k, false])) as Partial<FastPaths>;

describe("every fast path answers what the plain path answers", () => {
  let reference: Line[] = [];

  test("all on: the session runs, and no GET writes to the store", async () => {
    const r = await run({});
    expect(r.writingGets).toEqual([]);
    expect(r.lines.length).toBeGreaterThan(80);
    // The session reaches the gateway's fast paths: cohorts (a mixed one of three), and plans followed.
    expect(r.fanOut.largestCohort).toBeGreaterThanOrEqual(3);
    expect(r.fanOut.planned).toBeGreaterThan(0);
    reference = r.lines;
  }, 60_000);

  for (const [name, fastPaths] of [["all off", allOff] as const, ...SWITCHES.map((k) => [`${k} off`, { [k]: false }] as const)]) {
    test(`${name}: every answer and frame as with all on`, async () => {
      expect(reference.length).toBeGreaterThan(0);
      const r = await run(fastPaths);
      expect(r.writingGets).toEqual([]);
      // The switch reached the gateway: off, no plan is followed, or no two sessions share a cohort.
      if (fastPaths.plans === false) expect(r.fanOut.planned).toBe(0);
      if (fastPaths.cohorts === false) expect(r.fanOut.largestCohort).toBe(1);
      expect(firstDifference(reference, r.lines)).toBeNull();
    }, 60_000);
  }
});
