/**
 * Postgres and redis-server for tests, each on a temporary directory and port of its own,
 * started as children of the test process (so the test runner's deadline takes them with
 * it) and stopped by their own pid only: never a service, never a shared instance.
 *
 * Postgres refuses to run as root, so as root initdb and postgres run as `nobody` through
 * setpriv (no PAM, unlike su). A `mktemp -d` directory is root's and 0700, which nobody
 * cannot enter: it is opened to 0711 (enter, not list) and the data directory inside it
 * is nobody's. The socket lives in the data directory (`-k`): /var/run/postgresql may not
 * exist, and the data directory is ours. initdb runs once into a template kept in the
 * system's temp directory (made under a lock, so that test files starting together wait
 * for one initdb); each server copies it, which is several times faster than initdb.
 *
 * Tests kill processes, not the machine, so fsync is off unless a test asks for it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PG_ROOT = "/usr/lib/postgresql";
const START_MS = 30_000;
const STOP_MS = 10_000;
const TEMPLATE_WAIT_MS = 90_000;

/**
 * How long a test file's hooks may take to start or stop engines: an initdb, a copy and
 * a start on a machine shared with other work take seconds, not the default five.
 */
export const ENGINE_MS = 60_000;

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** The newest installed Postgres's bin directory; a clear error when there is none. */
export function postgresBin(): string {
  let versions: string[] = [];
  try {
    versions = readdirSync(PG_ROOT).filter((v) => existsSync(join(PG_ROOT, v, "bin", "postgres")));
  } catch {}
  if (!versions.length)
    throw new Error("Postgres is not installed (apt-get install postgresql; npm test's pretest does it when run as root)");
  versions.sort((a, b) => Number(b) - Number(a));
  return join(PG_ROOT, versions[0], "bin");
}

export function redisBin(): string {
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (existsSync(p)) return p;
  throw new Error("redis-server is not installed (apt-get install redis-server; npm test's pretest does it when run as root)");
}

/** Who runs Postgres: nobody when we are root, ourselves otherwise. */
function owner(): { wrap: string[]; uid: number; gid: number } {
  if (!isRoot()) return { wrap: [], uid: process.getuid!(), gid: process.getgid!() };
  const id = (flag: string) => Number(spawnSync("id", [flag, "nobody"], { encoding: "utf8" }).stdout.trim());
  return { wrap: ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"], uid: id("-u"), gid: id("-g") };
}

/**
 * Every child still running, killed when the test process ends however it ends (short of
 * SIGKILL, which the runner's group kill covers), and every directory made, removed then:
 * a file whose hooks timed out never got to close what it started.
 */
const live = new Set<ChildProcess>();
const dirs = new Set<string>();
process.once("exit", () => {
  for (const c of live) killTree(c.pid!, "SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The pids of `pid`'s children, read from /proc (Postgres's backends, before the postmaster goes). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {}
  }
  return out;
}

function killTree(pid: number, signal: NodeJS.Signals): void {
  const kids = childrenOf(pid);
  try {
    process.kill(pid, signal);
  } catch {}
  for (const k of kids) {
    try {
      process.kill(k, signal);
    } catch {}
  }
}

const randomPort = () => 20_000 + Math.floor(Math.random() * 40_000);

/** A child started and waited for until its log says it is ready; null when its port was taken (try another). */
async function startChild(
  cmd: string[],
  opts: { ready: RegExp; portTaken: RegExp; what: string; cwd?: string },
): Promise<{ child: ChildProcess; log: () => string } | null> {
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ["ignore", "pipe", "pipe"], cwd: opts.cwd });
  live.add(child);
  let log = "";
  // Always read: a child whose pipe fills up blocks on its next log line.
  const take = (d: Buffer) => {
    log += String(d);
    if (log.length > 64_000) log = log.slice(-32_000);
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.once("exit", () => live.delete(child));
  const deadline = Date.now() + START_MS;
  while (!opts.ready.test(log)) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (opts.portTaken.test(log)) return null;
      throw new Error(`${opts.what} exited before it was ready:\n${log}`);
    }
    if (Date.now() > deadline) {
      killTree(child.pid!, "SIGKILL");
      await exited;
      throw new Error(`${opts.what} was not ready within ${START_MS / 1000} s:\n${log}`);
    }
    await Promise.race([exited, Bun.sleep(20)]);
  }
  return { child, log: () => log };
}

