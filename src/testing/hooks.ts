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

/** A framework's hooks: `import * as bunTest from "bun:test"`, vitest's exports, jest's globals, or `import * as nodeTest from "node:test"`. */
export interface TestHooks {
  beforeEach(fn: Fn, timeout?: number): unknown;
  afterEach(fn: Fn, timeout?: number): unknown;
  afterAll?(fn: Fn, timeout?: number): unknown;
  /** node:test's name for afterAll. */
  after?(fn: Fn, timeout?: number): unknown;
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

  const afterAll = fw.afterAll ?? fw.after;
  if (opts.coverage && afterAll)
    afterAll.call(fw, () => {
      if (coverage) console.log(coverage);
    });

  /** The body of a test, with the bots' transcripts appended to its error when it fails. */
  const wrap =
    (fn: Fn) =>
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
    };
  const framework = () => {
    if (!fw.test) throw new Error("parleyHooks: pass the framework's test as well to use this test");
    return fw.test as FrameworkTest;
  };
  return { test: wrapTest(framework, wrap) };
}

/** A framework's `test` with the variants bun:test, vitest and jest share (each may lack some). */
type FrameworkTest = ((name: string, fn?: Fn, timeout?: number) => unknown) & {
  only?: FrameworkTest;
  skip?: FrameworkTest;
  todo?: (name: string, ...rest: unknown[]) => unknown;
  each?: (table: unknown) => (name: string, fn: Fn, timeout?: number) => unknown;
  if?: (cond: boolean) => FrameworkTest;
  skipIf?: (cond: boolean) => FrameworkTest;
  runIf?: (cond: boolean) => FrameworkTest;
};

/** What parleyHooks answers as `test`: the framework's own, every test given the report and a 30 s limit. */
export interface ParleyTest {
  (name: string, fn: Fn, timeout?: number): unknown;
  only(name: string, fn: Fn, timeout?: number): unknown;
  skip(name: string, fn?: Fn, timeout?: number): unknown;
  todo(name: string, ...rest: unknown[]): unknown;
  each(table: readonly unknown[]): (name: string, fn: Fn, timeout?: number) => unknown;
  /** bun:test's `if`, vitest's `runIf`: the test runs only when `cond` holds. */
  if(cond: boolean): ParleyTest;
  runIf(cond: boolean): ParleyTest;
  skipIf(cond: boolean): ParleyTest;
}

/**
 * `test` and its variants (`only`, `skip`, `todo`, `each`, `if`/`runIf`, `skipIf`), so a
 * suite written with the framework's test keeps working when it takes this one instead.
 */
function wrapTest(framework: () => FrameworkTest, wrap: (fn: Fn) => Fn): ParleyTest {
  // The framework's own variants are methods (bun:test's check their receiver).
  const variant = <K extends keyof FrameworkTest>(t: () => FrameworkTest, key: K): NonNullable<FrameworkTest[K]> => {
    const f = t();
    const v = f[key] as unknown as Fn | undefined;
    if (!v) throw new Error(`parleyHooks: this test framework has no test.${String(key)}`);
    return v.bind(f) as NonNullable<FrameworkTest[K]>;
  };
  const make = (t: () => FrameworkTest): ParleyTest => {
    const run = (name: string, fn: Fn, timeout?: number) => t()(name, wrap(fn), timeout ?? TEST_TIMEOUT_MS);
    // bun:test says `if`, vitest `runIf`: either name takes whichever the framework has.
    const conditional = (key: "if" | "runIf" | "skipIf") => (cond: boolean) => {
      const own = key === "skipIf" || t()[key] ? key : key === "if" ? "runIf" : "if";
      return make(() => variant(t, own)(cond));
    };
    return Object.assign(run, {
      only: (name: string, fn: Fn, timeout?: number) => variant(t, "only")(name, wrap(fn), timeout ?? TEST_TIMEOUT_MS),
      skip: (name: string, fn?: Fn, timeout?: number) => variant(t, "skip")(name, fn ?? (() => {}), timeout),
      todo: (name: string, ...rest: unknown[]) => variant(t, "todo")(name, ...rest),
      each: (table: readonly unknown[]) => (name: string, fn: Fn, timeout?: number) =>
        variant(t, "each")(table)(name, wrap(fn), timeout ?? TEST_TIMEOUT_MS),
      if: conditional("if"),
      runIf: conditional("runIf"),
      skipIf: conditional("skipIf"),
    });
  };
  return make(framework);
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
