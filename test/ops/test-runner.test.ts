/**
 * scripts/test.ts, the suite's runner (npm test): a test file that hangs past every
 * timeout bun has (its thread blocked) fails at its deadline, killed with what it started,
 * and the run goes on to the files after it and to its summary and report.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseJUnit } from "../../scripts/compat-matrix";

const ROOT = resolve(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "parley-runner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Running: neither gone nor a zombie (killed, waiting for init to reap it). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

test("a file that hangs fails at its deadline, with what it started killed; the files after it run; one report, one summary", async () => {
  writeFileSync(
    join(dir, "a.test.ts"),
    `import { expect, test } from "bun:test";\ntest("one", () => expect(1).toBe(1));\ntest("two", () => expect(2).toBe(2));\n`,
  );
  // A process of its own group, found only by walking the tree; then a thread that never wakes.
  writeFileSync(
    join(dir, "b.test.ts"),
    `import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
test("before the hang", () => {
  const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  writeFileSync(${JSON.stringify(join(dir, "sleep.pid"))}, String(child.pid));
  expect(child.pid).toBeGreaterThan(0);
});
test("hangs", () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});
`,
  );
  writeFileSync(join(dir, "c.test.ts"), `import { expect, test } from "bun:test";\ntest("after", () => expect(3).toBe(3));\n`);

  // Both streams in one, in order, as CI reads them.
  const argv = [process.execPath, join(ROOT, "scripts/test.ts"), "--root", dir, "--file-deadline", "4"];
  const run = Bun.spawn(["sh", "-c", 'exec "$0" "$@" 2>&1', ...argv], { cwd: ROOT, stdout: "pipe" });
  const killer = setTimeout(() => run.kill("SIGKILL"), 40_000);
  const [all, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
  clearTimeout(killer);

  expect(code).toBe(1);
  // What CI reads: the last " N pass" and " N fail" lines.
  expect(
    all
      .match(/^ *\d+ pass$/gm)!
      .at(-1)!
      .trim(),
  ).toBe("4 pass");
  expect(
    all
      .match(/^ *\d+ fail$/gm)!
      .at(-1)!
      .trim(),
  ).toBe("1 fail");
  expect(all).toContain("b.test.ts (killed at its deadline)");
  const sleeper = Number(readFileSync(join(dir, "sleep.pid"), "utf8"));
  // SIGKILL lands at once but is not synchronous: give it a moment.
  for (let i = 0; i < 40 && running(sleeper); i++) await Bun.sleep(50);
  expect(running(sleeper)).toBe(false);

  const cases = parseJUnit(readFileSync(join(dir, ".test-results/junit.xml"), "utf8"));
  expect(cases.map((c) => [c.name, c.failed])).toEqual([
    ["one", false],
    ["two", false],
    ["b.test.ts › finished within its deadline", true],
    ["after", false],
  ]);
  expect(existsSync(join(dir, ".test-results/files"))).toBe(false);
}, 45_000);
