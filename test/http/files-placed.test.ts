/**
 * Uploads hashed and placed behind their answer (issue 31, core/media-place.ts): the PUT
 * answers once the bytes are written under the slot's name; nothing that names the slot
 * commits before they are under their hash. Bytes received by a process that stopped
 * before placing them are kept by the next one's start and placed when named; bytes that
 * are gone are reported, the slot emptied to be filled again; a slot given up or expired
 * takes its received bytes with it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, client, internalId, ORIGIN, rowCounts, seedBasic, session } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";
import { DiskMediaStore, type Staged } from "../../src/store/media";
import { fileApps, put, sha, stillWaiting } from "./files-support";

/** A disk whose hashing of received bytes waits until the test lets it go. */
class HeldPlacing extends DiskMediaStore {
  private gate = Promise.withResolvers<void>();
  asked = 0;
  override async stageReceived(name: string): Promise<Staged> {
    this.asked++;
    await this.gate.promise;
    return super.stageReceived(name);
  }
  release(): void {
    this.gate.resolve();
  }
}

const { app, dataDir, forget } = fileApps("parley-placed-");

async function slot(p: Parley, token: string, channel: string, size: number, filename = "f.bin"): Promise<string> {
  const r = await client(p, "POST", `/channels/${channel}/attachments`, token, { files: [{ filename, size }] });
  expect(r.status).toBe(200);
  return r.body[0].id as string;
}

function slotRow(p: Parley, id: string) {
  return p.store.db.query("SELECT sha256, size FROM uploads WHERE id = ?").get(id) as { sha256: string | null; size: number | null } | null;
}

const tmpFiles = (root: string) => (existsSync(join(root, "tmp")) ? readdirSync(join(root, "tmp")) : []);
const blobFiles = (root: string) => (existsSync(join(root, "blobs")) ? readdirSync(join(root, "blobs"), { recursive: true }).length : 0);

async function fetchAttachment(p: Parley, url: string): Promise<Uint8Array> {
  const res = await p.handle(new Request(`${ORIGIN}${url}`));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("placed behind the answer", () => {
  test("the PUT answers once the bytes are written; a message naming them waits until they are under their hash", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = png(8, 8);
    const id = await slot(p, alice, general, bytes.byteLength, "held.png");
    const r = await put(p, id, alice, bytes, { "Content-Length": String(bytes.byteLength) });
    expect(r.status).toBe(200);
    expect(slotRow(p, id)).toEqual({ sha256: null, size: bytes.byteLength });
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
    // A second body for the slot is refused while its first waits to be placed.
    const again = await put(p, id, alice, bytes);
    expect(again.status).toBe(400);
    const naming = client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(await stillWaiting(naming)).toBe(true);
    expect(rowCounts(p, ["attachments"])).toEqual({ attachments: 0 });
    store.release();
    const m = await naming;
    expect(m.status).toBe(200);
    expect(m.body.attachments[0]).toMatchObject({
      filename: "held.png",
      size: bytes.byteLength,
      content_type: "image/png",
      width: 8,
      height: 8,
    });
    expect(sha(await fetchAttachment(p, m.body.attachments[0].url))).toBe(sha(bytes));
    expect(store.asked).toBe(1);
    expect(tmpFiles(store.root)).toEqual([]);
  });

  test("placed unasked: the slot's row names the hash soon after the answer, and the same bytes are stored once", async () => {
    const p = app();
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = new Uint8Array(300 * 1024).fill(5);
    const a = await slot(p, alice, general, bytes.byteLength);
    const b = await slot(p, alice, general, bytes.byteLength);
    expect((await put(p, a, alice, bytes, { "Content-Length": String(bytes.byteLength) })).status).toBe(200);
    expect((await put(p, b, alice, bytes)).status).toBe(200);
    for (let i = 0; i < 500 && (slotRow(p, a)?.sha256 === null || slotRow(p, b)?.sha256 === null); i++) await Bun.sleep(5);
    expect(slotRow(p, a)).toEqual({ sha256: sha(bytes), size: bytes.byteLength });
    expect(slotRow(p, b)).toEqual({ sha256: sha(bytes), size: bytes.byteLength });
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 1 });
  });

  test("an avatar from an upload waits for its placing", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const alice = w.users.alice.token;
    const image = png(5, 5);
    const s = await client(p, "POST", "/uploads", alice, { purpose: "avatar", filename: "me.png", size: image.byteLength });
    expect((await put(p, s.body.id, alice, image)).status).toBe(200);
    const setting = client(p, "PATCH", "/users/@me", alice, { avatar_upload: s.body.id });
    expect(await stillWaiting(setting)).toBe(true);
    store.release();
    const me = await setting;
    expect(me.status).toBe(200);
    expect(me.body.avatar).toBe(sha(image).slice(0, 32));
  });

  test("a text file is refused as an avatar at the PUT, before anything is kept", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const alice = w.users.alice.token;
    const text = new TextEncoder().encode("not a picture");
    const s = await client(p, "POST", "/uploads", alice, { purpose: "avatar", filename: "me.png", size: text.byteLength });
    const r = await put(p, s.body.id, alice, text);
    expect(r.status).toBe(400);
    expect(slotRow(p, s.body.id)).toEqual({ sha256: null, size: null });
    expect(tmpFiles(store.root)).toEqual([]);
    expect(store.asked).toBe(0);
  });

  test("a slot given up while its bytes are being placed leaves no file and no row", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const id = await slot(p, alice, general, bytes.byteLength);
    expect((await put(p, id, alice, bytes)).status).toBe(200);
    while (store.asked === 0) await Bun.sleep(1);
    expect((await call(p, "DELETE", `/api/client/v1/uploads/${id}`, { headers: session(alice) })).status).toBe(204);
    store.release();
    for (let i = 0; i < 200 && tmpFiles(store.root).length > 0; i++) await Bun.sleep(5);
    expect(tmpFiles(store.root)).toEqual([]);
    expect(blobFiles(store.root)).toBe(0);
    expect(rowCounts(p, ["uploads", "media_blobs"])).toEqual({ uploads: 0, media_blobs: 0 });
  });

  test("a body shorter than its declared length is refused (UPLOAD_INCOMPLETE), nothing kept, the slot still empty", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const id = await slot(p, alice, general, 100);
    const r = await put(p, id, alice, new Uint8Array(60).fill(1), { "Content-Length": "100" });
    expect(r.status).toBe(400);
    expect(JSON.stringify(await r.json())).toContain("UPLOAD_INCOMPLETE");
    expect(slotRow(p, id)).toEqual({ sha256: null, size: null });
    expect(tmpFiles(store.root)).toEqual([]);
    // The slot takes a whole body afterwards.
    expect((await put(p, id, alice, new Uint8Array(100).fill(2), { "Content-Length": "100" })).status).toBe(200);
  });

  test("bytes a crash left under the slot's name before its row said so are replaced by the next body", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = new Uint8Array(2000).fill(4);
    const id = await slot(p, alice, general, bytes.byteLength);
    mkdirSync(join(store.root, "tmp"), { recursive: true });
    writeFileSync(join(store.root, "tmp", `received-${id}`), "half of another body");
    expect((await put(p, id, alice, bytes, { "Content-Length": String(bytes.byteLength) })).status).toBe(200);
    store.release();
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(m.status).toBe(200);
    expect(sha(await fetchAttachment(p, m.body.attachments[0].url))).toBe(sha(bytes));
  });

  test("switched off (placeBehind), the PUT answers with the bytes under their hash already", async () => {
    const store = new HeldPlacing(null);
    const p = app({ store, fastPaths: { placeBehind: false } });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = new Uint8Array([4, 5, 6]);
    const id = await slot(p, alice, general, bytes.byteLength);
    expect((await put(p, id, alice, bytes)).status).toBe(200);
    expect(slotRow(p, id)).toEqual({ sha256: sha(bytes), size: 3 });
    expect(store.asked).toBe(0);
  });
});

