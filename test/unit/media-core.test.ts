/**
 * The media core (issue 31): the same bytes stored once, the collector's grace, the
 * limits refused before a byte is stored, a full disk leaving nothing, and the rules of
 * a server's own emoji.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeParley, rowCounts, seedBasic } from "../helpers";
import { createParley } from "../../src/app";
import { testConfig } from "../../src/config";
import { png } from "../support/png";
import { createCore, DomainError, UPLOAD_TTL_MS, type Core } from "../../src/core";
import { DiskMediaStore } from "../../src/store/media";
import { Store } from "../../src/store/db";
import { SwitchableClock } from "../../src/core/clock";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

function kindOf(e: unknown): string {
  return e instanceof DomainError ? e.kind : `not a DomainError: ${String(e)}`;
}

async function failure(p: Promise<unknown> | (() => unknown)): Promise<DomainError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

let p: Parley;
let w: SeedAnswer;
const u = (f: string) => p.api.flakes.uuid(f)!;
let alice: string;
let bob: string;
let general: string;
let lab: string;

beforeEach(() => {
  p = makeParley();
  // Virtual time from here: the collector's grace is counted on the one clock alone.
  p.clock.advance(0);
  w = seedBasic(p);
  alice = u(w.users.alice.id);
  bob = u(w.users.bob.id);
  general = u(w.guilds.Lab.channels.general);
  lab = u(w.guilds.Lab.id);
});

afterEach(() => p.core.close());

async function uploaded(owner: string, bytes: Uint8Array, filename = "a.bin") {
  const [slot] = p.core.media.openAttachments(owner, general, [{ filename, size: bytes.byteLength }]);
  await p.core.media.receive(owner, slot!.id, bytes, bytes.byteLength);
  // Flushed, as a message naming it waits for (core/media-flush.ts).
  await p.core.media.flushed(owner, [slot!.id]);
  return slot!;
}

function blobFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : out.push(e.name);
  };
  walk(join(root, "blobs"));
  return out;
}

describe("storage", () => {
  test("the same bytes uploaded twice are stored once, and each message names them", async () => {
    const bytes = new TextEncoder().encode("the same words\n");
    const a = await uploaded(alice, bytes, "one.txt");
    const b = await uploaded(bob, bytes, "two.txt");
    const m1 = p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: a.id }] });
    const m2 = p.core.messages.send(bob, general, { content: "x", attachments: [{ uploadId: b.id }] });
    expect(rowCounts(p, ["media_blobs", "attachments", "uploads"])).toEqual({ media_blobs: 1, attachments: 2, uploads: 0 });
    const [x] = p.core.messages.files.of(m1.id);
    const [y] = p.core.messages.files.of(m2.id);
    expect(x!.sha256).toBe(y!.sha256);
    expect([x!.filename, y!.filename]).toEqual(["one.txt", "two.txt"]);
    expect(x!.content_type).toBe("text/plain; charset=utf-8");
    expect(await p.core.media.open(x!.sha256)!.text()).toBe("the same words\n");
  });

  test("an image's type and size come from its bytes, whatever its name says", async () => {
    const slot = await uploaded(alice, png(3, 5), "notes.txt");
    const m = p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: slot.id, description: "a grey box" }] });
    const [a] = p.core.messages.files.of(m.id);
    expect(a).toMatchObject({ content_type: "image/png", width: 3, height: 5, inline: 1, description: "a grey box" });
  });

  test("an image past the pixel budget is a download, its dimensions still known", async () => {
    p.core.close();
    p = makeParley({ media: { ...makeParley().config.media, previewPixels: 10 } } as never);
    w = seedBasic(p);
    alice = u(w.users.alice.id);
    general = u(w.guilds.Lab.channels.general);
    const slot = await uploaded(alice, png(4, 4));
    const m = p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: slot.id }] });
    expect(p.core.messages.files.of(m.id)[0]).toMatchObject({ content_type: "image/png", width: 4, height: 4, inline: 0 });
  });
});

describe("limits, refused before anything is stored", () => {
  test("more files than a message takes, or one past the file size, opens no slot", async () => {
    const max = p.core.media.limits.filesPerMessage;
    const many = Array.from({ length: max + 1 }, (_, i) => ({ filename: `f${i}`, size: 1 }));
    expect(kindOf(await failure(() => p.core.media.openAttachments(alice, general, many)))).toBe("invalid");
    const big = p.core.media.limits.maxFileBytes + 1;
    expect(kindOf(await failure(() => p.core.media.openAttachments(alice, general, [{ filename: "big", size: big }])))).toBe("too_large");
    expect(rowCounts(p, ["uploads", "media_blobs"])).toEqual({ uploads: 0, media_blobs: 0 });
  });

  test("a declared length past the slot is refused before reading; a stream past it is cut and leaves nothing", async () => {
    const [slot] = p.core.media.openAttachments(alice, general, [{ filename: "x.bin", size: 4 }]);
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    expect(kindOf(await failure(p.core.media.receive(alice, slot!.id, body, 5)))).toBe("too_large");
    expect(pulled).toBe(false);
    async function* chunks() {
      yield new Uint8Array(3);
      yield new Uint8Array(3);
    }
    expect(kindOf(await failure(p.core.media.receive(alice, slot!.id, chunks(), null)))).toBe("too_large");
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
    const root = (p.core as unknown as { media: { d: { media: { store: DiskMediaStore } } } }).media.d.media.store.root;
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
    expect(blobFiles(root)).toEqual([]);
    expect(p.core.media.upload(alice, slot!.id).sha256).toBeNull();
  });

  test("a person's storage counts sent files and waiting slots", async () => {
    p.core.close();
    p = makeParley({ media: { ...makeParley().config.media, perPersonBytes: 100 } } as never);
    w = seedBasic(p);
    alice = u(w.users.alice.id);
    general = u(w.guilds.Lab.channels.general);
    const slot = await uploaded(alice, new Uint8Array(60).fill(65));
    p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: slot.id }] });
    expect(kindOf(await failure(() => p.core.media.openAttachments(alice, general, [{ filename: "b", size: 41 }])))).toBe("too_large");
    p.core.media.openAttachments(alice, general, [{ filename: "b", size: 40 }]);
    expect(kindOf(await failure(() => p.core.media.openAttachments(alice, general, [{ filename: "c", size: 1 }])))).toBe("too_large");
    expect(p.core.media.usage(alice)).toMatchObject({
      attachedBytes: 60,
      attachedFiles: 1,
      pendingBytes: 40,
      pendingUploads: 1,
      limit: 100,
    });
  });

  test("bots cannot open slots, and without ATTACH_FILES a person cannot either", async () => {
    const bot = u(w.applications.EchoBot.bot_user_id);
    expect(kindOf(await failure(() => p.core.media.openAttachments(bot, general, [{ filename: "a", size: 1 }])))).toBe("invalid");
    p.store.db.query("UPDATE roles SET permissions = ? WHERE id = ?").run(String(1 << 11), lab);
    expect(kindOf(await failure(() => p.core.media.openAttachments(bob, general, [{ filename: "a", size: 1 }])))).toBe("forbidden");
  });

  test("a slot is the owner's alone, for its channel", async () => {
    const slot = await uploaded(alice, new Uint8Array([1, 2, 3]));
    expect(kindOf(await failure(() => p.core.messages.send(bob, general, { content: "", attachments: [{ uploadId: slot.id }] })))).toBe(
      "invalid",
    );
    expect(kindOf(await failure(() => p.core.media.cancel(bob, slot.id)))).toBe("not_found");
    expect(rowCounts(p, ["attachments", "uploads"])).toEqual({ attachments: 0, uploads: 1 });
  });
});

describe("a full disk", () => {
  /** Every staged file written to /dev/full: each write the kernel refuses with ENOSPC, as a full disk does. */
  class FullDisk extends DiskMediaStore {
    readonly fds: number[] = [];
    protected override sinkFor(_fd: number) {
      const fd = openSync("/dev/full", "w");
      this.fds.push(fd);
      return Bun.file(fd).writer({ highWaterMark: 64 * 1024 });
    }
  }

  test.each([
    ["a small file (refused as the sink flushes at the end)", 100],
    ["a large one (refused while streaming)", 300 * 1024],
  ])("%s fails with storage_failed and leaves no file and no row", async (_what, size) => {
    const clock = new SwitchableClock();
    const disk = new FullDisk(null);
    const core: Core = createCore({
      clock,
      store: new Store({ path: ":memory:", synchronous: "NORMAL" }),
      key: new Uint8Array(32),
      sessions: { idleMs: 1e9, absoluteMs: 1e9 },
      media: { store: disk },
    });
    const err = await failure(core.media.stage(new Uint8Array(size).fill(7), 1024 * 1024));
    expect(err.kind).toBe("storage_failed");
    expect(err.message).toContain("disk is full");
    expect(readdirSync(join(disk.root, "tmp"))).toEqual([]);
    expect(blobFiles(disk.root)).toEqual([]);
    expect(disk.fds).toHaveLength(1);
    for (const fd of disk.fds) closeSync(fd);
    core.close();
  });
});

