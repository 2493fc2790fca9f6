/**
 * Start-up and idle memory of the compiled executable (loopback only, bounded): time
 * from spawn to the first 200 on GET /api/v10/gateway with an in-memory database, and
 * resident memory one second after start, beside a bare compiled Bun.serve built the
 * same way. Best and median of RUNS starts each. Targets (issue 16): first 200 within
 * 50 ms, idle RSS under 60 MB.
 *   bun scripts/bench/boot.ts [--runs 5] [--json]
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argOf, fmt, pct, report, rssMiB, type Row } from "./lib";

const ROOT = join(import.meta.dir, "../..");

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
}

/** The executable as the project builds it (scripts/build.ts when there is one, else `npm run build`'s command). */
export async function buildParley(out: string): Promise<void> {
  const script = join(ROOT, "scripts/build.ts");
  if (existsSync(script)) {
    const mod = (await import(script)) as { buildExecutable?: (out: string) => unknown };
    if (mod.buildExecutable) {
      await mod.buildExecutable(out);
      return;
    }
  }
  compile(join(ROOT, "src/main.ts"), out);
}

/** `entry` compiled into an executable, as `bun build --compile` makes one (the ceilings built like Parley). */
export function compile(entry: string, out: string): void {
  const b = Bun.spawnSync([process.execPath, "build", entry, "--compile", "--outfile", out], { cwd: ROOT });
  if (b.exitCode !== 0) throw new Error(b.stderr.toString());
}

/** One start: ms to the first 200, MiB resident at 1 s. */
async function once(argv: (port: number) => string[]): Promise<[number, number]> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = Bun.spawn(argv(port), { stdout: "ignore", stderr: "ignore" });
  let ms = NaN;
  try {
    while (performance.now() - t0 < 10_000) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v10/gateway`);
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

async function series(runs: number, argv: (port: number) => string[]) {
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [m, r] = await once(argv);
    ms.push(m);
    rss.push(r);
  }
  return { best: Math.min(...ms), median: pct(ms, 0.5), rss: pct(rss, 0.5) };
}

/** `binary`: an executable already built (the runner builds one for every bench); otherwise one is built here. */
export async function bootRows(runs: number, binary?: string): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "parley-boot-"));
  try {
    const parley = binary ?? join(dir, "parley");
    if (!binary) await buildParley(parley);
    const hello = join(dir, "hello.ts");
    writeFileSync(
      hello,
      `Bun.serve({ port: Number(process.argv[process.argv.indexOf("--port") + 1]), hostname: "127.0.0.1", fetch: () => new Response("hello") });\n`,
    );
    compile(hello, join(dir, "hello"));
    const ceiling = await series(runs, (p) => [join(dir, "hello"), "--port", String(p)]);
    const p = await series(runs, (port) => [parley, "serve", "--data", ":memory:", "--port", String(port), "--quiet"]);
    return [
      {
        path: "compiled executable, start to first 200",
        parley: `${fmt(p.best, 1)} ms best, ${fmt(p.median, 1)} median`,
        ceiling: `${fmt(ceiling.best, 1)} ms (bare compiled Bun.serve)`,
        ratio: ceiling.best / p.best,
        target: "<= 50 ms",
        met: p.best <= 50,
        detail: `--data :memory:, ${runs} starts each`,
      },
      {
        path: "RSS idle, 1 s after start",
        parley: `${fmt(p.rss, 1)} MiB`,
        ceiling: `${fmt(ceiling.rss, 1)} MiB (bare compiled Bun.serve)`,
        ratio: ceiling.rss / p.rss,
        target: "< 60 MiB",
        met: p.rss < 60,
        detail: "median of the starts",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await bootRows(argOf("runs", 5)));
