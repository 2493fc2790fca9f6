/**
 * REST benchmark (loopback only, bounded): authenticated GET /users/@me against Parley,
 * beside a raw Bun.serve returning the same bytes, each in its own child process, driven
 * by the same closed-loop client. Prints requests/s, p50/p99 latency and the ratio.
 * Target: Parley >= 0.5 of raw Bun.
 *   bun scripts/bench/rest.ts [--seconds 3] [--concurrency 64]
 */
import { spawn } from "bun";
import { join } from "node:path";

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = arg("seconds", 3);
const CONCURRENCY = arg("concurrency", 64);

async function startChild(mode: string) {
  const proc = spawn(["bun", join(import.meta.dir, "rest-server.ts"), mode], { stdout: "pipe", stderr: "inherit", env: { ...process.env, PATH: `${join(import.meta.dir, "../../node_modules/.bin")}:${process.env.PATH}` } });
  const reader = proc.stdout.getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${mode} server exited`);
    buf += new TextDecoder().decode(value);
  }
  return { proc, ...(JSON.parse(buf.split("\n")[0]) as { port: number; token: string }) };
}

async function load(url: string, token: string) {
  const headers = { Authorization: `Bot ${token}` };
  const lat: number[] = [];
  let errors = 0;
  const warmupEnd = performance.now() + 500;
  while (performance.now() < warmupEnd) await (await fetch(url, { headers })).arrayBuffer();
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const r = await fetch(url, { headers });
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
        lat.push(performance.now() - t0);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const q = (f: number) => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))];
  return { rps: lat.length / SECONDS, p50: q(0.5), p99: q(0.99), errors };
}

const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
for (const mode of ["raw", "parley"]) {
  const child = await startChild(mode);
  try {
    results[mode] = await load(`http://127.0.0.1:${child.port}/api/v10/users/@me`, child.token);
  } finally {
    child.proc.kill();
  }
}
const fmt = (r: (typeof results)[string]) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms${r.errors ? `   errors ${r.errors}` : ""}`;
console.log(`GET /users/@me, ${CONCURRENCY} concurrent clients, ${SECONDS} s each, loopback`);
console.log(`raw Bun.serve  ${fmt(results.raw)}`);
console.log(`Parley         ${fmt(results.parley)}`);
const ratio = results.parley.rps / results.raw.rps;
console.log(`ratio Parley/raw: ${ratio.toFixed(2)} (target >= 0.50) ${ratio >= 0.5 ? "MET" : "NOT MET"}`);
