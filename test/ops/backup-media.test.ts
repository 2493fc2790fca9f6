/**
 * `parley backup` carries files (issue 31): beside the database it copies every stored
 * file, so a restore (the copy as parley.db, its files as media/) serves each attachment,
 * avatar and emoji byte for byte.
 */
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { png } from "../support/png";
import { parley } from "./support";

const dir = mkdtempSync(join(tmpdir(), "parley-backup-media-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORLD = {
  users: [{ name: "alice" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }],
};

test("a backup and a restore keep every file byte for byte", async () => {
  const data = join(dir, "data");
  mkdirSync(data);
  const image = png(20, 10, 3);
  const text = new TextEncoder().encode("kept words\n");
  const p = createParley(testConfig({ dbPath: join(data, "parley.db") }));
  const w = p.seed(structuredClone(WORLD));
  const alice = p.api.flakes.uuid(w.users.alice.id)!;
  const general = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
  const slots = p.core.media.openAttachments(alice, general, [
    { filename: "a.png", size: image.byteLength },
    { filename: "b.txt", size: text.byteLength },
  ]);
  await p.core.media.receive(alice, slots[0]!.id, image, image.byteLength);
  await p.core.media.receive(alice, slots[1]!.id, text, text.byteLength);
  await p.core.media.flushed(
    alice,
    slots.map((s) => s.id),
  );
  const m = p.core.messages.send(alice, general, { content: "files", attachments: slots.map((s) => ({ uploadId: s.id })) });
  await p.core.media.setAvatar(alice, { bytes: png(8, 8, 8) });
  p.core.close();

  const file = join(dir, "copy.db");
  const b = await parley(["backup", file, "--data", data]);
  expect(b.err).toBe("");
  expect(b.code).toBe(0);
  expect(b.out).toContain(`its 3 files`);

  const restored = join(dir, "restored");
  mkdirSync(restored);
  cpSync(file, join(restored, "parley.db"));
  cpSync(`${file}.media`, join(restored, "media"), { recursive: true });
  const q = createParley(testConfig({ dbPath: join(restored, "parley.db") }));
  try {
    const files = q.core.messages.files.of(m.id);
    expect(files.map((a) => a.filename)).toEqual(["a.png", "b.txt"]);
    expect(new Uint8Array(await q.core.media.open(files[0]!.sha256)!.arrayBuffer())).toEqual(image);
    expect(new Uint8Array(await q.core.media.open(files[1]!.sha256)!.arrayBuffer())).toEqual(text);
    const avatar = q.core.users.require(alice).avatar!;
    expect(q.core.media.avatarBlob(alice, avatar)).not.toBeNull();
    expect(q.core.mediaCollector.missing()).toEqual([]);
  } finally {
    q.core.close();
  }
}, 60_000);

test("parley media usage and media sweep: what the files hold, and the collector run now", async () => {
  const data = join(dir, "sweep");
  mkdirSync(data);
  const p = createParley(testConfig({ dbPath: join(data, "parley.db") }));
  const w = p.seed(structuredClone(WORLD));
  const alice = p.api.flakes.uuid(w.users.alice.id)!;
  const general = p.api.flakes.uuid(w.guilds.Lab.channels.general)!;
  const [slot] = p.core.media.openAttachments(alice, general, [{ filename: "a.bin", size: 3 }]);
  await p.core.media.receive(alice, slot!.id, new Uint8Array([1, 2, 3]), 3);
  // Under their hash (behind the answer) before the slot is given up: a file nothing names, for the sweep.
  await p.core.media.flushed(alice, [slot!.id]);
  p.core.media.cancel(alice, slot!.id);
  p.core.close();
  const usage = await parley(["media", "usage", "--data", data]);
  expect(usage.out.trim()).toBe("1 files, 3 bytes");
  const sweep = await parley(["media", "sweep", "--data", data]);
  expect(sweep.code).toBe(0);
  // Unreferenced now, but within the grace: marked, not removed.
  expect(sweep.out).toContain("files newly unreferenced: 1; removed: 0");
  expect((await parley(["media", "usage", "--data", data])).out.trim()).toBe("1 files, 3 bytes");
}, 60_000);
