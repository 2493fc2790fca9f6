/**
 * Files answered once written and named, flushed behind (issue 31): the PUT does not
 * wait for the disk, but nothing that names its bytes (a message, an avatar) commits
 * before they are flushed. Bytes this process did not flush itself (after a restart, or
 * through another node) are flushed and checked against their hash first; bytes torn by
 * a crash are refused with a clear error, stored nowhere, and can be sent again.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, client, internalId, ORIGIN, refusal, rowCounts, seedBasic } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";
import { DomainError } from "../../src/core";
import { DiskMediaStore } from "../../src/store/media";
import { fileApps, put, sha, stillWaiting } from "./files-support";

/** A disk whose flushes wait until the test lets them go, and that counts them. */
class HeldFlushes extends DiskMediaStore {
  private gate = Promise.withResolvers<void>();
  fsyncs = 0;
  protected override async fsync(fh: { fd: number }): Promise<void> {
    this.fsyncs++;
    await this.gate.promise;
    return super.fsync(fh);
  }
  release(): void {
    this.gate.resolve();
  }
}

/** A disk that counts its flushes and lets them through. */
class CountedFlushes extends DiskMediaStore {
  fsyncs = 0;
  protected override async fsync(fh: { fd: number }): Promise<void> {
    this.fsyncs++;
    return super.fsync(fh);
  }
}

const { app, dataDir, forget } = fileApps("parley-flush-");

async function upload(p: Parley, token: string, channel: string, bytes: Uint8Array, filename = "f.bin"): Promise<string> {
  const r = await client(p, "POST", `/channels/${channel}/attachments`, token, { files: [{ filename, size: bytes.byteLength }] });
  expect(r.status).toBe(200);
  const id = r.body[0].id as string;
  expect((await put(p, id, token, bytes)).status).toBe(200);
  return id;
}

const blobPath = (root: string, hash: string) => join(root, "blobs", hash.slice(0, 2), hash.slice(2, 4), hash);

describe("flushed behind the answer", () => {
  test("the PUT answers before the flush; a message naming the file waits for it, a message without files does not", async () => {
    const store = new HeldFlushes(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const bytes = png(4, 4);
    const id = await upload(p, alice, general, bytes, "held.png");
    // Its flush begins behind the answer, and is held there.
    while (store.fsyncs === 0) await Bun.sleep(1);
    const naming = client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(await stillWaiting(naming)).toBe(true);
    const plain = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "meanwhile" });
    expect(plain.status).toBe(200);
    expect(rowCounts(p, ["attachments"])).toEqual({ attachments: 0 });
    store.release();
    const m = await naming;
    expect(m.status).toBe(200);
    const res = await p.handle(new Request(`${ORIGIN}${m.body.attachments[0].url}`));
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(bytes));
  });

  test("the core refuses to name bytes not yet flushed when asked without waiting, and stores nothing", async () => {
    const store = new HeldFlushes(null);
    const p = app({ store });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = internalId(p, w.users.alice.id);
    const id = await upload(p, w.users.alice.token, general, new Uint8Array([1, 2, 3]));
    let err: unknown = null;
    try {
      p.core.people.send(alice, general, { content: "", attachments: [{ uploadId: id }] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).issues?.[0]).toMatchObject({ path: "attachments[0].upload_id", code: "UPLOAD_NOT_READY" });
    expect(rowCounts(p, ["attachments", "uploads"])).toEqual({ attachments: 0, uploads: 1 });
    store.release();
    await p.core.media.flushed(alice, [id]);
    expect(p.core.people.send(alice, general, { content: "", attachments: [{ uploadId: id }] }).id).toBeString();
  });

  test("an avatar taken from an upload waits for its flush", async () => {
    const store = new HeldFlushes(null);
    const p = app({ store });
    const w = seedBasic(p);
    const alice = w.users.alice.token;
    const slot = await client(p, "POST", "/uploads", alice, { purpose: "avatar", filename: "me.png", size: png(5, 5).byteLength });
    expect((await put(p, slot.body.id, alice, png(5, 5))).status).toBe(200);
    const setting = client(p, "PATCH", "/users/@me", alice, { avatar_upload: slot.body.id });
    expect(await stillWaiting(setting)).toBe(true);
    store.release();
    const me = await setting;
    expect(me.status).toBe(200);
    expect(me.body.avatar).toMatch(/^[0-9a-f]{32}$/);
  });

  test("switched off (flushBehind), the PUT itself waits for the flush", async () => {
    const store = new HeldFlushes(null);
    const p = app({ store, fastPaths: { flushBehind: false } });
    const w = seedBasic(p);
    const general = internalId(p, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    const r = await client(p, "POST", `/channels/${general}/attachments`, alice, { files: [{ filename: "a.bin", size: 3 }] });
    const putting = put(p, r.body[0].id, alice, new Uint8Array([1, 2, 3]));
    expect(await stillWaiting(putting)).toBe(true);
    store.release();
    expect((await putting).status).toBe(200);
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: r.body[0].id }] });
    expect(m.status).toBe(200);
  });
});

