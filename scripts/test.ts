/**
 * `npm test`: every test file in a `bun test` process of its own, each under a deadline:
 * a file that hangs (a library's reconnect storm, a wait that never ends) is killed with
 * everything it started and fails, and the run goes on. The exception is the quick
 * in-process files (test/unit, test/http: no server on a port, no browser, no bot), which
 * run together in one process as `npm run test:fast` runs them: a process of their own
 * each cost more start-up than test, about a minute of CPU over the suite. The files'
 * JUnit reports become one (.test-results/junit.xml), and the summary ends with bun's " N pass" / " N fail"
 * lines (CI reads those). The compatibility table is not written here: `npm run
 * compat:matrix` runs the compatibility tests and writes docs/compatibility.md from
 * their report (scripts/compat-matrix.ts), so a test run leaves tracked files alone.
 *
 *   bun scripts/test.ts [--jobs N] [--file-deadline SECONDS] [bun test arguments]
 *
 * --jobs: files run at once (default: one more than the cores, at most 3; 1 on a one-core
 * machine). Most of a file's time is waiting on real time (a library's reconnect delay,
 * a bot's start): two at a time, the suite kept a 2-core machine's cores busy 41% of its
 * 600 s. So at most one file per core runs at once, as before, and the extra lane takes
 * only the bot libraries' files (test/compat), which mostly wait on their libraries'
 * timers (reconnect delays of 5 to 30 s) and keep no core busy meanwhile.
 * --file-deadline: seconds a file may run (default 180; the slowest takes about 25).
 * Paths narrow the run to the files whose path contains one of them, as bun test's do;
 * other arguments go to each bun test. Exits 1 when anything failed.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runFile, testFiles, type FileResult } from "./test-files";

const REPO = resolve(import.meta.dir, "..");
const REPORT = ".test-results/junit.xml";
const PARTS = ".test-results/files";
/** bun test's options that take a value as the next argument (it is not a path). */
const VALUED = new Set([
  "-t",
  "--test-name-pattern",
  "--timeout",
  "--rerun-each",
  "--preload",
  "-r",
  "--seed",
  "--coverage-reporter",
  "--coverage-dir",
]);

