// Child process of the path benches: Parley from source on a file-backed store (WAL, as
// served), rate limits off, harness off, in the bench world (servers/world.ts). Prints
// one JSON line (BenchInfo) and serves until killed. The runner (index.ts) measures the
// compiled executable instead (paths.ts, startBinary).
//   bun servers/parley.ts <channels> <sessions>
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../../src/config";
import { benchWorld, finishWorld } from "./world";

const CHANNELS = Number(process.argv[2] ?? 50);
const SESSIONS = Number(process.argv[3] ?? 10);

const dir = mkdtempSync(join(tmpdir(), "parley-bench-"));
const p = createParley(testConfig({ dbPath: join(dir, "parley.db"), harness: false, host: "127.0.0.1", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }));
const cleanup = async () => {
  await p.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", cleanup);
process.on("SIGINT", cleanup);

const seeded = p.seed(benchWorld(CHANNELS, SESSIONS));
const server = p.listen();
console.log(JSON.stringify(await finishWorld(server.port!, seeded, SESSIONS)));
