/**
 * scripts/test.ts, the suite's runner (npm test): a test file that hangs past every
 * timeout bun has (its thread blocked) fails at its deadline, killed with what it started,
 * and the run goes on to the files after it and to its summary and report. Files run in
 * lanes: at most one busy file per core, and the bot libraries' files beside them.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

test("the lanes: at most one busy file per core at once, and a bot library's file runs beside them", async () => {
  const root = mkdtempSync(join(tmpdir(), "parley-lanes-"));
  const log = join(root, "log");
  try {
    const say = (what: string) => `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(what)} + "\\n");`;
    // A busy file: it says when it starts and ends, and takes a moment between.
    for (const name of ["a", "b", "c", "d"]) {
      mkdirSync(join(root, "test/unit"), { recursive: true });
      writeFileSync(
        join(root, "test/unit", `${name}.test.ts`),
        `import { test } from "bun:test";\nimport { appendFileSync } from "node:fs";\ntest("${name}", async () => { ${say(`start ${name}`)} await Bun.sleep(300); ${say(`end ${name}`)} });\n`,
      );
    }
    // The bot library's file waits until two busy files have started: it can end only if it
    // is let run beside them.
    mkdirSync(join(root, "test/compat"), { recursive: true });
    writeFileSync(
      join(root, "test/compat/x.test.ts"),
      `import { expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
test("x", async () => {
  ${say("start x")}
  const started = () => (existsSync(${JSON.stringify(log)}) ? readFileSync(${JSON.stringify(log)}, "utf8").match(/^start [a-d]$/gm)?.length ?? 0 : 0);
  for (let i = 0; i < 400 && started() < 2; i++) await Bun.sleep(50);
  expect(started()).toBeGreaterThanOrEqual(2);
  ${say("end x")}
});
`,
    );
    const argv = [process.execPath, join(ROOT, "scripts/test.ts"), "--root", root, "--jobs", "3"];
    const run = Bun.spawn(["sh", "-c", 'exec "$0" "$@" 2>&1', ...argv], { cwd: ROOT, stdout: "pipe" });
    const killer = setTimeout(() => run.kill("SIGKILL"), 60_000);
    const [all, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    clearTimeout(killer);
    expect([
      code,
      all
        .match(/^ *\d+ pass$/gm)
        ?.at(-1)
        ?.trim(),
    ]).toEqual([0, "5 pass"]);

    // Replayed in order: how many busy files ran at once, and whether x ran beside one.
    let busy = 0;
    let most = 0;
    let xRunning = false;
    let beside = false;
    for (const [what, name] of readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "))) {
      if (name === "x") xRunning = what === "start";
      else busy += what === "start" ? 1 : -1;
      most = Math.max(most, busy);
      if (xRunning && busy > 0) beside = true;
    }
    expect(most).toBeLessThanOrEqual(Math.min(navigator.hardwareConcurrency || 1, 3));
    expect(beside).toBe(true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 70_000);

test("the quick in-process files run together in one process; each keeps its own cases in the report, and a failure among them counts", async () => {
  const root = mkdtempSync(join(tmpdir(), "parley-quick-"));
  try {
    mkdirSync(join(root, "test/unit"), { recursive: true });
    mkdirSync(join(root, "test/http"), { recursive: true });
    mkdirSync(join(root, "test/ops"), { recursive: true });
    const pidCase = (name: string, ok = true) =>
      `import { expect, test } from "bun:test";\nimport { appendFileSync } from "node:fs";\ntest("${name}", () => { appendFileSync(${JSON.stringify(join(root, "pids"))}, process.pid + "\\n"); expect(${ok}).toBe(true); });\n`;
    writeFileSync(join(root, "test/unit/a.test.ts"), pidCase("unit a"));
    writeFileSync(join(root, "test/unit/b.test.ts"), pidCase("unit b", false));
    writeFileSync(join(root, "test/http/c.test.ts"), pidCase("http c"));
    writeFileSync(join(root, "test/ops/d.test.ts"), pidCase("ops d"));
    const run = Bun.spawn(["sh", "-c", 'exec "$0" "$@" 2>&1', process.execPath, join(ROOT, "scripts/test.ts"), "--root", root], {
      cwd: ROOT,
      stdout: "pipe",
    });
    const killer = setTimeout(() => run.kill("SIGKILL"), 40_000);
    const [all, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    clearTimeout(killer);
    expect(code).toBe(1);
    expect(all).toContain("Ran 4 tests across 4 files in 2 processes.");
    expect(
      all
        .match(/^ *\d+ fail$/gm)!
        .at(-1)!
        .trim(),
    ).toBe("1 fail");
    const pids = readFileSync(join(root, "pids"), "utf8").trim().split("\n");
    expect(pids).toHaveLength(4);
    // unit a, unit b and http c in one process; ops d in another.
    expect(new Set(pids).size).toBe(2);
    const cases = parseJUnit(readFileSync(join(root, ".test-results/junit.xml"), "utf8"));
    expect(cases.map((c) => [c.name, c.failed]).sort()).toEqual([
      ["http c", false],
      ["ops d", false],
      ["unit a", false],
      ["unit b", true],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 45_000);
