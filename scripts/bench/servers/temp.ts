// Parley from source for a bench child process: a file-backed store (WAL, as served) in a
// temporary directory, rate limits and harness off; stopped and removed on SIGTERM/SIGINT.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../../src/config";

export function tempParley(prefix: string): Parley {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const p = createParley(
    testConfig({ dbPath: join(dir, "parley.db"), harness: false, host: "127.0.0.1", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } }),
  );
  const cleanup = async () => {
    await p.stop();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGTERM", cleanup);
  process.on("SIGINT", cleanup);
  return p;
}
