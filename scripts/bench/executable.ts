/**
 * The compiled executable as the benches run it (paths.ts, soak.ts): `parley serve` on a
 * data directory of its own, rate limits off, seeded at start with a world document
 * (`--seed`), logging a line per request to a pipe as shipped. Answers once it has
 * printed both the seeded world and the address it listens on.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnLines, type Lines } from "./lib";

export interface Executable extends Lines {
  port: number;
  /** The seed answer: names -> snowflakes and tokens (design/harness.md). */
  seeded: any;
  stop(): Promise<void>;
}

export async function startExecutable(binary: string, world: unknown): Promise<Executable> {
  const dir = mkdtempSync(join(tmpdir(), "parley-bench-bin-"));
  writeFileSync(join(dir, "world.json"), JSON.stringify(world));
  const argv = [
    binary,
    "serve",
    "--data",
    join(dir, "data"),
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--rate-limits",
    "off",
    "--seed",
    join(dir, "world.json"),
  ];
  const { proc, nextLine } = spawnLines(argv);
  const stop = async () => {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    let seeded: unknown = null;
    let port = 0;
    while (!seeded || !port) {
      const line = await nextLine();
      if (line.startsWith("seeded world: ")) seeded = JSON.parse(line.slice("seeded world: ".length));
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (m) port = Number(m[1]);
    }
    return { proc, nextLine, port, seeded, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
