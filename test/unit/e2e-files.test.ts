/**
 * Files in encrypted DMs (src/e2e/files.ts, content.ts): a message sealed before files
 * still opens exactly as it did; a message with files carries each file's key and facts
 * in its sealed text and round-trips; a changed byte of a file, of its facts, or of the
 * encoding fails closed, never another file or other text.
 */
import { describe, expect, test } from "bun:test";
import {
  b64u,
  cleanFileName,
  cleanFileType,
  fromB64u,
  generateDeviceKeys,
  openBackup,
  openFile,
  openMessage,
  pad,
  padBlock,
  padContent,
  publicKeysOf,
  sealedFileSize,
  sealFile,
  sealMessage,
  unpad,
  unpadContent,
  KIND_FILES,
  MAX_FILES,
  type DeviceInfo,
  type OwnDevice,
  type SealedFile,
} from "../../src/e2e";
import { png } from "../support/png";
import before from "../support/e2e-dm1-before-files.json";

const ALICE = "01900000-0000-7000-8000-00000000000a";
const BOB = "01900000-0000-7000-8000-00000000000b";
const DM = "01900000-0000-7000-8000-0000000000d1";
const PEOPLE = [ALICE, BOB];
const CTX = { channelId: DM, authorId: ALICE, editOf: null };
const META = { channelId: DM, authorId: ALICE, messageId: "01900000-0000-7000-8000-0000000000e1", createdAt: 2000, edited: false };

async function device(id: string, userId: string): Promise<{ own: OwnDevice; info: DeviceInfo }> {
  const keys = await generateDeviceKeys();
  return {
    own: { id, keys, created_at: 1000 },
    info: { id, user_id: userId, keys: await publicKeysOf(keys), created_at: 1000, removed_at: null },
  };
}

async function pair() {
  const a = await device("01900000-0000-7000-8000-00000000a001", ALICE);
  const b = await device("01900000-0000-7000-8000-00000000b001", BOB);
  return { a, b, devices: [a.info, b.info] };
}

const text = (s: string) => new TextEncoder().encode(s);

describe("messages sealed before files", () => {
  test("a stored dm1 message from before files opens to exactly its text, with no files", async () => {
    const keys = await openBackup(before.backup, before.passphrase, before.reader.keys);
    expect(keys).not.toBeNull();
    const reader = { id: before.reader.id, keys: keys!, created_at: before.reader.created_at };
    const opened = await openMessage(before.ciphertext, before.meta, reader, [before.sender, before.reader] as DeviceInfo[]);
    expect(opened).toEqual({ state: "ok", text: before.text });
    expect("files" in opened).toBe(false);
  });

  test("a text is padded byte for byte as before: kind 01, its length, the text, zeros", () => {
    const block = pad("hi")!;
    expect(block.length).toBe(128);
    expect([...block.subarray(0, 7)]).toEqual([1, 0, 0, 0, 2, 104, 105]);
    expect(block.subarray(7).every((b) => b === 0)).toBe(true);
    expect(padContent({ text: "hi", files: [] })).toEqual(block);
    expect(unpad(block)).toBe("hi");
  });
});

describe("a message with files", () => {
  test("round-trips: each file's facts come back, and each ciphertext opens to the exact bytes", async () => {
    const { a, b, devices } = await pair();
    const picture = png(5, 3);
    const notes = text("shopping: eggs, milk\n");
    const one = await sealFile(picture, { name: "holiday.png", type: "image/png", description: "The beach at dawn" });
    const two = await sealFile(notes, { name: "notes.txt", type: "text/plain;charset=utf-8" });
    expect(one.ciphertext.length).toBe(sealedFileSize(one.file));
    expect(two.file).toMatchObject({ name: "notes.txt", type: "text/plain", size: notes.length, description: null });
    const ct = await sealMessage({ text: "two files for you", files: [one.file, two.file] }, CTX, a.own, devices, PEOPLE);
    expect(ct).not.toContain("holiday");
    for (const reader of [a.own, b.own]) {
      const opened = await openMessage(ct, META, reader, devices);
      expect(opened).toEqual({ state: "ok", text: "two files for you", files: [one.file, two.file] });
      if (opened.state !== "ok") throw new Error("not opened");
      expect(await openFile(one.ciphertext, opened.files![0]!)).toEqual(picture);
      expect(await openFile(two.ciphertext, opened.files![1]!)).toEqual(notes);
    }
  });

  test("files alone (no text) make a message; an edit keeps them, bound to the message it replaces", async () => {
    const { a, b, devices } = await pair();
    const f = await sealFile(text("x"), { name: "x.txt", type: "text/plain" });
    const edit = await sealMessage({ text: "now with words", files: [f.file] }, { ...CTX, editOf: META.messageId }, a.own, devices, PEOPLE);
    expect(await openMessage(edit, { ...META, edited: true }, b.own, devices)).toEqual({
      state: "ok",
      text: "now with words",
      files: [f.file],
    });
    expect((await openMessage(edit, META, b.own, devices)).state).toBe("failed");
    const alone = await sealMessage({ text: "", files: [f.file] }, CTX, a.own, devices, PEOPLE);
    expect(await openMessage(alone, META, b.own, devices)).toEqual({ state: "ok", text: "", files: [f.file] });
  });

  test("ten files with everyday names fit; facts too long for the largest bucket are refused with a clear message", async () => {
    const { a, devices } = await pair();
    const files: SealedFile[] = [];
    for (let i = 0; i < MAX_FILES; i++)
      files.push(
        (await sealFile(text(`file ${i}`), { name: `IMG_2024061${i}_holiday.jpeg`, type: "image/jpeg", description: `Photo ${i}` })).file,
      );
    const ct = await sealMessage({ text: "x".repeat(2000), files }, CTX, a.own, devices, PEOPLE);
    expect((await openMessage(ct, META, a.own, devices)).state).toBe("ok");
    const long = files.map((f) => ({ ...f, description: "é".repeat(1024) }));
    await expect(sealMessage({ text: "x", files: long }, CTX, a.own, devices, PEOPLE)).rejects.toThrow(
      "The message and its files' names and descriptions are too long to encrypt: shorten them or send fewer files",
    );
    await expect(sealMessage({ text: "x", files: [...files, files[0]!] }, CTX, a.own, devices, PEOPLE)).rejects.toThrow("at most 10 files");
  });

  test("names and types are cleaned before they are sealed", async () => {
    expect(cleanFileName("../../etc/\u202Egnp.exe")).toBe("_.._etc_gnp.exe");
    expect(cleanFileName("   ")).toBe("file");
    expect(cleanFileType("Image/PNG")).toBe("image/png");
    expect(cleanFileType("")).toBe("application/octet-stream");
    expect(cleanFileType("text/html<script>")).toBe("application/octet-stream");
    const f = await sealFile(text("x"), { name: "a\u202Eb.txt", type: "", description: "   " });
    expect(f.file).toMatchObject({ name: "ab.txt", type: "application/octet-stream", description: null });
  });
});

