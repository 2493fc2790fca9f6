/**
 * One test file in a `bun test` process of its own, under a deadline (scripts/test.ts runs
 * the suite through it). A file past its deadline is killed with every process it started
 * and fails with a test case that says so, whatever state it hung in; the run goes on.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** What one file's run showed, its JUnit <testsuite> elements among it. */
export interface FileResult {
  file: string;
  tests: number;
  failures: number;
  skipped: number;
  assertions: number;
  seconds: number;
  /** The file's <testsuite> elements, to go into the run's report. */
  suites: string;
  /** It ran past its deadline and was killed. */
  overDeadline: boolean;
  /** Its output, when it was held back (several files at once) or is needed to count a killed file's passes. */
  output: string;
}

export interface FileRun {
  root: string;
  /** What the run is called in the summary: the file, or the group's name. */
  file: string;
  /** The files to run, when more than `file` (a group of quick in-process files, run in one process). */
  files?: string[];
  /** Arguments for bun test besides the file and the reporter. */
  args: string[];
  deadlineMs: number;
  /** Where bun writes this file's JUnit report. */
  report: string;
  /** Pass the output through as it comes (one file at a time) rather than hold it for the end. */
  stream: boolean;
}

const TEST_FILE = /[._](test|spec)\.[cm]?[jt]sx?$/;

/** The test files under `root` that bun test would find, as paths relative to it, sorted. */
export function testFiles(root: string, dir = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    // The example bots' own tests run where they are installed, as a user's would (test/compat/examples.test.ts).
    if (!dir && e.name === "examples") continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...testFiles(root, rel));
    else if (TEST_FILE.test(e.name)) out.push(rel);
  }
  return out.sort();
}

/** Run one file; resolves once its process (and, past the deadline, every process it started) is gone. */
export async function runFile(r: FileRun): Promise<FileResult> {
  rmSync(r.report, { force: true });
  const t0 = performance.now();
  // Its own process group, so that a kill reaches what it started (servers, browsers, bots).
  const paths = (r.files ?? [r.file]).map((f) => `./${f}`);
  const child = spawn(process.execPath, ["test", "--reporter=junit", `--reporter-outfile=${r.report}`, ...r.args, ...paths], {
    cwd: r.root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const take = (to: NodeJS.WriteStream) => (d: Buffer) => {
    output += String(d);
    if (r.stream) to.write(d);
  };
  child.stdout!.on("data", take(process.stdout));
  child.stderr!.on("data", take(process.stderr));
  let overDeadline = false;
  const timer = setTimeout(() => {
    overDeadline = true;
    killTree(child.pid!);
  }, r.deadlineMs);
  const closed = new Promise<void>((done) => child.once("close", () => done()));
  const code = await new Promise<number | null>((done) => child.once("exit", (c) => done(c)));
  clearTimeout(timer);
  // Whatever it left in its group (a server, a browser) goes with it; then its output ends,
  // unless something outside the group still holds the pipes.
  killGroup(child.pid!);
  await Promise.race([closed, Bun.sleep(2000)]);
  child.stdout!.destroy();
  child.stderr!.destroy();
  return resultOf(r, { code, output, overDeadline, seconds: (performance.now() - t0) / 1000 });
}

function resultOf(r: FileRun, ran: { code: number | null; output: string; overDeadline: boolean; seconds: number }): FileResult {
  const base = { file: r.file, seconds: ran.seconds, overDeadline: ran.overDeadline, output: ran.output };
  if (ran.overDeadline) {
    // The report is written at the end, so there is none: what passed is read from the output.
    const passed = (ran.output.match(/^\(pass\) /gm) ?? []).length;
    const failed = (ran.output.match(/^\(fail\) /gm) ?? []).length;
    const why = `${r.file} ran past its deadline of ${r.deadlineMs / 1000} s and was killed, with every process it started`;
    return {
      ...base,
      tests: passed + failed + 1,
      failures: failed + 1,
      skipped: 0,
      assertions: 0,
      suites: failedSuite(r.file, "finished within its deadline", why, ran.seconds),
    };
  }
  const xml = existsSync(r.report) ? readFileSync(r.report, "utf8") : "";
  const totals = /<testsuites\b([^>]*)>/.exec(xml);
  const n = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(totals?.[1] ?? "")?.[1] ?? 0);
  const inner = xml.replace(/^[\s\S]*?<testsuites\b[^>]*>/, "").replace(/<\/testsuites>\s*$/, "");
  const res = {
    ...base,
    tests: n("tests"),
    failures: n("failures"),
    skipped: n("skipped"),
    assertions: n("assertions"),
    suites: totals ? inner : "",
  };
  // A name pattern that matches nothing in this file: bun says so and exits 1, but nothing failed.
  const noneMatched = /matched 0 tests/.test(ran.output);
  // Failed outside any test (a crash, an error between tests), or wrote no report: one failure more.
  if (ran.code !== 0 && res.failures === 0 && !noneMatched) {
    const why = `bun test exited with ${ran.code ?? "a signal"}${totals ? "" : " without a report"}: ${lastLines(ran.output)}`;
    return {
      ...res,
      tests: res.tests + 1,
      failures: 1,
      suites: res.suites + failedSuite(r.file, "ran to its end without an error outside its tests", why, ran.seconds),
    };
  }
  return res;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function failedSuite(file: string, name: string, why: string, seconds: number): string {
  const f = escapeXml(file);
  return `
  <testsuite name="${f}" file="${f}" tests="1" assertions="0" failures="1" skipped="0" time="${seconds}">
    <testcase name="${escapeXml(`${file} › ${name}`)}" classname="" time="${seconds}" file="${f}">
      <failure type="AssertionError" message="${escapeXml(why)}" />
    </testcase>
  </testsuite>`;
}

function lastLines(output: string): string {
  return output.trimEnd().split("\n").slice(-5).join(" | ");
}

/**
 * SIGKILL a process, its group, and every process below it. Descendants are found before
 * anything is killed (an orphan moves to init, out of reach), twice, for any started meanwhile.
 */
export function killTree(pid: number): void {
  for (let round = 0; round < 2; round++) {
    for (const p of [pid, ...descendants(pid)]) {
      try {
        process.kill(p, "SIGKILL");
      } catch {}
    }
    killGroup(pid);
  }
}

function killGroup(leader: number): void {
  try {
    process.kill(-leader, "SIGKILL");
  } catch {}
}

/** Every process below `pid`, read from /proc (Linux); none elsewhere (the group kill still reaches most). */
function descendants(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(e));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length) for (const c of children.get(todo.pop()!) ?? []) out.push(c), todo.push(c);
  return out;
}
