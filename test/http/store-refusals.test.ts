// When SQLite itself refuses a write: its disk full (507) or its lock held past the busy
// timeout by another process (503 and Retry-After). Neither is a bug: no 500, no stack
// in the answer or the log, nothing stored by the refused request, nothing lost before
// it, and the same request goes through once the disk has room or the lock is let go.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { SPEC_RATE_LIMITS, testConfig } from "../../src/config";
import { BASIC_WORLD, call } from "../helpers";

let p: Parley | null = null;
let dir: string | null = null;

afterEach(async () => {
  await p?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  p = dir = null;
});

function start(dbPath = ":memory:") {
  const lines: string[] = [];
  const config = testConfig({ dbPath, logLevel: "warn", rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
  p = createParley(config, { logSink: (line) => lines.push(line) });
  const w = p.seed(structuredClone(BASIC_WORLD));
  const token = w.applications.EchoBot.token;
  const general = w.guilds.Lab.channels.general;
  const post = (content: string) => call(p!, "POST", `/channels/${general}/messages`, { token, body: { content } });
  const contents = async () =>
    ((await call(p!, "GET", `/channels/${general}/messages?limit=100`, { token })).body as { content: string }[]).map((m) => m.content);
  const edit = (id: string, content: string) => call(p!, "PATCH", `/channels/${general}/messages/${id}`, { token, body: { content } });
  return { post, edit, contents, lines };
}

test("a full disk answers 507, keeps what was stored, and posts again once there is room", async () => {
  const { post, contents, lines } = start();
  expect((await post("before")).status).toBe(200);
  const db = p!.store.db;
  const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  // SQLite's own limit on the database's size: past it, a write fails with SQLITE_FULL as on a full disk.
  db.exec(`PRAGMA max_page_count = ${pages}`);
  let refused = null as Awaited<ReturnType<typeof post>> | null;
  const accepted: string[] = [];
  for (let i = 0; i < 200 && !refused; i++) {
    const r = await post(`${i} ${"x".repeat(1900)}`);
    if (r.status === 200) accepted.push(r.body.content);
    else refused = r;
  }
  expect(refused?.status).toBe(507);
  expect(refused?.body).toEqual({ code: 0, message: "507: Insufficient Storage" });
  expect(refused?.text).not.toContain("at ");
  // The operator hears of it as a warning, not as a bug with its stack.
  expect(lines.some((l) => l.includes("disk space unavailable"))).toBe(true);
  expect(lines.filter((l) => l.includes("internal error"))).toEqual([]);

  const kept = await contents();
  expect(kept).toContain("before");
  for (const c of accepted) expect(kept).toContain(c);
  expect(kept).toHaveLength(accepted.length + 1);

  db.exec(`PRAGMA max_page_count = ${pages * 100}`);
  expect((await post("after")).status).toBe(200);
  expect((await contents())[0]).toBe("after");
});

test("/readyz says a full disk refuses writes: still ready (reads work), degraded, until a write finds room", async () => {
  const { post, edit } = start();
  const first = (await post("first")).body.id as string;
  const readyz = async () => {
    const r = await p!.handle(new Request("http://localhost:7420/readyz"));
    return { status: r.status, body: (await r.json()) as { status: string; degraded?: string[] } };
  };
  const gauge = async () =>
    /^parley_degraded (\d+)$/m.exec(await (await p!.handle(new Request("http://localhost:7420/metrics"))).text())?.[1];
  expect((await readyz()).body.degraded).toBeUndefined();
  const db = p!.store.db;
  const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  db.exec(`PRAGMA max_page_count = ${pages}`);
  let status = 200;
  for (let i = 0; i < 200 && status === 200; i++) status = (await post(`${i} ${"x".repeat(1900)}`)).status;
  expect(status).toBe(507);

  const full = await readyz();
  expect([full.status, full.body.status]).toEqual([200, "ready"]);
  expect(full.body.degraded).toEqual([expect.stringMatching(/^disk full: writes that need room are refused \(507\) since \d{4}-/)]);
  expect(await gauge()).toBe("1");
  // A write that needs no new page (an edit to shorter text) goes through, and does not clear it.
  expect((await edit(first, "1")).status).toBe(200);
  expect((await readyz()).body.degraded).toHaveLength(1);

  db.exec(`PRAGMA max_page_count = ${pages * 100}`);
  expect((await post(`after ${"x".repeat(1900)}`)).status).toBe(200);
  expect((await readyz()).body.degraded).toBeUndefined();
  expect(await gauge()).toBe("0");
});

test("the database locked by another process past the busy timeout answers 503 with Retry-After", async () => {
  dir = mkdtempSync(join(tmpdir(), "parley-busy-"));
  const { post, contents, lines } = start(join(dir, "parley.db"));
  expect((await post("before")).status).toBe(200);
  p!.store.db.exec("PRAGMA busy_timeout = 20");
  const other = new Database(join(dir, "parley.db"));
  try {
    other.exec("BEGIN IMMEDIATE");
    const r = await post("while locked");
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(r.body).toEqual({ code: 0, message: "503: Service Unavailable" });
    other.exec("ROLLBACK");
    expect(lines.filter((l) => l.includes("internal error"))).toEqual([]);
  } finally {
    other.close();
  }
  expect((await post("after")).status).toBe(200);
  expect(await contents()).toEqual(["after", "before"]);
});