describe("tampering fails closed", () => {
  test("a changed, cut, lengthened or swapped file ciphertext opens to nothing", async () => {
    const one = await sealFile(png(4, 4), { name: "a.png", type: "image/png" });
    const two = await sealFile(png(4, 4, 9), { name: "b.png", type: "image/png" });
    const flipped = one.ciphertext.slice();
    flipped[10] ^= 1;
    expect(await openFile(flipped, one.file)).toBeNull();
    expect(await openFile(one.ciphertext.subarray(0, -1), one.file)).toBeNull();
    expect(await openFile(new Uint8Array([...one.ciphertext, 0]), one.file)).toBeNull();
    // The server swaps two files of a message: each key fails on the other's bytes.
    expect(await openFile(two.ciphertext, one.file)).toBeNull();
    // Facts that do not match the bytes: a wrong hash or size is refused after decrypting.
    expect(await openFile(one.ciphertext, { ...one.file, sha256: two.file.sha256 })).toBeNull();
    expect(await openFile(one.ciphertext, { ...one.file, size: one.file.size - 1 })).toBeNull();
    expect(await openFile(one.ciphertext, one.file)).toEqual(png(4, 4));
  });

  test("any changed byte of the sealed facts (the message body) makes the message 'failed'", async () => {
    const { a, b, devices } = await pair();
    const f = await sealFile(text("secret"), { name: "s.txt", type: "text/plain" });
    const ct = await sealMessage({ text: "", files: [f.file] }, CTX, a.own, devices, PEOPLE);
    const parts = ct.split(".");
    const body = fromB64u(parts[3]!)!;
    for (const at of [0, 5, 40, body.length - 1]) {
      const bad = body.slice();
      bad[at] ^= 1;
      const tampered = [...parts.slice(0, 3), b64u(bad), ...parts.slice(4)].join(".");
      expect((await openMessage(tampered, META, b.own, devices)).state).toBe("failed");
    }
  });

  test("a block is read only as padContent writes it: any other encoding is no content", async () => {
    const f = (await sealFile(text("x"), { name: "x.txt", type: "text/plain" })).file;
    const good = padContent({ text: "hi", files: [f] })!;
    expect(unpadContent(good)).toEqual({ text: "hi", files: [f] });
    const payload = good.subarray(5, 5 + new DataView(good.buffer).getUint32(1));
    const variants: Uint8Array[] = [
      // Kind 03 is no kind at all.
      Object.assign(good.slice(), { 0: 3 }),
      // A byte left over after the last file.
      padBlock(KIND_FILES, new Uint8Array([...payload, 0]))!,
      // The last byte missing.
      padBlock(KIND_FILES, payload.subarray(0, -1))!,
      // A count of none, and one past the limit.
      padBlock(KIND_FILES, new Uint8Array([...payload.subarray(0, 6), 0, ...payload.subarray(7)]))!,
      padBlock(KIND_FILES, new Uint8Array([...payload.subarray(0, 6), MAX_FILES + 1, ...payload.subarray(7)]))!,
    ];
    for (const v of variants) expect(unpadContent(v)).toBeNull();
    // A name no client writes (a bidi override, 3 bytes in place of "abc"), forged past the sender's cleaning.
    const encoded = padContent({ text: "hi", files: [{ ...f, name: "abcd.txt" }] })!;
    const at = Buffer.from(encoded).indexOf("abcd.txt");
    const forged = encoded.slice();
    forged.set(text("\u202E"), at);
    expect(new TextDecoder().decode(forged.subarray(at, at + 8))).toBe("\u202Ed.txt");
    expect(unpadContent(forged)).toBeNull();
  });
});
