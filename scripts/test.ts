/**
 * `npm test`: the whole suite through `bun test` with a JUnit report alongside the usual
 * console output (CI reads bun's "N pass" / "N fail" lines from it), then
 * docs/compatibility.md regenerated from that report. Arguments go to bun test; a run
 * narrowed by them leaves the matrix alone, since most of its cells would read "not run".
 * Exits with bun's exit code (or 1 if the tests passed but the matrix could not be written).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const REPORT = ".test-results/junit.xml";
const args = process.argv.slice(2);

mkdirSync(join(ROOT, ".test-results"), { recursive: true });
// A run that dies before writing its report must not regenerate the matrix from an old one.
rmSync(join(ROOT, REPORT), { force: true });
const tests = Bun.spawn([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${REPORT}`, ...args], {
  cwd: ROOT,
  stdio: ["inherit", "inherit", "inherit"],
});
const code = await tests.exited;

// A path or a name filter narrows the run (a flag's value counts as a path: erring
// towards leaving the committed matrix alone).
const narrowed = args.some((a) => !a.startsWith("-") || a === "-t" || a.startsWith("--test-name-pattern"));
if (narrowed) {
  console.log("compat-matrix: partial run, docs/compatibility.md left as it was");
  process.exit(code);
}
const matrix = Bun.spawnSync([process.execPath, join(ROOT, "scripts/compat-matrix.ts"), "--junit", REPORT], {
  cwd: ROOT,
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(code !== 0 ? code : matrix.exitCode === 0 ? 0 : 1);
