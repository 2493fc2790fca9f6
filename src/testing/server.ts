/**
 * The server under test: in this process (Bun only: the server is Bun code), or
 * `parley serve --harness --port 0 --data :memory:` as a child process (any runtime:
 * Node under vitest or jest), with the same options either way.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { InProcessServer, RateLimits, StartOptions } from "./types.js";

/** This package's root: src/testing/ or dist/testing/, two levels down. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface StartedServer {
  baseUrl: string;
  /** The gateway's URL when known without asking (in this process). */
  gatewayUrl?: string;
  parley?: InProcessServer;
  /** In this process by default: the test's fake timers would stop it too (useTimers refuses them). */
  stoppedByFakeTimers?: boolean;
  /** A child process server that has ended: how ("exited with code 1", "was killed by SIGKILL") and its last errors. */
  ended?(): string | undefined;
  stop(): Promise<void>;
}

const isBun = () => typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

export function startServer(opts: StartOptions): Promise<StartedServer> {
  // With the test's fake timers a server in this process would run on them: it runs apart.
  const inProcess = opts.inProcess ?? (isBun() && !opts.timers);
  return inProcess ? startInProcess(opts) : spawnServer(opts);
}

async function startInProcess(opts: StartOptions): Promise<StartedServer> {
  if (!isBun())
    throw new Error(
      "startParley: the in-process server needs Bun (bun test); under Node (vitest, jest) pass { inProcess: false } to run parley serve as a child process",
    );
  const src = (path: string) => import(pathToFileURL(join(PACKAGE_ROOT, "src", path)).href);
  const [{ createParley }, { testConfig, SPEC_RATE_LIMITS }] = await Promise.all([src("app.ts"), src("config/index.ts")]);
  const overrides: Record<string, unknown> = { ...opts.config, harness: true };
  if (opts.heartbeatIntervalMs !== undefined) overrides.heartbeatIntervalMs = opts.heartbeatIntervalMs;
  if (opts.rateLimits !== undefined) overrides.rateLimits = rateLimitsConfig(opts.rateLimits, SPEC_RATE_LIMITS);
  const parley = createParley(testConfig(overrides));
  parley.listen();
  return {
    baseUrl: parley.api.urls.base,
    gatewayUrl: parley.api.urls.gateway,
    parley,
    stoppedByFakeTimers: opts.inProcess !== true,
    stop: () => parley.stop(),
  };
}

/** The spec's limits with the test's changes: "off", or rules of its own. */
function rateLimitsConfig(given: NonNullable<StartOptions["rateLimits"]>, spec: Required<RateLimits>): Required<RateLimits> {
  const base = structuredClone(spec);
  if (given === "on") return base;
  if (given === "off") return { ...base, enabled: false };
  return { ...base, ...given, routes: { ...base.routes, ...given.routes } };
}

/** How to run Parley: the command given, PARLEY_COMMAND, or Bun on this package's src/main.ts. */
function parleyCommand(given: StartOptions["command"]): string[] {
  const cmd = given ?? process.env.PARLEY_COMMAND;
  if (cmd && cmd.length) return Array.isArray(cmd) ? cmd : cmd.split(/\s+/).filter(Boolean);
  return [findBun(), join(PACKAGE_ROOT, "src/main.ts")];
}

/** Bun: this process's own, else node_modules/.bin/bun above this package or the working directory, else `bun` on PATH. */
function findBun(): string {
  if (isBun()) return process.execPath;
  for (const start of [PACKAGE_ROOT, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      const bin = join(dir, "node_modules", ".bin", "bun");
      if (existsSync(bin)) return bin;
      if (dirname(dir) === dir) break;
    }
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && existsSync(join(dir, "bun"))) return join(dir, "bun");
  throw new Error("parley/testing: the server runs on Bun, and none was found: npm install --save-dev bun (or set PARLEY_COMMAND)");
}

/** `parley serve --port 0 --data :memory: --harness` with the options as flags; the port is read from its first line. */
export async function spawnServer(opts: StartOptions): Promise<StartedServer> {
  const [cmd, ...base] = parleyCommand(opts.command);
  const args = [...base, "serve", "--port", "0", "--data", ":memory:", "--harness", "--log-level", "warn"];
  if (opts.heartbeatIntervalMs !== undefined) args.push("--heartbeat-interval", String(opts.heartbeatIntervalMs));
  let scratch: string | null = null;
  if (opts.rateLimits === "off" || opts.rateLimits === "on") args.push("--rate-limits", opts.rateLimits);
  else if (opts.rateLimits) {
    scratch = mkdtempSync(join(tmpdir(), "parley-limits-"));
    writeFileSync(join(scratch, "limits.json"), JSON.stringify(opts.rateLimits));
    args.push("--rate-limits", join(scratch, "limits.json"));
  }
  const cleanup = () => scratch && rmSync(scratch, { recursive: true, force: true });
  const child: ChildProcess = spawn(cmd, args, { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  // A test process that ends without stop() (a file that threw before its afterAll, a
  // forgotten stop) would leave the server running, orphaned: end it with the process.
  const endWithTest = () => child.kill("SIGTERM");
  process.once("exit", endWithTest);
  void exited.then(() => process.off("exit", endWithTest));
  let errors = "";
  child.stderr!.on("data", (d) => (errors += String(d)));
  try {
    const baseUrl = await listening(child, () => errors);
    // Keep draining stdout so the child never blocks on a full pipe.
    child.stdout!.resume();
    return {
      baseUrl,
      ended() {
        if (child.exitCode === null && child.signalCode === null) return undefined;
        const how = child.signalCode ? `was killed by ${child.signalCode}` : `exited with code ${child.exitCode}`;
        const last = errors.trim().split("\n").slice(-5).join("\n");
        return last ? `${how}; its last errors:\n${last}` : how;
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
        cleanup();
      },
    };
  } catch (e) {
    cleanup();
    throw e;
  }
}

function listening(child: ChildProcess, errors: () => string): Promise<string> {
  return new Promise<string>((resolveUrl, reject) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("parley did not start within 20 s")), 20_000);
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
    child.once("error", (e) => fail(e));
    child.once("exit", (code) => fail(new Error(`parley exited (${code}) before listening: ${errors().trim()}`)));
  });
}
