/**
 * The test engines themselves (test/support/engines.ts): a Postgres and a redis-server on
 * temporary directories and ports, reached by Bun's own clients, restarted and killed
 * under a client's feet, and gone without a trace once stopped.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { ENGINE_MS, startPostgres, startRedis, type Postgres, type Redis } from "../support/engines";

const started: (Postgres | Redis)[] = [];
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
}, ENGINE_MS);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids whose parent is pid (Postgres's backends and helpers). */
const children = (pid: number) =>
  readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

describe("Postgres", () => {
  test("two servers start side by side, each on its own port, reached over TCP and its unix socket", async () => {
    const [a, b] = await Promise.all([startPostgres(), startPostgres()]);
    started.push(a, b);
    expect(a.port).not.toBe(b.port);
    for (const pg of [a, b]) {
      const tcp = new Bun.SQL({ url: pg.url(), max: 1 });
      const unix = new Bun.SQL({ ...pg.socketOptions(), max: 1 });
      try {
        const [viaTcp] = await tcp`SELECT host(inet_client_addr()) AS addr, current_setting('port') AS port`;
        const [viaSocket] = await unix`SELECT host(inet_client_addr()) AS addr, current_setting('fsync') AS fsync`;
        expect(viaTcp).toEqual({ addr: "127.0.0.1", port: String(pg.port) });
        // A unix socket has no client address.
        expect(viaSocket).toEqual({ addr: null, fsync: "off" });
      } finally {
        await Promise.all([tcp.close(), unix.close()]);
      }
    }
  }, 60_000);

  test("a restart, fast or after kill -9, keeps what was committed, and a client carries on", async () => {
    const pg = await startPostgres();
    started.push(pg);
    const db = await pg.createDatabase();
    const sql = new Bun.SQL({ ...pg.socketOptions(db), max: 1 });
    try {
      await sql`CREATE TABLE t (n int)`;
      await sql`INSERT INTO t VALUES (1)`;
      const firstPid = pg.pid!;
      await pg.restart("fast");
      expect(pg.pid).not.toBe(firstPid);
      expect(alive(firstPid)).toBe(false);
      // The client's connection died with the server; Bun.sql opens a new one.
      let rows: { n: number }[] = [];
      await until("a query after the restart", async () => {
        rows = await sql`SELECT n FROM t`.catch(() => []);
        return rows.length > 0;
      });
      expect(rows).toEqual([{ n: 1 }]);
      await sql`INSERT INTO t VALUES (2)`;
      const pid = pg.pid!;
      const backends = children(pid);
      expect(backends.length).toBeGreaterThan(0);
      await pg.kill();
      expect([pid, ...backends].filter(alive)).toEqual([]);
      await pg.start();
      await until("a query after kill -9", async () => {
        rows = await sql`SELECT n FROM t ORDER BY n`.catch(() => []);
        return rows.length > 0;
      });
      expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await sql.close();
    }
  }, 60_000);

  test("stop and close leave no process and no files", async () => {
    const pg = await startPostgres({ durable: true });
    const pid = pg.pid!;
    const sql = new Bun.SQL({ ...pg.socketOptions(), max: 1 });
    const [{ fsync }] = await sql`SELECT current_setting('fsync') AS fsync`;
    expect(fsync).toBe("on");
    await sql.close();
    const kids = children(pid);
    await pg.stop();
    expect(pg.pid).toBeNull();
    expect([pid, ...kids].filter(alive)).toEqual([]);
    await pg.close();
    expect(existsSync(pg.dataDir)).toBe(false);
    // Nobody answers on its port any more.
    const probe = new Bun.SQL({ url: pg.url(), max: 1, connectionTimeout: 2 });
    await expect(probe`SELECT 1`).rejects.toThrow();
    await probe.close();
  }, 60_000);
});

describe("Redis", () => {
  test("reached with Bun's client, which reconnects across a restart; stop leaves nothing running", async () => {
    const r = await startRedis();
    started.push(r);
    const client = new Bun.RedisClient(r.url);
    try {
      await client.set("k", "v");
      expect(await client.get("k")).toBe("v");
      const pid = r.pid!;
      await r.restart();
      expect(alive(pid)).toBe(false);
      // Nothing is saved across a restart here; the client reconnects on its own.
      let got: string | null = "unset";
      await until("a command after the restart", async () => {
        got = await client.get("k").catch(() => "unset");
        return got !== "unset";
      });
      expect(got).toBeNull();
      await client.set("k", "w");
      expect(await client.get("k")).toBe("w");
      const again = r.pid!;
      await r.stop();
      expect(alive(again)).toBe(false);
      expect(r.pid).toBeNull();
      const probe = new Bun.RedisClient(r.url, { autoReconnect: false, connectionTimeout: 2000 });
      await expect(probe.get("k")).rejects.toThrow();
      probe.close();
    } finally {
      client.close();
    }
  }, 60_000);
});