/** Signal a child and wait for it to end; SIGKILL (with its children) past the deadline. */
async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const kids = signal === "SIGKILL" ? childrenOf(child.pid!) : [];
  child.kill(signal);
  for (const k of kids) {
    try {
      process.kill(k, "SIGKILL");
    } catch {}
  }
  const timer = setTimeout(() => killTree(child.pid!, "SIGKILL"), STOP_MS);
  await exited;
  clearTimeout(timer);
  // Killed children hold on to what they had (Postgres's shared memory) until they are gone.
  const deadline = Date.now() + STOP_MS;
  while (kids.some(alive) && Date.now() < deadline) await Bun.sleep(10);
}

// ---------------------------------------------------------------------------------------
// Postgres

/** The initdb'd template this uid and Postgres version share; made once, under a lock. */
async function template(bin: string): Promise<string> {
  const version = bin.split("/").at(-2);
  const base = join(tmpdir(), `parley-pg-template-${version}-${process.getuid?.() ?? 0}`);
  const data = join(base, "data");
  const ready = join(base, "READY");
  if (existsSync(ready)) return data;
  const lock = `${base}.lock`;
  const deadline = Date.now() + TEMPLATE_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (existsSync(ready)) return data;
    // A holder that died (killed at its deadline) leaves its lock: take it over.
    let holder = 0;
    try {
      holder = Number(readFileSync(join(lock, "pid"), "utf8"));
    } catch {}
    if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`waited ${TEMPLATE_WAIT_MS / 1000} s for another process's initdb (lock ${lock})`);
    await Bun.sleep(100);
  }
  try {
    if (existsSync(ready)) return data;
    rmSync(base, { recursive: true, force: true });
    mkdirSync(data, { recursive: true });
    const who = owner();
    chmodSync(base, 0o711);
    chownSync(data, who.uid, who.gid);
    chmodSync(data, 0o700);
    const [cmd, ...args] = [
      ...who.wrap,
      join(bin, "initdb"),
      "-D",
      data,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ];
    const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 120_000 });
    if (r.status !== 0) throw new Error(`initdb failed (${r.status ?? r.signal}): ${r.stderr || r.error}`);
    writeFileSync(ready, new Date().toISOString());
    return data;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface PostgresOptions {
  /** Keep fsync and full-page writes on (a test of durability across a Postgres crash). */
  durable?: boolean;
  /** More `-c name=value` settings. */
  settings?: Record<string, string | number>;
}