describe("bytes this process did not flush", () => {
  /** An upload through one app on `dir`, which then stops: as a process that was killed after answering. */
  async function uploadedThenStopped(dir: string, bytes: Uint8Array, purpose: "attachment" | "avatar" = "attachment") {
    const first = app({ dir });
    const w = seedBasic(first);
    const general = internalId(first, w.guilds.Lab.channels.general);
    const alice = w.users.alice.token;
    let id: string;
    if (purpose === "avatar") {
      const slot = await client(first, "POST", "/uploads", alice, { purpose, filename: "me.png", size: bytes.byteLength });
      id = slot.body.id;
      expect((await put(first, id, alice, bytes)).status).toBe(200);
    } else id = await upload(first, alice, general, bytes);
    // Its own flush done, so the file is whole before the test tears it.
    await first.core.media.flushed(internalId(first, w.users.alice.id), [id]);
    first.core.close();
    forget(first);
    return { id, alice, general };
  }

  test("after a restart, a message naming a waiting upload first flushes and checks its bytes", async () => {
    const dir = dataDir();
    const bytes = png(6, 6);
    const { id, alice, general } = await uploadedThenStopped(dir, bytes);
    const store = new CountedFlushes(join(dir, "media"));
    const p = app({ dir, store });
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(m.status).toBe(200);
    expect(store.fsyncs).toBe(1);
    expect(store.hasher.counts.worker + store.hasher.counts.inline).toBe(1); // checked against its hash
    const res = await p.handle(new Request(`${ORIGIN}${m.body.attachments[0].url}`));
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(bytes));
  });

  test("bytes torn by a crash: the message is refused (400 50035 UPLOAD_DAMAGED), nothing stored, the torn file gone; sent again, they work", async () => {
    const dir = dataDir();
    const bytes = png(7, 7);
    const { id, alice, general } = await uploadedThenStopped(dir, bytes);
    const path = blobPath(join(dir, "media"), sha(bytes));
    writeFileSync(path, new Uint8Array(bytes.byteLength)); // torn: the right length, zeros
    const p = app({ dir });
    const before = rowCounts(p, ["messages", "attachments"]);
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "look", attachments: [{ upload_id: id }] });
    expect(refusal(m)).toEqual([400, 50035]);
    expect(m.body.errors.attachments["0"].upload_id._errors[0].code).toBe("UPLOAD_DAMAGED");
    expect(rowCounts(p, ["messages", "attachments", "media_blobs"])).toEqual({ ...before, media_blobs: 0 });
    expect(existsSync(path)).toBe(false);
    // The slot is empty again: its bytes are taken once more, and the message goes.
    expect(refusal(await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] }))).toEqual([
      400, 50035,
    ]);
    expect((await put(p, id, alice, bytes)).status).toBe(200);
    const again = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(again.status).toBe(200);
    const res = await p.handle(new Request(`${ORIGIN}${again.body.attachments[0].url}`));
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(bytes));
  });

  test("the same bytes uploaded over a torn copy replace it", async () => {
    const dir = dataDir();
    const bytes = png(8, 8);
    const { id, alice, general } = await uploadedThenStopped(dir, bytes);
    const path = blobPath(join(dir, "media"), sha(bytes));
    writeFileSync(path, "torn");
    const p = app({ dir });
    const fresh = await upload(p, alice, general, bytes, "again.png");
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: fresh }] });
    expect(m.status).toBe(200);
    expect(sha(new Uint8Array(await Bun.file(path).arrayBuffer()))).toBe(sha(bytes));
    // The first slot names the same bytes, whole again.
    const old = await client(p, "POST", `/channels/${general}/messages`, alice, { attachments: [{ upload_id: id }] });
    expect(old.status).toBe(200);
  });

  test("an avatar from a torn upload is refused at `avatar`, and the person's avatar is unchanged", async () => {
    const dir = dataDir();
    const bytes = png(9, 9);
    const { id, alice } = await uploadedThenStopped(dir, bytes, "avatar");
    writeFileSync(blobPath(join(dir, "media"), sha(bytes)), "torn");
    const p = app({ dir });
    const r = await client(p, "PATCH", "/users/@me", alice, { avatar_upload: id });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.errors.avatar._errors[0].code).toBe("UPLOAD_DAMAGED");
    expect((await client(p, "GET", "/users/@me", alice)).body.avatar ?? null).toBeNull();
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
  });
});

// The bot API's own avatar (bytes, not an upload) is flushed before it is named, as before.
test("a bot's avatar sent as data is named only once flushed", async () => {
  const store = new CountedFlushes(null);
  const p = app({ store });
  const w = seedBasic(p);
  const token = Object.values(w.applications)[0]!.token;
  const bytes = png(3, 3);
  const r = await call(p, "PATCH", "/users/@me", {
    token,
    body: { avatar: `data:image/png;base64,${Buffer.from(bytes).toString("base64")}` },
  });
  expect(r.status).toBe(200);
  expect(store.fsyncs).toBe(1);
  expect(store.settled(sha(bytes))).toBe(true);
});
