/**
 * Browser tests of end-to-end encrypted DMs run against `parley serve` as a child
 * process with its database in a temporary directory, so a test can read the SQLite
 * files (.db, -wal, -shm) and everything the server printed, and look for plaintext.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SeedAnswer } from "../../src/world";
import { PASSWORD } from "./support";

const ROOT = resolve(import.meta.dir, "../..");

export interface ChildServer {
  base: string;
  dir: string;
  world: SeedAnswer;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** The database files that exist now. */
  dbFiles(): string[];
  /** A people's API request as a seeded person (internal ids); a non-2xx answer throws. */
  as(user: string, method: string, path: string, body?: unknown): Promise<any>;
  /** The same, answering status and body whatever they are (for refusals). */
  raw(user: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** A harness request (snowflakes). */
  harness(method: string, path: string, body?: unknown): Promise<any>;
  /** A bot API request with a seeded bot's token; answers status and body. */
  bot(app: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Stop the server (SIGTERM); its files stay until `remove`. */
  stop(): Promise<void>;
  remove(): void;
}

async function json(res: Response, what: string): Promise<any> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function serveChild(doc: { users: { name: string; [k: string]: unknown }[]; [k: string]: unknown }): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), "parley-e2e-browser-"));
  const child = spawn(process.execPath, [join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data", dir, "--harness"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += String(d)));
  child.stderr!.on("data", (d) => (out += String(d)));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const base = await new Promise<string>((ok, fail) => {
    const timer = setInterval(() => {
      const m = /parley listening on (\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        ok(m[1]);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(timer);
      fail(new Error(`parley exited (${code}): ${out}`));
    });
  });
  const harness = async (method: string, path: string, body?: unknown) =>
    json(
      await fetch(`${base}/api/harness/v1${path}`, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      `${method} ${path}`,
    );
  const person = (user: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}/api/client/v1${path}`, {
      method,
      headers: {
        Authorization: `Session ${world.users[user].token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const world = (await harness("POST", "/seed", { ...doc, users: doc.users.map((u) => ({ password: PASSWORD, ...u })) })) as SeedAnswer;
  return {
    base,
    dir,
    world,
    output: () => out,
    dbFiles: () => ["parley.db", "parley.db-wal", "parley.db-shm"].map((f) => join(dir, f)).filter(existsSync),
    as: async (user, method, path, body) => json(await person(user, method, path, body), `${user} ${method} ${path}`),
    async raw(user, method, path, body) {
      const res = await person(user, method, path, body);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    harness,
    async bot(app, method, path, body) {
      const res = await fetch(`${base}/api/v10${path}`, {
        method,
        headers: {
          Authorization: `Bot ${world.applications[app].token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Which of `needles` occur in the database files or the server's output (as UTF-8 or UTF-16). */
export function leaks(s: ChildServer, needles: string[]): string[] {
  const blobs = [...s.dbFiles().map((f) => readFileSync(f)), Buffer.from(s.output())];
  return needles.filter((n) => blobs.some((b) => b.includes(n) || b.includes(Buffer.from(n, "utf16le"))));
}

/** Wait until a person has `n` current devices (a browser registers its own when it signs in). */
export async function devicesOf(s: ChildServer, user: string, n: number): Promise<any[]> {
  for (let i = 0; i < 200; i++) {
    const list = await s.as(user, "GET", "/users/@me/devices");
    if (list.length === n) return list;
    await Bun.sleep(25);
  }
  throw new Error(`${user} never had ${n} devices`);
}
