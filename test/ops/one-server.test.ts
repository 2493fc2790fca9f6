/**
 * One server per port and per data directory: a second `parley serve` where another
 * Parley listens, or on another's data directory, is refused in one line. The data
 * directory's lock (src/store/lock.ts) goes with its server, whether it stops cleanly or
 * is killed.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oneLine, parley, serve, type Server } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-one-"));
const running: Server[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function started(argv: string[]): Promise<Server> {
  const s = await serve(argv);
  running.push(s);
  return s;
}

test("a second server on a port another Parley listens on is refused (not given a share of its requests)", async () => {
  const first = await started(["--port", "0", "--data", join(dir, "a")]);
  const port = new URL(first.base).port;
  oneLine(
    await parley(["serve", "--port", port, "--data", join(dir, "b")], { ms: 10_000 }),
    new RegExp(`port ${port} on 127.0.0.1 is already in use`),
  );
  await first.stop();
}, 30_000);

test("a second server on a data directory another Parley serves is refused, naming its pid", async () => {
  const data = join(dir, "shared");
  const first = await started(["--port", "0", "--data", data]);
  const r = await parley(["serve", "--port", "0", "--data", data], { ms: 10_000 });
  oneLine(
    r,
    new RegExp(
      `the data directory '${data}' is in use by another Parley \\(pid ${first.child.pid}\\): stop that one first, or give this one another --data`,
    ),
  );
  // The first one's record of itself is untouched by the refused one.
  expect(JSON.parse(readFileSync(join(data, "serving.json"), "utf8"))).toMatchObject({ pid: first.child.pid, base: first.base });
  await first.stop();
}, 30_000);

test("the data directory is free again after a clean stop, and after kill -9", async () => {
  const data = join(dir, "again");
  const first = await started(["--port", "0", "--data", data]);
  expect(await first.stop()).toBe(0);
  expect(existsSync(join(data, "serving.json"))).toBe(false);
  const second = await started(["--port", "0", "--data", data]);
  second.child.kill("SIGKILL");
  await second.exited;
  // The kernel let go of the lock with the process; its serving.json is left, and believed by nobody.
  const third = await started(["--port", "0", "--data", data]);
  expect(JSON.parse(readFileSync(join(data, "serving.json"), "utf8")).pid).toBe(third.child.pid);
  expect((await fetch(`${third.base}/healthz`)).status).toBe(200);
  await third.stop();
}, 30_000);
