/**
 * The Python helper as a bot's repository gets it (gap 1 of the bot tester's issue):
 * pip-installed into a venv (no PYTHONPATH), its pytest plugin loaded by its entry point,
 * running a suite for a real discord.py bot (test/compat/bots/pysuite) from a fresh
 * directory: the bot fixture (ready, the epoch line, bots stopped while the server stays),
 * the clock moving the bot's tasks.loop (gap 2), the helpers (gap 4), reference DMs
 * (gap 5); strict mode failing tests that pass their assertions and the transcript on a
 * failing one (gap 3); --parley-url; and pytest-xdist, a server per worker.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startParley, type RunningParley } from "../../src/testing";
import { BOTS, requireDiscordPy, requirePytest } from "./support";
import { freshDir, pythonVenv, ROOT } from "./installs";

let venv: string;
let suite: string;

beforeAll(() => {
  requireDiscordPy();
  requirePytest();
  venv = join(pythonVenv(), "venv");
  suite = freshDir("parley-pysuite-", join(BOTS, "pysuite"));
}, 300_000);
afterAll(() => rmSync(suite, { recursive: true, force: true }));

function pytest(args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
  const r = spawnSync(join(venv, "bin/python"), ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", ...args], {
    cwd: suite,
    encoding: "utf8",
    timeout: 240_000,
    // The helper finds Parley the way a repository without it on PATH would be told to.
    env: { ...process.env, PYTHONPATH: "", PARLEY_COMMAND: `${process.execPath} ${join(ROOT, "src/main.ts")}`, ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const summary = (out: string) => /(\d+ (passed|failed)[^\n]*) in /.exec(out)?.[1] ?? out.slice(-3000);

describe("pip-installed parley-testing under pytest", () => {
  test("the suite passes: plugin by entry point, bot fixture, clock, helpers, reference DMs; a coverage report after it", () => {
    const r = pytest([]);
    expect(summary(r.out)).toMatch(/^14 passed(, \d+ warnings?)?$/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /-+ Parley coverage -+\nParley coverage: what the tests exercised, per bot\n {2}TesterBot\n {4}commands {4}4 of 6 used; never: \/late, \/never/,
    );
  }, 240_000);

  test("strict mode fails tests that passed their assertions, saying why; a failed assertion carries the transcript; --parley-no-strict", () => {
    const r = pytest(["strict_demo.py"]);
    expect(summary(r.out)).toMatch(/^5 failed(, \d+ warnings?)?$/);
    const block = (name: string) => r.out.slice(r.out.indexOf(`_ ${name} _`), r.out.indexOf("\n_", r.out.indexOf(`_ ${name} _`) + 1));
    expect(block("test_late_answer")).toMatch(
      /Strict mode \(--parley-no-strict or Parley\(strict=False\) turns it off\):\n {2}- the bot did not answer \/late in general in time[^\n]*\n {2}- the bot's library logged an error: Ignoring exception in command 'late': [^\n]*10062[^\n]*(\n {6}at [^\n]*)?\n {2}- TesterBot got 404 for POST \/interactions\/\d+\/\[masked\]\/callback/,
    );
    // Late by a latency fault: only what the bot did with the 10062 is left (its library logged it).
    const latency = block("test_late_by_latency");
    expect(latency).toMatch(
      /Strict mode [^\n]*\n {2}- the bot's library logged an error: Ignoring exception in command 'ping': [^\n]*10062[^\n]*(\n {6}at [^\n]*)?\n\n/,
    );
    expect(latency).not.toMatch(/did not answer|got 404/);
    expect(block("test_unanswered")).toMatch(/- the bot never answered \/never in general \(interaction \d+ is still pending\)/);
    // With where the bot's own code raised it, so a bot with many handlers says which one threw.
    expect(block("test_logged_error")).toMatch(
      /- the bot's library logged an error: Ignoring exception in on_message: RuntimeError: boom\n {6}at \S*tester_bot\.py:\d+ in on_message\n/,
    );
    expect(block("test_wrong_expectation")).toMatch(
      /AssertionError: assert 'pong' == 'ping'[\s\S]*-+ Parley: what the bots did -+\nTranscript of TesterBot \(since the test began, /,
    );
    const lax = pytest(["strict_demo.py", "--parley-no-strict", "-k", "unanswered or logged_error"]);
    expect(summary(lax.out)).toMatch(/^2 passed, 3 deselected(, \d+ warnings?)?$/);
  }, 240_000);

  test("--parley-url: the fixtures use a server started elsewhere, and leave it running", async () => {
    // A child process: pytest runs while this process waits for it.
    const server: RunningParley = await startParley({ inProcess: false });
    try {
      const r = pytest(["attach_demo.py", "--parley-url", server.baseUrl]);
      expect(summary(r.out)).toMatch(/^1 passed(, \d+ warnings?)?$/);
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test("pytest-xdist: a server per worker, and one coverage report of the run's", () => {
    const log = join(suite, "workers.log");
    // --dist loadfile: a module's tests on one worker, as test_package.py's second test follows its first.
    const r = pytest(["-n", "2", "-p", "xdist", "--dist", "loadfile"], { PARLEY_SUITE_LOG: log });
    expect(summary(r.out)).toMatch(/^14 passed(, \d+ warnings?)?$/);
    const servers = new Map<string, Set<string>>();
    for (const line of readFileSync(log, "utf8").trim().split("\n")) {
      const [worker, url] = line.split(" ");
      servers.set(worker, (servers.get(worker) ?? new Set()).add(url));
    }
    expect([...servers.keys()].sort()).toEqual(["gw0", "gw1"]);
    const urls = [...servers.values()].map((s) => [...s]);
    expect(urls.map((u) => u.length)).toEqual([1, 1]);
    expect(urls[0][0]).not.toBe(urls[1][0]);
    expect(r.out.match(/Parley coverage: what the tests exercised/g)).toHaveLength(1);
    expect(r.out).toContain("commands    4 of 6 used; never: /late, /never");
  }, 240_000);
});
