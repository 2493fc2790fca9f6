/**
 * Support for compatibility tests: a real Parley listening on a free port, and real
 * bot programs run as child processes (discord.py under Debian's /usr/bin/python3).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "bun";
import { makeParley } from "../helpers";
import type { Parley } from "../../src/app";
import type { Config } from "../../src/config";

export const PYTHON = "/usr/bin/python3";
export const BOTS = join(import.meta.dir, "bots");

/** discord.py must be present where CI runs (npm test's pretest installs it). */
export function requireDiscordPy(): void {
  const ok = existsSync(PYTHON) && Bun.spawnSync([PYTHON, "-c", "import discord"]).exitCode === 0;
  if (!ok) throw new Error("discord.py is missing: apt-get install python3-discord (npm test tries this itself when run as root)");
}

export function startServer(overrides: Partial<Config> = {}): Parley {
  const p = makeParley(overrides);
  p.listen();
  return p;
}

export interface BotRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Lines the bot printed as JSON objects ({"event": ...}). */
  events: any[];
}

/** Run a bot program to completion (bounded by timeoutMs) with PARLEY_* variables set. */
export async function runBot(cmd: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<BotRun> {
  const proc = spawn(cmd, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill(), timeoutMs);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  const events = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    })
    .filter(Boolean);
  return { code, stdout, stderr, events };
}
