/**
 * `parley export` and `parley import` carry files (issue 31): the document names each
 * file by its SHA-256 and `FILE.media/` beside it holds the bytes; an import checks every
 * file against its hash before any row names it, and refuses (importing nothing) when
 * one is missing or altered.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";
import { png } from "../support/png";

const dir = mkdtempSync(join(tmpdir(), "parley-export-media-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (data: string) => createParley(loadConfig({ data, quiet: true }, {}));
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

test("export then import: attachments, an avatar, an icon and an emoji byte for byte; an altered file imports nothing", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const run = (...argv: string[]) =>
    main(
      argv,
      {},
      (l) => out.push(l),
      (l) => err.push(l),
    );
  const from = join(dir, "from");
  const image = png(9, 9, 1);
  const text = new TextEncoder().encode("exported words\n");
  const a = open(from);
  const w = a.seed({ users: [{ name: "alice" }], guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }] }] });
  const alice = a.api.flakes.uuid(w.users.alice.id)!;
  const lab = a.api.flakes.uuid(w.guilds.Lab.id)!;
  const general = a.api.flakes.uuid(w.guilds.Lab.channels.general)!;
  const slots = a.core.media.openAttachments(alice, general, [
    { filename: "a.png", size: image.byteLength },
    { filename: "b.txt", size: text.byteLength },
  ]);
  await a.core.media.receive(alice, slots[0]!.id, image, image.byteLength);
  await a.core.media.receive(alice, slots[1]!.id, text, text.byteLength);
  await a.core.media.flushed(
    alice,
    slots.map((s) => s.id),
  );
  const m = a.core.messages.send(alice, general, {
    content: "files",
    attachments: slots.map((s, i) => ({ uploadId: s.id, description: i ? null : "alt" })),
  });
  await a.core.media.setAvatar(alice, { bytes: png(5, 5, 5) });
  await a.core.media.setGuildIcon(alice, lab, { bytes: png(6, 6, 6) });
  const party = await a.core.emojis.create(alice, lab, { name: "party", image: { bytes: png(4, 4, 4) } });
  await a.stop();

  const file = join(dir, "world.json");
  expect(await run("export", file, "--data", from)).toBe(0);
  expect(out.at(-1)).toContain("5 files to");

  const to = join(dir, "to");
  expect(await run("import", file, "--data", to)).toBe(0);
  const b = open(to);
  try {
    const files = b.core.messages.files.of(m.id);
    expect(files.map((f) => [f.filename, f.description, f.width])).toEqual([
      ["a.png", "alt", 9],
      ["b.txt", null, null],
    ]);
    expect(sha(new Uint8Array(await b.core.media.open(files[0]!.sha256)!.arrayBuffer()))).toBe(sha(image));
    expect(sha(new Uint8Array(await b.core.media.open(files[1]!.sha256)!.arrayBuffer()))).toBe(sha(text));
    const user = b.core.users.require(alice);
    expect(b.core.media.avatarBlob(alice, user.avatar!)).not.toBeNull();
    expect(b.core.media.iconBlob(lab, b.core.guilds.require(lab).icon!)).not.toBeNull();
    expect(b.core.emojis.of(lab).map((e) => [e.id, e.name])).toEqual([[party.id, "party"]]);
    expect(b.core.mediaCollector.missing()).toEqual([]);
  } finally {
    await b.stop();
  }

  // One altered byte in one file: refused, and nothing imported.
  const blobs = join(`${file}.media`, "blobs");
  const [d1] = readdirSync(blobs);
  const [d2] = readdirSync(join(blobs, d1!));
  const [name] = readdirSync(join(blobs, d1!, d2!));
  writeFileSync(join(blobs, d1!, d2!, name!), "not the same bytes");
  const third = join(dir, "third");
  expect(await run("import", file, "--data", third)).toBe(2);
  expect(err.at(-1)).toContain("nothing was imported");
  const c = open(third);
  try {
    expect(c.core.users.count()).toBe(0);
  } finally {
    await c.stop();
  }
}, 60_000);
