/**
 * The one relay of domain events between processes (src/store/relay.ts): an operator's
 * command's store sends each write's events in the write's transaction; the server's
 * store publishes them after that commit, each write as one commit's events, in commit
 * order. Two stores on one file stand for the two processes (each has its own
 * connection, exactly as beside a live server).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../src/store/db";

let dir: string;
let server: Store;
let command: Store;
/** What the server's bus was handed: one entry per commit. */
let published: unknown[][];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-relay-"));
  const path = join(dir, "parley.db");
  server = new Store({ path, synchronous: "NORMAL" });
  command = new Store({ path, synchronous: "NORMAL", relay: true });
  published = [];
  server.onCommit((events) => published.push(events));
});

afterEach(() => {
  command.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store looks for other writers once per turn of the event loop: the next look is in a later turn. */
const nextTurn = () => new Promise((r) => setImmediate(r));

/** One write of the command, emitting these events. */
function write(store: Store, ...events: string[]): void {
  store.write(() => {
    store.db.query("SELECT 1").get();
    for (const type of events) store.emit({ type });
  });
}

test("every event of each committed write, each write as one commit, in commit order", async () => {
  server.relay.listen();
  write(command, "a1", "a2");
  write(command, "b1");
  command.write(() => {}); // a write with no events sends nothing
  await nextTurn();
  server.publishRelayed();
  expect(published).toEqual([[{ type: "a1" }, { type: "a2" }], [{ type: "b1" }]]);
  // Published once: the next look finds nothing new.
  await nextTurn();
  server.publishRelayed();
  expect(published).toHaveLength(2);
});

test("a rolled-back write sends nothing", async () => {
  server.relay.listen();
  expect(() =>
    command.write(() => {
      command.emit({ type: "never" });
      throw new Error("refused");
    }),
  ).toThrow("refused");
  write(command, "kept");
  await nextTurn();
  server.publishRelayed();
  expect(published).toEqual([[{ type: "kept" }]]);
});

test("what was written before the server listened is for nobody", async () => {
  write(command, "before");
  await nextTurn();
  server.relay.listen();
  write(command, "after");
  await nextTurn();
  server.publishRelayed();
  expect(published).toEqual([[{ type: "after" }]]);
});

test("the server sends nothing of its own writes: they are published at their commit", async () => {
  server.relay.listen();
  write(server, "own");
  expect(published).toEqual([[{ type: "own" }]]);
  expect((command.db.query("SELECT count(*) AS n FROM relayed_events").get() as { n: number }).n).toBe(0);
});

test("never read inside an open group commit: the rows wait for the next look, none is lost", async () => {
  server.relay.listen();
  write(command, "beside");
  await nextTurn();
  // The server's open batch (a bot API request's write), committed at the end of this turn.
  const batched = server.batched(() => write(server, "batched"));
  server.publishRelayed();
  expect(published).toEqual([]);
  await batched;
  await nextTurn();
  server.publishRelayed();
  expect(published).toEqual([[{ type: "batched" }], [{ type: "beside" }]]);
});

test("a command's group-committed writes are sent like any other", async () => {
  server.relay.listen();
  await command.batched(() => {
    write(command, "one");
    write(command, "two");
  });
  await nextTurn();
  server.publishRelayed();
  expect(published).toEqual([[{ type: "one" }], [{ type: "two" }]]);
});

test("the sender keeps the table short; the server only reads", async () => {
  server.relay.listen();
  for (let i = 0; i < 1005; i++) write(command, `e${i}`);
  expect((command.db.query("SELECT count(*) AS n FROM relayed_events").get() as { n: number }).n).toBe(1000);
  await nextTurn();
  server.publishRelayed();
  expect(published.at(-1)).toEqual([{ type: "e1004" }]);
  expect(published).toHaveLength(1000);
});
