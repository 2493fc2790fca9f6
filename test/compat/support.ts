/**
 * Support for compatibility tests: real bot programs run as child processes (discord.py
 * under Debian's /usr/bin/python3), the one way to wait for a library's next event, and
 * the domain events a bot's call made the server publish.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, type Subprocess } from "bun";
import { recordEvents } from "../helpers";
import type { Parley } from "../../src/app";

export const PYTHON = "/usr/bin/python3";
export const BOTS = join(import.meta.dir, "bots");

/** discord.py must be present where CI runs (npm test's pretest installs it). */
export function requireDiscordPy(): void {
  const ok = existsSync(PYTHON) && Bun.spawnSync([PYTHON, "-c", "import discord"]).exitCode === 0;
  if (!ok) throw new Error("discord.py is missing: apt-get install python3-discord (npm test tries this itself when run as root)");
}

/** pytest must be present where CI runs (npm test's pretest installs python3-pytest when it can). */
export function requirePytest(): void {
  const ok = existsSync(PYTHON) && Bun.spawnSync([PYTHON, "-c", "import pytest"]).exitCode === 0;
  if (!ok) throw new Error("pytest is missing: apt-get install python3-pytest (npm test tries this itself when run as root)");
}

/**
 * The next emission of `event` on an event emitter (a discord.js or oceanic.js Client,
 * an @discordjs/core Client or WebSocketManager) whose arguments satisfy `pred`, as the
 * list of its arguments; rejects after `ms`.
 */
export function next<T extends unknown[] = any[]>(
  emitter: unknown,
  event: string,
  pred: (...a: T) => boolean = () => true,
  ms = 5000,
): Promise<T> {
  const e = emitter as { on(event: string, h: (...a: any[]) => void): unknown; off(event: string, h: (...a: any[]) => void): unknown };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      e.off(event, h);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const h = (...a: any[]) => {
      if (!pred(...(a as T))) return;
      clearTimeout(timer);
      e.off(event, h);
      resolve(a as T);
    };
    e.on(event, h);
  });
}

/**
 * A discord.py bot running as a child of /usr/bin/python3, and the JSON objects it
 * printed one per stdout line ({"event": ...} for what the library saw, {"scenario": ...}
 * for a finished step). Each line is handed out once, in whatever order a test asks.
 */
/** How long a bot may take to print its first line. */
const STARTUP_MS = 60_000;

export class PyBot {
  lines: any[] = [];
  /** The lines it printed that are not JSON (an example's own `print`s), in order. */
  printed: string[] = [];
  stderr = "";
  /** Everything the bot wrote to stderr, once it has closed it (`stderr` fills as it comes). */
  readonly stderrDone: Promise<string>;
  private used = new Set<number>();
  private readonly started = Date.now();
  private constructor(
    readonly proc: Subprocess<"pipe", "pipe", "pipe">,
    private readonly waitMs: number,
  ) {
    void this.pump();
    this.stderrDone = this.pumpStderr();
  }