export interface Postgres {
  readonly port: number;
  /** The data directory, which also holds the unix socket. */
  readonly dataDir: string;
  /** The unix socket's path (Bun.sql's `path`). */
  readonly socket: string;
  /** A TCP URL of a database (default "postgres"), as an operator would give it. */
  url(database?: string): string;
  /** Bun.sql options for a database over the unix socket. */
  socketOptions(database?: string): { path: string; username: string; database: string };
  /** The postmaster's pid while it runs. */
  readonly pid: number | null;
  /** Make an empty database (named, or a fresh name) and answer its name. */
  createDatabase(name?: string): Promise<string>;
  /** Stop: "fast" (SIGINT: rolls back sessions, checkpoints), "immediate" (SIGQUIT: crash-like, recovery at next start). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** SIGKILL the postmaster and its backends at once. */
  kill(): Promise<void>;
  /** Start again on the same port and data (after stop or kill). */
  start(): Promise<void>;
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** Stop at once and remove every file. */
  close(): Promise<void>;
  /** What it logged lately. */
  log(): string;
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<Postgres> {
  const bin = postgresBin();
  const tpl = await template(bin);
  const who = owner();
  const dir = mkdtempSync(join(tmpdir(), "parley-pg-"));
  dirs.add(dir);
  chmodSync(dir, 0o711);
  const dataDir = join(dir, "data");
  const cp = spawnSync("cp", ["-a", tpl, dataDir], { encoding: "utf8" });
  if (cp.status !== 0) throw new Error(`copying the Postgres template failed: ${cp.stderr}`);
  const settings: Record<string, string | number> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: dataDir,
    max_connections: 60,
    shared_buffers: "32MB",
    ...(opts.durable ? {} : { fsync: "off", full_page_writes: "off", synchronous_commit: "on" }),
    ...opts.settings,
  };
  let port = 0;
  let proc: { child: ChildProcess; log: () => string } | null = null;
  const launch = async (p: number) => {
    const args = ["-D", dataDir, "-p", String(p), ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
    return startChild([...who.wrap, join(bin, "postgres"), ...args], {
      ready: /database system is ready to accept connections/,
      portTaken: /could not bind|Address already in use|could not create any TCP\/IP sockets/,
      what: "postgres",
      cwd: dir,
    });
  };
  for (let attempt = 0; !proc; attempt++) {
    if (attempt === 10) throw new Error("no free port for postgres after 10 tries");
    port = randomPort();
    proc = await launch(port);
  }
  const pg: Postgres = {
    port,
    dataDir,
    socket: join(dataDir, `.s.PGSQL.${port}`),
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    socketOptions: (database = "postgres") => ({ path: join(dataDir, `.s.PGSQL.${port}`), username: "postgres", database }),
    get pid() {
      return proc && proc.child.exitCode === null && proc.child.signalCode === null ? proc.child.pid! : null;
    },
    async createDatabase(name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`) {
      const sql = new Bun.SQL({ ...pg.socketOptions(), max: 1 });
      try {
        await sql.unsafe(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await sql.close();
      }
      return name;
    },
    async stop(mode = "fast") {
      if (proc) await ended(proc.child, mode === "fast" ? "SIGINT" : "SIGQUIT");
    },
    async kill() {
      if (proc) await ended(proc.child, "SIGKILL");
    },
    async start() {
      if (pg.pid) return;
      // Our own port again: retry a while if a just-killed backend still holds it.
      for (let attempt = 0; ; attempt++) {
        proc = await launch(port);
        if (proc) return;
        if (attempt === 50) throw new Error(`postgres could not bind its port ${port} again`);
        await Bun.sleep(100);
      }
    },
    async restart(mode = "fast") {
      await pg.stop(mode);
      await pg.start();
    },
    async close() {
      await pg.stop("immediate");
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
    log: () => proc?.log() ?? "",
  };
  return pg;
}

/**
 * What another node would be doing at this moment: `sql` run by psql in the background,
 * typically a transaction that takes an advisory lock (Store.serialize's), writes and
 * sleeps before it commits. `locked` resolves once an advisory lock is held on the
 * server; `ended` with psql's exit code.
 */
export function psqlBackground(pg: Postgres, database: string, sql: string): { locked: Promise<void>; ended: Promise<number | null> } {
  const child = spawn(join(postgresBin(), "psql"), [pg.url(database), "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], { stdio: "ignore" });
  live.add(child);
  const ended = new Promise<number | null>((r) =>
    child.once("exit", (code) => {
      live.delete(child);
      r(code);
    }),
  );
  const locked = (async () => {
    const watch = new Bun.SQL({ ...pg.socketOptions(database), max: 1 });
    try {
      const deadline = Date.now() + START_MS;
      while (!(await watch`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted`).length) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`psql took no advisory lock (exit ${child.exitCode})`);
        await Bun.sleep(10);
      }
    } finally {
      await watch.close();
    }
  })();
  return { locked, ended };
}

// ---------------------------------------------------------------------------------------
// Redis

export interface Redis {
  readonly port: number;
  readonly url: string;
  readonly pid: number | null;
  /** Stop (SIGTERM: redis-server saves nothing here and exits). */
  stop(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
  log(): string;
}

export async function startRedis(): Promise<Redis> {
  const bin = redisBin();
  const dir = mkdtempSync(join(tmpdir(), "parley-redis-"));
  dirs.add(dir);
  let port = 0;
  let proc: { child: ChildProcess; log: () => string } | null = null;
  const launch = (p: number) =>
    startChild(
      [
        bin,
        "--port",
        String(p),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "notice",
      ],
      {
        ready: /Ready to accept connections/,
        portTaken: /Address already in use|Could not create server TCP listening socket/,
        what: "redis-server",
        cwd: dir,
      },
    );
  for (let attempt = 0; !proc; attempt++) {
    if (attempt === 10) throw new Error("no free port for redis-server after 10 tries");
    port = randomPort();
    proc = await launch(port);
  }
  const r: Redis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return proc && proc.child.exitCode === null && proc.child.signalCode === null ? proc.child.pid! : null;
    },
    async stop() {
      if (proc) await ended(proc.child, "SIGTERM");
    },
    async kill() {
      if (proc) await ended(proc.child, "SIGKILL");
    },
    async start() {
      if (r.pid) return;
      for (let attempt = 0; ; attempt++) {
        proc = await launch(port);
        if (proc) return;
        if (attempt === 50) throw new Error(`redis-server could not bind its port ${port} again`);
        await Bun.sleep(100);
      }
    },
    async restart() {
      await r.stop();
      await r.start();
    },
    async close() {
      await r.kill();
      rmSync(dir, { recursive: true, force: true });
      dirs.delete(dir);
    },
    log: () => proc?.log() ?? "",
  };
  return r;
}