describe("received by a process that stopped before placing them", () => {
  /** An upload answered by one app on `dir`, which stops before it hashed the bytes: as a process killed then. */
  async function receivedThenStopped(dir: string, bytes: Uint8Array<ArrayBuffer>) {
    const store = new HeldPlacing(join(dir, "media"));
    const first = app({ dir, store });
    const w = seedBasic(first);
    const general = internalId(first, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const id = await slot(first, alice, general, bytes.byteLength, "kept.bin");
    expect((await put(first, id, alice, bytes, { "Content-Length": String(bytes.byteLength) })).status).toBe(200);
    first.core.close();
    forget(first);
    return { id, alice, general, root: store.root };
  }

  test("the next start keeps the bytes, and a message naming them places them first", async () => {
    const dir = dataDir();
    const bytes = new Uint8Array(200 * 1024).map((_, i) => i % 251);
    const { id, alice, general, root } = await receivedThenStopped(dir, bytes);
    const p = app({ dir });
    await p.core.mediaCollector.start();
    p.core.mediaCollector.stop();
    expect(tmpFiles(root)).toEqual([`received-${id}`]);
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(m.status).toBe(200);
    expect(sha(await fetchAttachment(p, m.body.attachments[0].url))).toBe(sha(bytes));
    expect(tmpFiles(root)).toEqual([]);
  });

  test("bytes gone meanwhile: the message is refused (UPLOAD_DAMAGED), nothing stored; the slot takes them again", async () => {
    const dir = dataDir();
    const bytes = new Uint8Array(1000).fill(9);
    const { id, alice, general, root } = await receivedThenStopped(dir, bytes);
    rmSync(join(root, "tmp", `received-${id}`));
    const p = app({ dir });
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(m.status).toBe(400);
    expect(JSON.stringify(m.body)).toContain("UPLOAD_DAMAGED");
    expect(rowCounts(p, ["attachments", "messages"])).toMatchObject({ attachments: 0 });
    expect(slotRow(p, id)).toEqual({ sha256: null, size: null });
    expect((await put(p, id, alice, bytes)).status).toBe(200);
    const again = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(again.status).toBe(200);
  });

  test("a slot given up before anything placed its bytes takes them with it at once", async () => {
    const dir = dataDir();
    const { id, alice, root } = await receivedThenStopped(dir, new Uint8Array([7, 8, 9]));
    const p = app({ dir });
    expect(tmpFiles(root)).toEqual([`received-${id}`]);
    expect((await call(p, "DELETE", `/api/client/v1/uploads/${id}`, { headers: session(alice) })).status).toBe(204);
    expect(tmpFiles(root)).toEqual([]);
  });

  test("a slot that expires with its bytes unplaced takes them with it in the sweep", async () => {
    const dir = dataDir();
    const { id, root } = await receivedThenStopped(dir, new Uint8Array(10).fill(3));
    const p = app({ dir });
    p.clock.advance(2 * 3600_000);
    const report = p.core.mediaCollector.sweep();
    expect(report.expiredUploads).toBe(1);
    expect(slotRow(p, id)).toBeNull();
    expect(tmpFiles(root)).toEqual([]);
  });
});
