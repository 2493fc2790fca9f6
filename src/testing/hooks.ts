/**
 * The test framework's side (docs/harness.md "Test hooks"): before each test a mark (and,
 * with a world, a reset and seed); after each, strict mode's checks, which fail the test
 * with what went wrong and the bots' transcripts since the mark, and the transcripts of a
 * test that failed on its own. Works with bun:test, vitest and jest: give it their
 * beforeEach/afterEach (and test).
 *
 * bun:test and jest tell an afterEach nothing of how the test went; vitest does (its
 * context), and so does jest-circus's state. Tests written with the `test` this answers
 * get the transcripts appended to their own error under every framework.
 */
import type { RunningParley } from "./types.js";
import { TRANSCRIPT_HEADING } from "./context.js";

type Fn = (...args: any[]) => unknown;

/** A framework's hooks: `import * as bunTest from "bun:test"`, vitest's exports, or jest's globals. */
export interface TestHooks {
  beforeEach(fn: Fn, timeout?: number): unknown;
  afterEach(fn: Fn, timeout?: number): unknown;
  afterAll?(fn: Fn, timeout?: number): unknown;
  test?(name: string, fn: Fn, timeout?: number): unknown;
}

export interface HookOptions {
  /** Reset the world and seed this before each test (a function makes a fresh one each time); the bots `login` started stop after each test. */
  world?: unknown;
  /** Print the coverage report (docs/harness.md "Coverage") after the file's tests. */
  coverage?: boolean;
}

/** How long the hooks may take: a reset, a seed and strict mode's reads are quick, a bot's stop may not be. */
const HOOK_TIMEOUT_MS = 30_000;
/**
 * A test's own limit when it names none. bun:test's default is 5 s, the same as the SDK's
 * waits: the framework's timeout would always fire first, saying only "timed out" where
 * the wait would have said what the bot did instead (and the wait, left running, would
 * fail in the next test's world).
 */
const TEST_TIMEOUT_MS = 30_000;

export function parleyHooks(fw: TestHooks, parley: () => RunningParley | undefined, opts: HookOptions = {}) {
  fw.beforeEach(async () => {
    const p = parley();
    if (!p) return;
    if (opts.world !== undefined) await p.reset(typeof opts.world === "function" ? opts.world() : structuredClone(opts.world));
    await p.mark();
  }, HOOK_TIMEOUT_MS);

  // Rest parameters: a hook that declares a parameter is taken for one with a done callback.
  // The report as of the file's last test, taken after each: the server may be stopped before the file's afterAll hooks.
  let coverage = "";
  fw.afterEach(async (...args: unknown[]) => {
    const context = args[0];
    const p = parley();
    if (!p) return;
    if (opts.coverage) coverage = await p.coverageReport();
    const violations = await p.strictViolations();
    if (opts.world !== undefined) await p.stopBots();
    if (violations.length) {
      const report = await p.failureReport();
      throw new Error(
        `Strict mode (startParley({ strict: false }) turns it off):\n${violations.map((v) => `  - ${v}`).join("\n")}${report}`,
      );
    }
    if (failed(context)) attach(context, await p.failureReport());
  }, HOOK_TIMEOUT_MS);

  if (opts.coverage && fw.afterAll)
    fw.afterAll(() => {
      if (coverage) console.log(coverage);
    });

  /** `test` with the bots' transcripts appended to the error of a test that fails. */
  const test = (name: string, fn: Fn, timeout?: number) => {
    if (!fw.test) throw new Error("parleyHooks: pass the framework's test as well to use this test");
    return fw.test(
      name,
      async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (e) {
          const p = parley();
          const report = p ? await p.failureReport().catch(() => "") : "";
          // A wait that timed out already carries the transcripts (as of its own end).
          if (e instanceof Error && report && !e.message.includes(report) && !e.message.includes(TRANSCRIPT_HEADING)) e.message += report;
          throw e;
        }
      },
      timeout ?? TEST_TIMEOUT_MS,
    );
  };
  return { test };
}

/** Whether the test that just ran failed, where the framework says: vitest's context, jest-circus's state. */
function failed(context: unknown): boolean {
  const task = (context as { task?: { result?: { state?: string } } } | undefined)?.task;
  if (task?.result?.state) return task.result.state === "fail";
  const jest = (globalThis as Record<symbol, any>)[Symbol.for("JEST_STATE_SYMBOL")];
  return !!jest?.currentlyRunningTest?.errors?.length;
}

/** Add the report to the failure as the framework shows it: vitest's first error, else the test's output. */
function attach(context: unknown, report: string): void {
  if (!report) return;
  const errors = (context as { task?: { result?: { errors?: { message?: string }[] } } } | undefined)?.task?.result?.errors;
  if (errors?.length && typeof errors[0].message === "string") {
    errors[0].message += report;
    return;
  }
  console.error(`Parley:${report}`);
}
