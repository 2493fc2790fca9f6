/**
 * `parley migrate`: a single node's data directory (SQLite and its files) copied into a
 * Postgres database, then a node started on that database (with a copy of the data
 * directory's secret key, and the media directory the copy filled) serves the same world:
 * the bot, with the token it had, reads the same messages under the same ids, with their
 * reactions, and their files download byte for byte. Bad input is one line and a non-zero
 * exit, never a stack trace; a database that holds data already is refused unless
 * --replace is given.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";
import { ENGINE_MS, startPostgres, type Postgres } from "../support/engines";
import { BASIC_WORLD, call } from "../helpers";
import { oneLine, parley, serve } from "../ops/support";
import { png } from "../support/png";

let pg: Postgres;
const dir = mkdtempSync(join(tmpdir(), "parley-pg-migrate-"));
const from = join(dir, "single");
const shared = join(dir, "shared-media");
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

beforeAll(async () => {
  pg = await startPostgres();
}, ENGINE_MS);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.close();
}, ENGINE_MS);

/** A single node's world: a bot's messages with reactions, a person's message with two files. */
async function singleNode() {
  const image = png(7, 5, 3);
  const text = new TextEncoder().encode("the minutes of the meeting\n".repeat(500));
  const p = createParley(loadConfig({ data: from, quiet: true, "rate-limits": "off" }, {}));
  try {
    const w = p.seed(structuredClone(BASIC_WORLD));
    const token = w.applications.EchoBot.token;
    const general = w.guilds.Lab.channels.general;
    for (const content of ["one", "two", "three"]) {
      const r = await call(p, "POST", `/channels/${general}/messages`, { token, body: { content } });
      expect(r.status).toBe(200);
      expect((await call(p, "PUT", `/channels/${general}/messages/${r.body.id}/reactions/%F0%9F%91%8D/@me`, { token })).status).toBe(204);
    }
    const alice = p.api.flakes.uuid(w.users.alice.id)!;
    const channel = p.api.flakes.uuid(general)!;
    const slots = p.core.media.openAttachments(alice, channel, [
      { filename: "plan.png", size: image.byteLength },
      { filename: "minutes.txt", size: text.byteLength },
    ]);
    await p.core.media.receive(alice, slots[0]!.id, image, image.byteLength);
    await p.core.media.receive(alice, slots[1]!.id, text, text.byteLength);
    await p.core.media.flushed(
      alice,
      slots.map((s) => s.id),
    );
    p.core.messages.send(alice, channel, { content: "files", attachments: slots.map((s) => ({ uploadId: s.id, description: null })) });
    // More than one batch of rows (store/pg/copy.ts copies a few hundred a statement).
    const staff = p.api.flakes.uuid(w.guilds.Lab.channels.staff)!;
    for (let i = 0; i < 1200; i++) p.core.messages.send(alice, staff, { content: `note ${i}` });
    const before = await call(p, "GET", `/channels/${general}/messages`, { token });
    expect(before.body).toHaveLength(4);
    return {
      token,
      general,
      before: before.body as any[],
      bytes: { "plan.png": sha(image), "minutes.txt": sha(text) } as Record<string, string>,
    };
  } finally {
    await p.stop();
  }
}

const shape = (m: any) => ({
  id: m.id,
  content: m.content,
  author: m.author.id,
  reactions: (m.reactions ?? []).map((r: any) => [r.emoji.name, r.count]),
  attachments: (m.attachments ?? []).map((a: any) => [a.id, a.filename, a.size]),
});

test("a single node migrated into Postgres: a node there serves the same messages, ids, reactions and files", async () => {
  const world = await singleNode();
  const url = pg.url(await pg.createDatabase());
  const r = await parley(["migrate", "--data", from, "--database", url, "--media-dir", shared], { ms: 60_000 });
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/copied \d+ tables, \d+ rows, 2 files \(\d+ bytes\)/);
  expect(r.out).toContain("checked: both worlds exported the same (users 4, servers 1, messages 1204)");

  // A node of the cluster: its own data directory with the key copied in, the shared media directory.
  const nodeData = join(dir, "node-a");
  mkdirSync(nodeData);
  copyFileSync(join(from, "secret.key"), join(nodeData, "secret.key"));
  const node = await serve(["--data", nodeData, "--database", url, "--media-dir", shared, "--port", "0", "--log-level", "warn"]);
  try {
    const res = await fetch(`${node.base}/api/v10/channels/${world.general}/messages`, {
      headers: { Authorization: `Bot ${world.token}` },
    });
    expect(res.status).toBe(200);
    const after = (await res.json()) as any[];
    expect(after.map(shape)).toEqual(world.before.map(shape));
    expect(after.filter((m) => m.reactions).length).toBe(3);
    const files = after.find((m) => m.content === "files").attachments as any[];
    expect(files).toHaveLength(2);
    for (const f of files) {
      const got = await fetch(f.url.replace(/^https?:\/\/[^/]+/, node.base));
      expect(got.status).toBe(200);
      expect(sha(new Uint8Array(await got.arrayBuffer()))).toBe(world.bytes[f.filename]);
    }
  } finally {
    await node.stop();
  }

  // The database holds a world now: refused in one line, unless --replace empties it first.
  oneLine(await parley(["migrate", "--data", from, "--database", url], { ms: 60_000 }), /already holds data.*--replace/);
  const again = await parley(["migrate", "--data", from, "--database", url, "--replace"], { ms: 60_000 });
  expect(again.code).toBe(0);
  expect(again.out).toContain("checked: both worlds exported the same");
}, 180_000);

test("bad input: no data directory, no database named, an unreachable database: one line each, a non-zero exit", async () => {
  const url = pg.url(await pg.createDatabase());
  oneLine(await parley(["migrate", "--data", join(dir, "nowhere"), "--database", url]), /no database at .*nowhere/);
  oneLine(await parley(["migrate", "--data", from], { env: { PARLEY_DATABASE: "" } }), /--database/);
  oneLine(await parley(["migrate", "--data", from, "--database", "postgres://parley@127.0.0.1:1/none"], { ms: 60_000 }), /cannot connect/);
  oneLine(await parley(["migrate", "--data", from, "--database", "mysql://x"]), /--database/);
}, 120_000);