interface Options {
  root: string;
  jobs: number;
  deadlineMs: number;
  filters: string[];
  bunArgs: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { root: REPO, jobs: defaultJobs(), deadlineMs: 180_000, filters: [], bunArgs: [] };
  const number = (flag: string, v: string | undefined) => {
    const n = Number(v);
    if (!(n > 0)) throw new Error(`${flag} needs a positive number, not '${v ?? ""}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [a, inline] =
      argv[i].startsWith("--") && argv[i].includes("=")
        ? [argv[i].slice(0, argv[i].indexOf("=")), argv[i].slice(argv[i].indexOf("=") + 1)]
        : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (a === "--jobs") o.jobs = Math.floor(number(a, value()));
    else if (a === "--file-deadline") o.deadlineMs = number(a, value()) * 1000;
    else if (a === "--root") o.root = resolve(value() ?? ".");
    else if (!a.startsWith("-")) o.filters.push(a.replace(/^\.\//, ""));
    else {
      o.bunArgs.push(argv[i]);
      if (VALUED.has(a) && inline === undefined && i + 1 < argv.length) o.bunArgs.push(argv[++i]);
    }
  }
  return o;
}

const CORES = navigator.hardwareConcurrency || 1;

function defaultJobs(): number {
  return CORES === 1 ? 1 : Math.min(3, CORES + 1);
}

/** Files that keep a core busy while they run: all but the bot libraries' (see the top). */
const busy = (file: string) => !file.startsWith("test/compat/");

/** The quick in-process files, run together (see the top). */
const QUICK = ["test/unit/", "test/http/"];

/** What runs in one process: a file, or the quick files together (first: one of the longer jobs, kept off the run's tail). */
interface Job {
  name: string;
  files?: string[];
}

function jobsOf(files: string[]): Job[] {
  const quick = files.filter((f) => QUICK.some((q) => f.startsWith(q)));
  const rest = files.filter((f) => !quick.includes(f)).map((name) => ({ name }));
  if (quick.length < 2) return files.map((name) => ({ name }));
  return [{ name: `${QUICK.map((q) => q.slice(0, -1)).join(" and ")} (${quick.length} files, one process)`, files: quick }, ...rest];
}

/**
 * Run the files, `jobs` at a time, at most one busy file per core; results in the order
 * of `files`. A lane that may not take the next busy file takes the first file that is
 * not.
 */
async function runAll(o: Options, jobs: Job[]): Promise<FileResult[]> {
  const results: FileResult[] = new Array(jobs.length);
  const waiting = jobs.map((_, i) => i);
  const busyMax = Math.min(CORES, o.jobs);
  let busyNow = 0;
  const take = (): number | undefined => {
    const at = waiting.findIndex((i) => busyNow < busyMax || !busy(jobs[i].name));
    return at === -1 ? undefined : waiting.splice(at, 1)[0];
  };
  // A lane with nothing it may take waits for a busy file to end, then looks again.
  let freed: () => void = () => {};
  let ended = new Promise<void>((r) => (freed = r));
  const worker = async () => {
    while (waiting.length) {
      const i = take();
      if (i === undefined) {
        await ended;
        continue;
      }
      const { name: file, files } = jobs[i];
      const heavy = busy(file);
      if (heavy) busyNow++;
      const report = join(o.root, PARTS, `${i}.xml`);
      const r = await runFile({ root: o.root, file, files, args: o.bunArgs, deadlineMs: o.deadlineMs, report, stream: o.jobs === 1 });
      // Several at once: each file's output in one piece, as it finishes.
      if (o.jobs > 1) process.stdout.write(r.output);
      if (r.overDeadline) console.log(`\n${file}: killed after its deadline of ${o.deadlineMs / 1000} s, with every process it started\n`);
      results[i] = r;
      if (heavy) {
        busyNow--;
        const wake = freed;
        ended = new Promise<void>((res) => (freed = res));
        wake();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, jobs.length) }, worker));
  return results;
}

function junit(results: FileResult[], seconds: number): string {
  const sum = (k: "tests" | "failures" | "skipped" | "assertions") => results.reduce((n, r) => n + r[k], 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="bun test" tests="${sum("tests")}" assertions="${sum("assertions")}" failures="${sum("failures")}" skipped="${sum("skipped")}" time="${seconds}">${results.map((r) => r.suites).join("")}
</testsuites>
`;
}

/** bun's own summary lines, for the whole run (CI reads the last " N pass" and " N fail"). */
function summary(results: FileResult[], fileCount: number, seconds: number): string {
  const sum = (k: "tests" | "failures" | "skipped" | "assertions") => results.reduce((n, r) => n + r[k], 0);
  const failed = results.filter((r) => r.failures > 0);
  const lines = [""];
  if (failed.length)
    lines.push(
      `files with failures:`,
      ...failed.map((r) => `  ${r.file} (${r.overDeadline ? "killed at its deadline" : `${r.failures} failed`})`),
      "",
    );
  lines.push(` ${sum("tests") - sum("failures") - sum("skipped")} pass`);
  if (sum("skipped")) lines.push(` ${sum("skipped")} skip`);
  lines.push(` ${sum("failures")} fail`, ` ${sum("assertions")} expect() calls`);
  lines.push(
    `Ran ${sum("tests")} tests across ${fileCount} file${fileCount === 1 ? "" : "s"} in ${results.length} process${results.length === 1 ? "" : "es"}. [${seconds.toFixed(2)}s]`,
  );
  return lines.join("\n");
}

const o = parseArgs(process.argv.slice(2));
const files = testFiles(o.root).filter((f) => !o.filters.length || o.filters.some((p) => f.includes(p)));
if (!files.length) {
  console.error(`no test files match ${o.filters.join(" ")}`);
  process.exit(1);
}
// A run that dies before writing its report must not leave an old one for the matrix to read.
rmSync(join(o.root, REPORT), { force: true });
rmSync(join(o.root, PARTS), { recursive: true, force: true });
mkdirSync(join(o.root, PARTS), { recursive: true });

const t0 = performance.now();
const results = await runAll(o, jobsOf(files));
const seconds = (performance.now() - t0) / 1000;
writeFileSync(join(o.root, REPORT), junit(results, seconds));
rmSync(join(o.root, PARTS), { recursive: true, force: true });
console.log(summary(results, files.length, seconds));
const failures = results.reduce((n, r) => n + r.failures, 0);
const ran = results.reduce((n, r) => n + r.tests, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
if (ran === skipped) console.error("no test ran (does a name pattern match any?)");
process.exit(failures > 0 || ran === skipped ? 1 : 0);
