/**
 * Child processes of the real `parley` command (bun src/main.ts ...), for what only a
 * separate process shows: exit codes, stderr, signals, a second process on one database.
 */
import { expect } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const MAIN = join(ROOT, "src/main.ts");

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** A start-up or command failure as the operator must see it: one line on stderr, no stack, a non-zero exit. */
export function oneLine(r: Ran, says: RegExp) {
  expect(r.code).not.toBe(0);
  expect(r.code).not.toBeNull();
  expect(r.err.trimEnd().split("\n")).toHaveLength(1);
  expect(r.err).toStartWith("parley: ");
  expect(r.err).toMatch(says);
  expect(r.err).not.toMatch(/\bat .*:\d+:\d+|error:|\^/);
}

/** Run `parley <argv>` to its end (at most `ms`); `wrap` runs it under another command (setpriv ...). */
export async function parley(
  argv: string[],
  opts: { env?: Record<string, string>; cwd?: string; ms?: number; wrap?: string[] } = {},
): Promise<Ran> {
  const [cmd, ...rest] = [...(opts.wrap ?? []), process.execPath, MAIN, ...argv];
  const child = spawn(cmd, rest, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (err += String(d)));
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.ms ?? 20_000);
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  clearTimeout(timer);
  return { code, out, err };
}

export interface Server {
  child: ChildProcess;
  base: string;
  /** Everything printed so far. */
  out(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** Start `parley serve <argv>` and wait for its listening line. */
export async function serve(argv: string[], opts: { env?: Record<string, string>; cmd?: string[] } = {}): Promise<Server> {
  const cmd = opts.cmd ?? [process.execPath, MAIN, "serve"];
  const child = spawn(cmd[0], [...cmd.slice(1), ...argv], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (err += String(d)));
  const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  const base = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line in 20 s: ${out} ${err}`)), 20_000);
    const check = () => {
      const m = /parley listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout!.on("data", check);
    void exited.then((c) => fail(new Error(`exited ${c} before listening: ${err}`)));
  });
  return {
    child,
    base,
    out: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