  /**
   * Start `script` (a file in test/compat/bots) with `args`; `waitMs` bounds every wait for
   * a line; `pythonPath` lists directories (in test/compat/bots) its imports may come from.
   */
  static start(script: string, args: string[], waitMs = 12_000, pythonPath: string[] = []): PyBot {
    const env = pythonPath.length ? { ...process.env, PYTHONPATH: pythonPath.map((d) => join(BOTS, d)).join(":") } : undefined;
    const proc = spawn([PYTHON, join(BOTS, script), ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe", env });
    return new PyBot(proc, waitMs);
  }

  /**
   * Start any bot program, `argv` with its arguments (a discord.js bot under node), with
   * `env` added to this process's environment, in `cwd` (a framework that finds its folders
   * from the project's package.json needs its own); its JSON lines are read as a Python bot's.
   */
  static run(argv: string[], env: Record<string, string>, waitMs = 12_000, cwd?: string): PyBot {
    const proc = spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env }, cwd });
    return new PyBot(proc, waitMs);
  }

  /**
   * Resolves once the bot has gone quiet: its main thread asleep, with no CPU spent over
   * two looks 40 ms apart (bounded by `maxMs`). What it was sent before the call (an
   * answer it awaited) has been handled by then, so a handler it attaches after that
   * answer (a collector on its reply) is in place before a person acts on the reply.
   */
  async idle(maxMs = 5_000): Promise<void> {
    const stat = `/proc/${this.proc.pid}/stat`;
    const deadline = Date.now() + maxMs;
    for (let quiet = 0, last = -1; quiet < 2 && Date.now() < deadline && existsSync(stat); ) {
      const text = readFileSync(stat, "utf8");
      // After the command's name: the state, then utime and stime at 11 and 12.
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const cpu = Number(f[11]) + Number(f[12]);
      quiet = f[0] === "S" && cpu === last ? quiet + 1 : 0;
      last = cpu;
      await Bun.sleep(40);
    }
  }

  private async pump() {
    const decoder = new TextDecoder();
    let buf = "";
    const reader = this.proc.stdout.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value);
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line.startsWith("{")) this.lines.push(JSON.parse(line));
        else if (line) this.printed.push(line);
      }
    }
  }

  private async pumpStderr(): Promise<string> {
    const decoder = new TextDecoder();
    const reader = this.proc.stderr.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return this.stderr;
      this.stderr += decoder.decode(value, { stream: true });
    }
  }

  /** The first line not yet handed out that satisfies `pred`; waits for it (bounded). */
  next(pred: (l: any) => boolean, what = "a matching line"): Promise<any> {
    return this.find(pred, what, true);
  }

  /** Waits (bounded) until the bot has printed a line that satisfies `pred`, handed out or not, and leaves it for next(). */
  saw(pred: (l: any) => boolean, what = "a matching line"): Promise<any> {
    return this.find(pred, what, false);
  }

  /** Waits (bounded) until the bot has printed (not as JSON) the line `text`. */
  async said(text: string): Promise<void> {
    await this.until(() => this.printed.includes(text) || undefined, `the printed line ${JSON.stringify(text)}`);
  }

  /** Waits (bounded) until the bot has written `text` to stderr (discord.py's log, a traceback). */
  async logged(text: string): Promise<void> {
    await this.until(() => this.stderr.includes(text) || undefined, `${JSON.stringify(text)} on stderr`);
  }

  private find(pred: (l: any) => boolean, what: string, take: boolean): Promise<any> {
    return this.until(() => {
      for (let i = 0; i < this.lines.length; i++)
        if ((!take || !this.used.has(i)) && pred(this.lines[i])) {
          if (take) this.used.add(i);
          return { line: this.lines[i] };
        }
    }, what).then((hit) => hit.line);
  }

  /** Polls `check` until it answers something, within the bot's bounds. */
  private async until<T>(check: () => T | undefined, what: string): Promise<T> {
    // Until its first line, the bot is still starting: Python importing discord.py and
    // aiohttp took over 12 s on a machine at load 15. Start-up gets a longer bound.
    const deadline = Math.max(Date.now() + this.waitMs, this.lines.length ? 0 : this.started + STARTUP_MS);
    for (;;) {
      const hit = check();
      if (hit !== undefined) return hit;
      if (Date.now() > deadline || this.proc.exitCode !== null) {
        // Let the stderr reader finish so the failure shows discord.py's traceback.
        await Bun.sleep(50);
        throw new Error(
          `bot never reported ${what}; lines: ${JSON.stringify(this.lines).slice(-3000)}\nprinted: ${this.printed.slice(-20).join(" | ")}\nstderr: ${this.stderr.slice(-3000)}`,
        );
      }
      await Bun.sleep(20);
    }
  }

  scenario(id: string, extra: (l: any) => boolean = () => true) {
    return this.next((l) => l.scenario === id && extra(l), `scenario ${id}`);
  }

  event(name: string, extra: (l: any) => boolean = () => true) {
    return this.next((l) => l.event === name && extra(l), `event ${name}`);
  }

  /** Where a line sits in everything the bot printed (to check the order of two events). */
  indexOf(line: unknown): number {
    return this.lines.indexOf(line);
  }

  /** Send the bot one line on its stdin. */
  send(line: string) {
    this.proc.stdin.write(line + "\n");
    this.proc.stdin.flush();
  }

  async stop() {
    if (this.proc.exitCode === null) this.proc.kill();
    await this.proc.exited;
  }
}

/** The types of the domain events `fn` made the server publish, in order. */
export async function eventsDuring(p: Parley, fn: () => unknown): Promise<string[]> {
  const ev = recordEvents(p);
  try {
    await fn();
  } finally {
    ev.stop();
  }
  return ev.all.map((e) => e.type);
}