describe("a full disk, as /readyz tells it", () => {
  /** A disk that is full while `full` is set (writes go to /dev/full), and has room again once it is not. */
  class FillingDisk extends DiskMediaStore {
    full = true;
    readonly fds: number[] = [];
    protected override sinkFor(fd: number) {
      if (!this.full) return super.sinkFor(fd);
      const dev = openSync("/dev/full", "w");
      this.fds.push(dev);
      return Bun.file(dev).writer({ highWaterMark: 64 * 1024 });
    }
  }

  test("an upload refused for lack of space is listed under degraded until a file is written whole again", async () => {
    const disk = new FillingDisk(null);
    const p = createParley(testConfig({}), { mediaStore: disk });
    try {
      const readyz = async () => (await p.handle(new Request("http://localhost/readyz"))).json() as Promise<Record<string, unknown>>;
      expect((await readyz()).degraded).toBeUndefined();
      await failure(p.core.media.stage(new Uint8Array(300 * 1024).fill(7), 1024 * 1024));
      const said = await readyz();
      // Still ready: reads, sign-ins and the gateway work; only uploads are refused.
      expect(said.status).toBe("ready");
      expect(said.degraded).toEqual([expect.stringMatching(/^media disk full: uploads are refused \(507\) since /)]);
      disk.full = false;
      await p.core.media.stage(new Uint8Array(100).fill(8), 1024 * 1024);
      expect((await readyz()).degraded).toBeUndefined();
    } finally {
      for (const fd of disk.fds) closeSync(fd);
      await p.stop();
    }
  });
});

