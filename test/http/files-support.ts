/**
 * What the tests of an upload's way to disk share (files-flush.test.ts,
 * files-placed.test.ts): apps on a data directory or in memory with a test's own disk,
 * closed and removed after each test, a slot's bytes PUT as the page sends them, and
 * "still waiting" for a promise held by that disk.
 */
import { afterEach } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ORIGIN, session } from "../helpers";
import { createParley, type Parley } from "../../src/app";
import { testConfig } from "../../src/config";
import type { FastPaths } from "../../src/config/fast-paths";
import type { DiskMediaStore } from "../../src/store/media";

export const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** Apps and data directories made by `app` and `dataDir`, closed and removed after each test of the file that calls this. */
export function fileApps(prefix: string) {
  const dirs: string[] = [];
  const apps: Parley[] = [];
  afterEach(() => {
    for (const p of apps.splice(0)) p.core.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    /** An app on `dir` (none: in memory) with `store` for its files. */
    app(opts: { dir?: string; store?: DiskMediaStore; fastPaths?: Partial<FastPaths> } = {}): Parley {
      const config = testConfig({
        ...(opts.dir ? { data: opts.dir, dbPath: join(opts.dir, "parley.db") } : {}),
        fastPaths: opts.fastPaths,
      });
      const p = createParley(config, { mediaStore: opts.store });
      apps.push(p);
      return p;
    },
    dataDir(): string {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    /** An app the test closed itself (as a process that stopped): not closed again. */
    forget(p: Parley): void {
      apps.splice(apps.indexOf(p), 1);
    },
  };
}

/** A slot's bytes, PUT as the page sends them. */
export function put(p: Parley, id: string, token: string, body: BodyInit | Uint8Array, headers: Record<string, string> = {}) {
  return p.handle(
    new Request(`${ORIGIN}/api/client/v1/uploads/${id}`, {
      method: "PUT",
      headers: { ...session(token), "Content-Type": "application/octet-stream", ...headers },
      body: body as BodyInit,
    }),
  );
}

/** Whether a promise is still waiting after the event loop has gone round a few times. */
export async function stillWaiting(pr: Promise<unknown>): Promise<boolean> {
  let done = false;
  pr.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await Bun.sleep(1);
  return !done;
}
