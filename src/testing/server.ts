import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `bun src/main.ts serve --port 0 --data :memory: --harness`, port read from its first line. */
export async function spawnServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const bun = process.versions.bun ? process.execPath : join(ROOT, "node_modules/.bin/bun");
  if (!existsSync(bun)) throw new Error(`cannot find bun at ${bun}`);
  const child: ChildProcess = spawn(bun, [join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data", ":memory:", "--harness"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  let errors = "";
  child.stderr!.on("data", (d) => (errors += String(d)));
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("parley did not start within 15 s")), 15_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(e);
    };
    child.stdout!.on("data", (d) => {
      out += String(d);
      const m = /parley listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once("exit", (code) => fail(new Error(`parley exited (${code}) before listening: ${errors.trim()}`)));
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout!.resume();
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
