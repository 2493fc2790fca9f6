/**
 * `npm run build`: the single executable dist/parley, minified and with its JavaScript
 * precompiled to bytecode (ESM), which roughly halves the time from start to the first
 * answer (the runtime skips parsing the bundle). Prints the size.
 *   bun scripts/build.ts [--outfile dist/parley]
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/**
 * The Postgres bridge's worker (src/store/pg/bridge.ts starts it by path): an entrypoint
 * of its own, which `--compile` embeds beside main (Bun bundles only what main imports).
 */
export const WORKER_ENTRY = "src/store/pg/worker.ts";

/** Compile src/main.ts (and the worker) into one executable; returns its size in bytes. */
export function buildExecutable(outfile: string): number {
  const r = Bun.spawnSync(
    [
      process.execPath,
      "build",
      join(ROOT, "src/main.ts"),
      join(ROOT, WORKER_ENTRY),
      "--compile",
      "--minify",
      "--bytecode",
      "--format=esm",
      "--outfile",
      outfile,
    ],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`bun build failed:\n${r.stdout.toString()}${r.stderr.toString()}`);
  return statSync(outfile).size;
}

if (import.meta.main) {
  const i = process.argv.indexOf("--outfile");
  // A path given is the caller's (from the directory they run in); the default is the checkout's.
  const outfile = i > 0 ? resolve(process.argv[i + 1]) : resolve(ROOT, "dist/parley");
  const size = buildExecutable(outfile);
  console.log(`built ${outfile}: ${size.toLocaleString("en")} bytes (${(size / 2 ** 20).toFixed(1)} MiB)`);
}
