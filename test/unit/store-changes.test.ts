// What lets the core keep reads in memory (src/store/changes.ts): a stamp per set of
// tables that moves with every change to them, seen as it happens (ordinary tables
// through the update hook, WITHOUT ROWID ones through triggers), with rollbacks, and with
// commits by another connection.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-changes-"));
  store = new Store({ path: join(dir, "t.db"), synchronous: "NORMAL" });
  store.db.exec("CREATE TABLE parent (id TEXT PRIMARY KEY)");
  store.db.exec("CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id) ON DELETE CASCADE) WITHOUT ROWID");
  store.db.exec("CREATE TABLE other (id TEXT PRIMARY KEY)");
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (sql: string) => store.write(() => store.db.query(sql).run());

test("a change to a followed table moves its stamp at once; others do not", () => {
  const parent = store.changes.watch(["parent"]);
  const child = store.changes.watch(["child"]);
  const p0 = parent.stamp();
  const c0 = child.stamp();
  run("INSERT INTO other VALUES ('x')");
  expect([parent.stamp(), child.stamp()]).toEqual([p0, c0]);
  run("INSERT INTO parent VALUES ('p')");
  const p1 = parent.stamp();
  expect(p1).not.toBe(p0);
  expect(child.stamp()).toBe(c0);
  // WITHOUT ROWID: the update hook does not report it; the triggers do.
  run("INSERT INTO child VALUES ('c', 'p')");
  const c1 = child.stamp();
  expect(c1).not.toBe(c0);
  run("UPDATE child SET id = 'c2' WHERE id = 'c'");
  expect(child.stamp()).not.toBe(c1);
});

test("a cascade moves the stamp of the table it deletes from", () => {
  run("INSERT INTO parent VALUES ('p')");
  run("INSERT INTO child VALUES ('c', 'p')");
  const child = store.changes.watch(["child"]);
  const before = child.stamp();
  run("DELETE FROM parent WHERE id = 'p'");
  expect(store.db.query("SELECT count(*) AS n FROM child").get()).toEqual({ n: 0 });
  expect(child.stamp()).not.toBe(before);
});

test("'t!' follows existing rows only: inserts leave it, updates and deletes move it", () => {
  const existing = store.changes.watch(["child!"]);
  run("INSERT INTO parent VALUES ('p')");
  const s0 = existing.stamp();
  run("INSERT INTO child VALUES ('c', 'p')");
  expect(existing.stamp()).toBe(s0);
  run("UPDATE child SET id = 'd' WHERE id = 'c'");
  const s1 = existing.stamp();
  expect(s1).not.toBe(s0);
  run("DELETE FROM child WHERE id = 'd'");
  expect(existing.stamp()).not.toBe(s1);
});

test("a rolled-back write moves every stamp; a refused one that wrote nothing moves none", () => {
  const w = store.changes.watch(["other"]);
  const s0 = w.stamp();
  expect(() =>
    store.write(() => {
      throw new Error("refused before writing");
    }),
  ).toThrow("refused before writing");
  expect(w.stamp()).toBe(s0);
  expect(() =>
    store.write(() => {
      store.db.query("INSERT INTO parent VALUES ('gone')").run();
      throw new Error("refused after writing");
    }),
  ).toThrow("refused after writing");
  // Nothing of "other" changed, but whatever was read during the write may be gone.
  expect(w.stamp()).not.toBe(s0);
  expect(store.db.query("SELECT count(*) AS n FROM parent").get()).toEqual({ n: 0 });
});

test("a commit by another connection moves every stamp from the next turn of the event loop on", async () => {
  const w = store.changes.watch(["other"]);
  const s0 = w.stamp();
  const cli = new Database(join(dir, "t.db"));
  try {
    cli.exec("PRAGMA busy_timeout = 5000");
    cli.query("INSERT INTO parent VALUES ('from elsewhere')").run();
    // A request arriving after the commit is handled in a later turn, which looks again.
    await new Promise((r) => setImmediate(r));
    expect(w.stamp()).not.toBe(s0);
  } finally {
    cli.close();
  }
});

/** This process's POSIX locks on a file, as /proc/locks lists them ("READ 128 128": SQLite's "in use" byte of the -shm file). */
function locksOn(path: string): string[] {
  const ino = statSync(path).ino;
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((l) => l.includes(`:${ino} `) && l.split(/\s+/)[4] === String(process.pid))
    .map((l) =>
      l
        .split(/\s+/)
        .filter((_, i) => i === 3 || i >= 6)
        .join(" "),
    );
}

test("another process opening, writing to and closing the database finds this one still there, and its commits are seen", async () => {
  // Closing any descriptor of the -shm file drops all of this process's locks on it
  // (mapping it by path did): the next process to open the database then took it for
  // unused and reset the file under the server, which died of a bus error.
  const w = store.changes.watch(["other"]);
  run("INSERT INTO other VALUES ('here')");
  w.stamp();
  expect(locksOn(join(dir, "t.db-shm"))).toContain("READ 128 128");
  for (let i = 0; i < 3; i++) {
    const s0 = w.stamp();
    const child = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(join(dir, "t.db"))}); db.exec("PRAGMA busy_timeout = 5000"); db.query("INSERT INTO parent VALUES ('p${i}')").run(); db.close();`,
      ],
      { stdout: "inherit", stderr: "inherit" },
    );
    expect(await child.exited).toBe(0);
    // A request arriving after the commit is handled in a later turn, which looks again.
    await new Promise((r) => setImmediate(r));
    expect(w.stamp()).not.toBe(s0);
    run(`INSERT INTO other VALUES ('after ${i}')`);
  }
  // Still one whole database for both: every row is there, and the file checks out.
  expect(store.db.query("SELECT count(*) AS n FROM parent").get()).toEqual({ n: 3 });
  expect(store.db.query("SELECT count(*) AS n FROM other").get()).toEqual({ n: 4 });
  expect(store.db.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
  expect(locksOn(join(dir, "t.db-shm"))).toContain("READ 128 128");
});
