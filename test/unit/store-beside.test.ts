/**
 * Two processes writing one SQLite file (an operator's command beside a live server): a
 * write transaction takes the write lock at its BEGIN. One that read first and asked for
 * the lock at its first write failed at once with SQLITE_BUSY_SNAPSHOT, without waiting,
 * whenever the other process committed in between: `parley user delete` beside a server
 * printed nothing and exited, the server having flushed its search entries that instant.
 * Two stores on one file stand for the two processes, each with its own connection.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";

let dir: string;
let server: Store;
let command: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-beside-"));
  const path = join(dir, "parley.db");
  server = new Store({ path, synchronous: "NORMAL" });
  command = new Store({ path, synchronous: "NORMAL" });
  server.db.exec("CREATE TABLE scratch (who TEXT NOT NULL)");
  // Refused at once rather than after the usual wait: the test holds the other side's lock itself.
  for (const s of [server, command]) s.db.exec("PRAGMA busy_timeout = 0");
});

afterEach(() => {
  command.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (s: Store) => (s.db.query("SELECT count(*) AS n FROM scratch").get() as { n: number }).n;
const insert = (s: Store, who: string) => s.db.query("INSERT INTO scratch (who) VALUES (?)").run(who);
const rows = () => (server.db.query("SELECT who FROM scratch ORDER BY rowid").all() as { who: string }[]).map((r) => r.who);

test("a write that reads first keeps its turn: the other process waits for it, not the other way round", () => {
  let refused: unknown = null;
  command.write(() => {
    expect(count(command)).toBe(0);
    try {
      server.write(() => insert(server, "server"));
    } catch (e) {
      refused = e;
    }
    insert(command, "command");
  });
  expect((refused as { code?: string } | null)?.code).toStartWith("SQLITE_BUSY");
  server.write(() => insert(server, "server"));
  expect(rows()).toEqual(["command", "server"]);
});

test("the group commit holds the lock from its first write to its commit", async () => {
  let refused: unknown = null;
  await server.batched(() =>
    server.write(() => {
      expect(count(server)).toBe(0);
      try {
        command.write(() => insert(command, "command"));
      } catch (e) {
        refused = e;
      }
      insert(server, "server");
    }),
  );
  expect((refused as { code?: string } | null)?.code).toStartWith("SQLITE_BUSY");
  command.write(() => insert(command, "command"));
  expect(rows()).toEqual(["server", "command"]);
});