describe("a staged file's sink", () => {
  /** Records each sink's end, and whether its file was still open then. */
  class Watched extends DiskMediaStore {
    readonly ends: boolean[] = [];
    protected override sinkFor(fd: number) {
      const sink = super.sinkFor(fd);
      const watched = {
        write: (chunk: Uint8Array) => sink.write(chunk),
        flush: () => sink.flush(),
        end: (e?: Error) => {
          let open = true;
          try {
            fstatSync(fd);
          } catch {
            open = false;
          }
          this.ends.push(open);
          return sink.end(e);
        },
      };
      return watched as unknown as typeof sink;
    }
  }

  test("a body cut at its limit, with bytes still in the sink, ends the sink before its file closes, and leaves nothing", async () => {
    const disk = new Watched(null);
    async function* body() {
      yield new Uint8Array(100 * 1024).fill(1); // held in the sink (under its buffer)
      yield new Uint8Array(100 * 1024).fill(2); // past the limit
    }
    const err = await disk.stage(body(), { limit: 150 * 1024 }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("MediaTooLarge");
    expect(disk.ends).toEqual([true]);
    expect(readdirSync(join(disk.root, "tmp"))).toEqual([]);
    const ok = await disk.stage(new Uint8Array(10).fill(3), { limit: 1024 });
    expect(ok.size).toBe(10);
    expect(disk.ends).toEqual([true, true]);
    ok.discard();
    disk.close();
  });
});

describe("the server's start", () => {
  test("removes temporary files a stopped process left, never one this store is staging", async () => {
    const disk = new DiskMediaStore(null);
    // The first upload can stage before the start has read the directory (a test's setup did).
    const staged = await disk.stage(new Uint8Array(64).fill(5), { limit: 1024 });
    writeFileSync(join(disk.root, "tmp", "left-by-a-crash"), "x");
    expect(await disk.cleanTemp(Number.POSITIVE_INFINITY)).toBe(1);
    staged.place();
    expect(disk.has(staged.sha256)).toBe(true);
    expect(readdirSync(join(disk.root, "tmp"))).toEqual([]);
    disk.close();
  });
});

describe("the collector", () => {
  test("a deleted message's files stay through the grace, then go with their bytes", async () => {
    const slot = await uploaded(alice, new Uint8Array([9, 9, 9]));
    const m = p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: slot.id }] });
    const [a] = p.core.messages.files.of(m.id);
    p.core.messages.deleteAs(alice, general, m.id);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ marked: 1, removed: 0 });
    p.clock.advance(p.core.media.limits.graceMs - 1);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ marked: 0, removed: 0 });
    expect(p.core.media.open(a!.sha256)).not.toBeNull();
    p.clock.advance(1);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ removed: 1, removedBytes: 3 });
    expect(p.core.media.open(a!.sha256)).toBeNull();
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 0 });
  });

  test("bytes named again within the grace are kept", async () => {
    const bytes = new Uint8Array([4, 5, 6]);
    const first = await uploaded(alice, bytes);
    p.core.media.cancel(alice, first.id);
    expect(p.core.mediaCollector.sweep().marked).toBe(1);
    const again = await uploaded(alice, bytes);
    p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: again.id }] });
    p.clock.advance(p.core.media.limits.graceMs * 2);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ marked: 0, removed: 0 });
    expect(rowCounts(p, ["media_blobs", "attachments"])).toEqual({ media_blobs: 1, attachments: 1 });
  });

  test("an upload never sent expires, then its bytes go after the grace", async () => {
    await uploaded(alice, new Uint8Array([7]));
    p.clock.advance(UPLOAD_TTL_MS);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ expiredUploads: 1, marked: 1, removed: 0 });
    p.clock.advance(p.core.media.limits.graceMs);
    expect(p.core.mediaCollector.sweep()).toMatchObject({ removed: 1 });
    expect(rowCounts(p, ["media_blobs", "uploads"])).toEqual({ media_blobs: 0, uploads: 0 });
  });

  test("an edit that drops an attachment lets the collector have it; one listed is kept", async () => {
    const s1 = await uploaded(alice, new Uint8Array([1]), "keep.bin");
    const s2 = await uploaded(alice, new Uint8Array([2]), "drop.bin");
    const m = p.core.messages.send(alice, general, { content: "two", attachments: [{ uploadId: s1.id }, { uploadId: s2.id }] });
    const [keep] = p.core.messages.files.of(m.id);
    p.core.messages.editAs(alice, general, m.id, { attachments: [{ id: keep!.id }] });
    expect(p.core.messages.files.of(m.id).map((a) => a.filename)).toEqual(["keep.bin"]);
    p.clock.advance(0);
    expect(p.core.mediaCollector.sweep().marked).toBe(1);
  });
});

