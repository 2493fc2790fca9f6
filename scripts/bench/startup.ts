/**
 * Start-up bench of the compiled executable (loopback only, bounded): time from spawn to
 * the first 200, and resident memory one second after start, beside a ceiling: a bare
 * compiled Bun.serve built the same way. Cases: an in-memory database, and an empty
 * database on disk (created by a first run, then started again).
 *   bun scripts/bench/startup.ts [--runs 7] [--binary dist/parley]
 * Targets (issue 16): first 200 within 50 ms, idle RSS under 60 MB with an empty database.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildExecutable } from "../build";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg("runs") ?? 7);
const dir = mkdtempSync(join(tmpdir(), "parley-startup-"));

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
}
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/** One start: ms to the first 200 on `path`, MiB resident at 1 s. */
async function once(argv: (port: number) => string[], path: string): Promise<[number, number]> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = Bun.spawn(argv(port), { stdout: "ignore", stderr: "inherit" });
  let ms = NaN;
  try {
    while (performance.now() - t0 < 10_000) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        await r.arrayBuffer();
        if (r.status === 200) {
          ms = performance.now() - t0;
          break;
        }
      } catch {}
      await Bun.sleep(1);
    }
    await Bun.sleep(Math.max(0, 1000 - (performance.now() - t0)));
    return [ms, rssMiB(proc.pid)];
  } finally {
    proc.kill();
    await proc.exited;
  }
}

async function series(label: string, argv: (port: number) => string[], path: string) {
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [m, r] = await once(argv, path);
    ms.push(m);
    rss.push(r);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(
    `${label.padEnd(44)} first 200: best ${Math.min(...ms).toFixed(1).padStart(5)} ms, median ${med(ms).toFixed(1).padStart(5)} ms   RSS at 1 s: median ${med(rss).toFixed(1)} MiB`,
  );
}

try {
  const binary = arg("binary") ? resolve(arg("binary")!) : join(dir, "parley");
  if (!arg("binary")) buildExecutable(binary);
  const hello = join(dir, "hello.ts");
  writeFileSync(hello, `Bun.serve({ port: Number(process.argv[process.argv.indexOf("--port") + 1]), hostname: "127.0.0.1", fetch: () => new Response("hello") });\n`);
  const ceiling = join(dir, "hello");
  const b = Bun.spawnSync([process.execPath, "build", hello, "--compile", "--minify", "--bytecode", "--format=esm", "--outfile", ceiling]);
  if (b.exitCode !== 0) throw new Error(b.stderr.toString());
  const data = join(dir, "data");
  Bun.spawnSync([binary, "user", "create", "seed-db", "--data", data]); // creates and migrates the database
  Bun.spawnSync([process.execPath, "-e", `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(join(data, "parley.db"))}); d.exec("DELETE FROM users"); d.close();`]);
  console.log(`start to first 200 and idle RSS, ${RUNS} runs each, loopback; binary ${(Bun.file(binary).size / 2 ** 20).toFixed(1)} MiB`);
  await series("ceiling: bare compiled Bun.serve", (p) => [ceiling, "--port", String(p)], "/");
  await series("parley, --data :memory:, GET /healthz", (p) => [binary, "serve", "--port", String(p), "--data", ":memory:"], "/healthz");
  await series("parley, --data :memory:, GET /api/v10/gateway", (p) => [binary, "serve", "--port", String(p), "--data", ":memory:"], "/api/v10/gateway");
  await series("parley, empty database on disk, GET /healthz", (p) => [binary, "serve", "--port", String(p), "--data", data], "/healthz");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
