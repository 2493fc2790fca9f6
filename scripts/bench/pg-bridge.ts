/**
 * What a statement costs through the Postgres bridge (src/store/pg/bridge.ts) beside
 * bun:sqlite: a point select by key, and small write transactions, each as the core would
 * run it (a synchronous call that answers when the statement has). Postgres runs locally,
 * on a unix socket, with its durable defaults (fsync and synchronous_commit on); SQLite
 * is a WAL file at synchronous=NORMAL, as the single node runs it.
 *
 * Per figure: wall time per operation, and CPU per operation of this process (both of
 * the bridge's threads) and of the Postgres backend serving it, from /proc. Each is the
 * best and the median of several rounds: on a shared machine the best is the machine's,
 * the median the neighbours'.
 *
 *   bun scripts/bench/pg-bridge.ts [--rounds 5] [--ops 2000]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PgDatabase } from "../../src/store/pg/bridge";
import type { SqlDb } from "../../src/store/sql";
import { startPostgres } from "../../test/support/engines";
import { argOf } from "./lib";

const ROUNDS = argOf("rounds", 5);
const OPS = argOf("ops", 2000);
const TICK_US = 1e6 / 100; // USER_HZ

/** utime + stime of a process, in microseconds. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_US;
}

interface Figure {
  wall: number;
  cpu: number;
  server: number;
}

function measure(op: (i: number) => void, serverPid: number | null, n = OPS): Figure {
  for (let i = 0; i < Math.min(200, n); i++) op(-1 - i); // warm: prepared statements, caches
  const s0 = serverPid ? cpuOf(serverPid) : 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) op(i);
  const wall = ((performance.now() - t0) * 1000) / n;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / n, server: serverPid ? (cpuOf(serverPid) - s0) / n : 0 };
}

function summary(name: string, figures: Figure[]): string {
  const pick = (k: keyof Figure) => {
    const v = figures.map((f) => f[k]).sort((a, b) => a - b);
    return `${v[0].toFixed(1)} / ${v[Math.floor(v.length / 2)].toFixed(1)}`;
  };
  return `| ${name} | ${pick("wall")} | ${pick("cpu")} | ${figures[0].server ? pick("server") : "-"} |`;
}

const pg = await startPostgres({ durable: true });
const dir = mkdtempSync(join(tmpdir(), "parley-bench-pg-"));
try {
  const name = await pg.createDatabase();
  const db = new PgDatabase(pg.socketOptions(name));
  const backend = (db.native("SELECT pg_backend_pid() AS pid").get() as { pid: number }).pid;
  const lite = new Database(join(dir, "bench.db"), { create: true, strict: true });
  lite.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
  lite.exec("CREATE TABLE kv (id TEXT PRIMARY KEY, n INTEGER NOT NULL, body TEXT NOT NULL)");
  db.execNative('CREATE TABLE kv (id text COLLATE "C" PRIMARY KEY, n bigint NOT NULL, body text COLLATE "C" NOT NULL)');
  const key = (i: number) => `0190a000-0000-7000-8000-${String(i).padStart(12, "0")}`;
  for (const d of [lite, db] as SqlDb[])
    d.transaction(() => {
      const ins = d.query("INSERT INTO kv (id, n, body) VALUES (?, ?, ?)");
      for (let i = 0; i < 10_000; i++) ins.run(key(i), i, "x".repeat(200));
    })();

  const rows: Record<string, Figure[]> = {};
  const add = (name: string, f: Figure) => (rows[name] ??= []).push(f);
  const rawSql = new Bun.SQL({ ...pg.socketOptions(name), max: 1 });
  let w = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const sel = (d: SqlDb) => d.query("SELECT id, n, body FROM kv WHERE id = ?");
    add(
      "point select: bun:sqlite",
      measure((i) => sel(lite).get(key(Math.abs(i) % 10_000)), null),
    );
    add(
      "point select: Postgres bridge",
      measure((i) => sel(db).get(key(Math.abs(i) % 10_000)), backend),
    );
    // The floor: Bun.sql from an async caller, one statement at a time.
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < OPS; i++) await rawSql`SELECT id, n, body FROM kv WHERE id = ${key(i % 10_000)}`;
    const c = process.cpuUsage(c0);
    add("point select: Bun.sql async (no bridge)", {
      wall: ((performance.now() - t0) * 1000) / OPS,
      cpu: (c.user + c.system) / OPS,
      server: 0,
    });

    // A small write: its own transaction of two inserts, committed (waits for the disk on Postgres).
    const write = (d: SqlDb) => (i: number) =>
      d.transaction(() => {
        const ins = d.query("INSERT INTO kv (id, n, body) VALUES (?, ?, ?)");
        ins.run(`w${r}-${i}-a-${++w}`, i, "post");
        ins.run(`w${r}-${i}-b-${w}`, i, "post");
      })();
    add("transaction (2 inserts, commit): bun:sqlite", measure(write(lite), null, OPS / 4));
    add("transaction (2 inserts, commit): Postgres bridge", measure(write(db), backend, OPS / 4));
    // The same without waiting for the disk at COMMIT: what the bridge itself costs a write.
    db.execNative("SET synchronous_commit = off");
    add("transaction (2 inserts, commit): Postgres bridge, synchronous_commit off", measure(write(db), backend, OPS / 4));
    db.execNative("SET synchronous_commit = on");

    // The group commit's shape: 20 writes, each a savepoint with an insert and a read, one COMMIT.
    const group = (d: SqlDb) => {
      let k = 0;
      return (i: number) => {
        if (k % 20 === 0) d.exec("BEGIN");
        d.transaction(() => {
          d.query("INSERT INTO kv (id, n, body) VALUES (?, ?, ?)").run(`g${r}-${i}-${++w}`, i, "post");
          d.query("SELECT n FROM kv WHERE id = ?").get(key(Math.abs(i) % 10_000));
        })();
        if (++k % 20 === 0) d.exec("COMMIT");
      };
    };
    // 200 warm-up writes and 2000 measured: both whole groups.
    add("write in a group of 20 (savepoint, insert, read): bun:sqlite", measure(group(lite), null, 2000));
    add("write in a group of 20 (savepoint, insert, read): Postgres bridge", measure(group(db), backend, 2000));
  }
  console.log(
    `\n${ROUNDS} rounds of ${OPS} operations (transactions: ${OPS / 4}); load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
  console.log("| per operation (best / median) | wall us | this process CPU us | Postgres backend CPU us |");
  console.log("|---|---|---|---|");
  for (const [name, figures] of Object.entries(rows)) console.log(summary(name, figures));
  await rawSql.close();
  db.close();
  lite.close();
} finally {
  await pg.close();
  rmSync(dir, { recursive: true, force: true });
}