describe("the backup's copy", () => {
  test("copies every file byte for byte, a chunk at a time; a stored file that no longer matches its hash fails the copy and leaves no copy", async () => {
    // Past one read chunk (64 KiB), so the copy is made of several.
    const big = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const slot = await uploaded(alice, big, "big.bin");
    const m = p.core.messages.send(alice, general, { content: "", attachments: [{ uploadId: slot.id }] });
    const [a] = p.core.messages.files.of(m.id);
    const dest = mkdtempSync(join(tmpdir(), "parley-copy-"));
    try {
      expect(await p.core.mediaCollector.copyAll(dest)).toEqual({ files: 1, bytes: big.byteLength });
      const copy = join(dest, "blobs", a!.sha256.slice(0, 2), a!.sha256.slice(2, 4), a!.sha256);
      expect(new Uint8Array(readFileSync(copy))).toEqual(big);

      // The stored file damaged on disk (one byte flipped): the copy is refused and removed.
      const stored = (p.core.media.open(a!.sha256) as { name?: string }).name!;
      const damaged = new Uint8Array(big);
      damaged[1000] ^= 1;
      writeFileSync(stored, damaged);
      rmSync(join(dest, "blobs"), { recursive: true });
      await expect(p.core.mediaCollector.copyAll(dest)).rejects.toThrow("does not match its hash");
      expect(existsSync(copy)).toBe(false);
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  });
});

describe("custom emoji", () => {
  const image = () => ({ bytes: png(2, 2, 1) });

  test("need MANAGE_EXPRESSIONS; names are 2 to 32 word characters, and two may share one", async () => {
    expect(kindOf(await failure(p.core.emojis.create(bob, lab, { name: "party", image: image() })))).toBe("forbidden");
    expect(kindOf(await failure(p.core.emojis.create(alice, lab, { name: "x", image: image() })))).toBe("invalid");
    expect(kindOf(await failure(p.core.emojis.create(alice, lab, { name: "bad-name", image: image() })))).toBe("invalid");
    const e = await p.core.emojis.create(alice, lab, { name: "party", image: image() });
    const twin = await p.core.emojis.create(alice, lab, { name: "party", image: image() });
    expect(p.core.emojis.list(bob, lab).map((x) => [x.id, x.name])).toEqual([
      [e.id, "party"],
      [twin.id, "party"],
    ]);
    expect(kindOf(await failure(() => p.core.emojis.edit(bob, lab, e.id, { name: "fun" })))).toBe("forbidden");
    expect(p.core.emojis.edit(alice, lab, e.id, { name: "fun" }).name).toBe("fun");
    expect(kindOf(await failure(() => p.core.emojis.list(u(w.users.carol.id), lab)))).toBe("not_found");
  });

  test("an image that is not a picture is refused and stores nothing", async () => {
    const err = await failure(
      p.core.emojis.create(alice, lab, { name: "text", image: { bytes: new TextEncoder().encode("<svg></svg>") } }),
    );
    expect(err.kind).toBe("invalid");
    expect(rowCounts(p, ["emojis", "media_blobs"])).toEqual({ emojis: 0, media_blobs: 0 });
  });

  test("an image past the emoji size is too large", async () => {
    const big = new Uint8Array(p.core.media.limits.emojiBytes + 1);
    expect(kindOf(await failure(p.core.emojis.create(alice, lab, { name: "huge", image: { bytes: big } })))).toBe("too_large");
  });

  test("a server holds at most 50 still emoji", async () => {
    for (let i = 0; i < 50; i++) await p.core.emojis.create(alice, lab, { name: `e${i}`, image: { bytes: png(2, 2, i) } });
    const err = await failure(p.core.emojis.create(alice, lab, { name: "one_more", image: image() }));
    expect(err.kind).toBe("invalid");
    expect(err.message).toContain("Maximum number");
  });

  test("a reaction takes the server's emoji by id (its name from the server), and no other", async () => {
    const e = await p.core.emojis.create(alice, lab, { name: "party", image: image() });
    const m = p.core.messages.send(alice, general, { content: "react" });
    p.core.reactions.add(bob, m.id, { name: "whatever", id: e.id });
    const row = p.store.db.query("SELECT emoji_name, emoji_id FROM reactions WHERE message_id = ?").get(m.id);
    expect(row).toEqual({ emoji_name: "party", emoji_id: e.id });
    expect(kindOf(await failure(() => p.core.reactions.add(bob, m.id, { name: "nope", id: "123456789012345678" })))).toBe("unknown_emoji");
  });

  test("deleting one audits it and lets the collector have its image", async () => {
    const e = await p.core.emojis.create(alice, lab, { name: "party", image: image() });
    p.core.emojis.delete(alice, lab, e.id);
    expect(p.core.emojis.of(lab)).toEqual([]);
    expect(p.core.audit.list(lab, { limit: 10 }).map((a) => a.action_type)).toEqual([62, 60]);
    expect(p.core.mediaCollector.sweep().marked).toBe(1);
  });
});
