/**
 * Files in end-to-end encrypted DMs: the server takes a DM's files from its people's own
 * upload slots, with every limit and rule of server channels, stores the ciphertext the
 * client made, and always serves it as a download (it is ciphertext, whatever its bytes
 * look like). A bot in a person's DM sees the envelope of spec 1.6; in a test world's
 * plaintext DM with a bot (reference_dms), files are as in a server channel.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASIC_WORLD, call, client, harness, internalId, makeParley, ORIGIN, peopleWorld, refusal, rowCounts, session } from "../helpers";
import { png } from "../support/png";
import {
  generateDeviceKeys,
  openFile,
  openMessage,
  publicKeysOf,
  sealFile,
  sealMessage,
  SEALED_FILE_NAME,
  type DeviceInfo,
  type OwnDevice,
} from "../../src/e2e";
import type { Parley } from "../../src/app";

let p: Parley;
let w: ReturnType<typeof peopleWorld>;

beforeEach(() => {
  w = peopleWorld();
  p = w.p;
});

afterEach(() => p.core.close());

function put(id: string, token: string, bytes: Uint8Array) {
  return p.handle(
    new Request(`${ORIGIN}/api/client/v1/uploads/${id}`, {
      method: "PUT",
      headers: { ...session(token), "Content-Type": "application/octet-stream" },
      body: bytes as BodyInit,
    }),
  );
}

const get = (url: string) => p.handle(new Request(new URL(url, ORIGIN).href));

/** A person's device as a client makes it: keys in memory, public keys registered. */
async function deviceOf(token: string, userId: string): Promise<{ own: OwnDevice; info: DeviceInfo }> {
  const keys = await generateDeviceKeys();
  const r = await client(p, "POST", "/users/@me/devices", token, { keys: await publicKeysOf(keys) });
  expect(r.status).toBe(200);
  const created = Date.parse(r.body.created_at);
  return {
    own: { id: r.body.id, keys, created_at: created },
    info: { id: r.body.id, user_id: userId, keys: r.body.keys, created_at: created, removed_at: null },
  };
}

/** Upload bytes through a channel's slot flow, as `token`; answers the slot's id. */
async function upload(token: string, channelId: string, bytes: Uint8Array, filename = SEALED_FILE_NAME): Promise<string> {
  const s = await client(p, "POST", `/channels/${channelId}/attachments`, token, { files: [{ filename, size: bytes.byteLength }] });
  expect(s.status).toBe(200);
  expect((await put(s.body[0].id, token, bytes)).status).toBe(200);
  return s.body[0].id;
}

async function dmSetup() {
  const ids = { alice: internalId(p, w.w.users.alice.id), bob: internalId(p, w.w.users.bob.id) };
  const a = await deviceOf(w.alice, ids.alice);
  const b = await deviceOf(w.bob, ids.bob);
  const dm = (await client(p, "POST", "/users/@me/dms", w.alice, { recipient_id: ids.bob })).body.id as string;
  const seal = (content: Parameters<typeof sealMessage>[0], editOf: string | null = null) =>
    sealMessage(content, { channelId: dm, authorId: ids.alice, editOf }, a.own, [a.info, b.info], [ids.alice, ids.bob]);
  return { ids, a, b, dm, devices: [a.info, b.info], seal };
}

describe("files in an encrypted DM", () => {
  test("a picture sealed by the client: the server keeps ciphertext named file.bin, and the reader opens the exact picture", async () => {
    const { ids, b, dm, devices, seal } = await dmSetup();
    const picture = png(6, 4);
    const sealed = await sealFile(picture, { name: "beach.png", type: "image/png", description: "The beach at dawn" });
    const uploadId = await upload(w.alice, dm, sealed.ciphertext);
    const ciphertext = await seal({ text: "look!", files: [sealed.file] });
    const sent = await client(p, "POST", `/channels/${dm}/messages`, w.alice, { ciphertext, attachments: [{ upload_id: uploadId }] });
    expect(sent.status).toBe(200);
    expect(sent.body.attachments).toHaveLength(1);
    expect(sent.body.attachments[0]).toMatchObject({
      filename: SEALED_FILE_NAME,
      size: sealed.ciphertext.byteLength,
      content_type: "application/octet-stream",
      inline: false,
      width: null,
      height: null,
      description: null,
    });

    // Bob reads the message, opens it, then downloads and opens its file.
    const [m] = (await client(p, "GET", `/channels/${dm}/messages`, w.bob)).body;
    const meta = { channelId: dm, authorId: ids.alice, messageId: m.id, createdAt: Date.parse(m.created_at), edited: false };
    const opened = await openMessage(m.ciphertext, meta, b.own, devices);
    if (opened.state !== "ok" || !opened.files) throw new Error(`not opened: ${JSON.stringify(opened)}`);
    expect(opened.files[0]).toMatchObject({ name: "beach.png", type: "image/png", description: "The beach at dawn" });
    const res = await get(m.attachments[0].url);
    expect(res.status).toBe(200);
    const served = new Uint8Array(await res.arrayBuffer());
    expect(served).toEqual(sealed.ciphertext);
    expect(await openFile(served, opened.files[0]!)).toEqual(picture);

    // Nothing of the file's name, type or description is stored; its bytes are ciphertext.
    const rows = p.store.db.query("SELECT filename, description FROM attachments").all();
    expect(rows).toEqual([{ filename: SEALED_FILE_NAME, description: null }]);
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 1 });
    const blob = p.store.db.query("SELECT sha256 FROM media_blobs").get() as { sha256: string };
    expect(blob.sha256).toBe(new Bun.CryptoHasher("sha256").update(sealed.ciphertext).digest("hex"));
  });

  test("ciphertext that happens to be a PNG is still a download: octet-stream, attachment, never inline", async () => {
    const { dm, seal } = await dmSetup();
    const lookalike = png(3, 3);
    const uploadId = await upload(w.alice, dm, lookalike);
    const sent = await client(p, "POST", `/channels/${dm}/messages`, w.alice, {
      ciphertext: await seal("x"),
      attachments: [{ upload_id: uploadId }],
    });
    expect(sent.status).toBe(200);
    expect(sent.body.attachments[0]).toMatchObject({ content_type: "application/octet-stream", inline: false, width: null, height: null });
    const res = await get(sent.body.attachments[0].url);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toStartWith(`attachment; filename="${SEALED_FILE_NAME}"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(lookalike);
    // The same bytes in a server channel are a picture there (one stored blob): the rule is the DM's.
    const there = await upload(w.alice, w.general, lookalike, "pic.png");
    const shown = await client(p, "POST", `/channels/${w.general}/messages`, w.alice, { attachments: [{ upload_id: there }] });
    expect(shown.body.attachments[0]).toMatchObject({ content_type: "image/png", inline: true });
    expect(rowCounts(p, ["media_blobs"])).toEqual({ media_blobs: 1 });
    const again = await get((await client(p, "GET", `/channels/${dm}/messages`, w.bob)).body[0].attachments[0].url);
    expect(again.headers.get("content-disposition")).toStartWith("attachment");
    expect(again.headers.get("content-type")).toBe("application/octet-stream");
  });

  test("the slot rules hold: only the DM's people, each with their own slot for this DM, within the limits", async () => {
    const { dm, seal } = await dmSetup();
    const ciphertext = await seal("x");
    // A slot opened for another channel, or by the other person, is unknown here.
    const forGeneral = await upload(w.alice, w.general, new Uint8Array(20));
    const bobs = await upload(w.bob, dm, new Uint8Array(20));
    for (const upload_id of [forGeneral, bobs])
      expect(refusal(await client(p, "POST", `/channels/${dm}/messages`, w.alice, { ciphertext, attachments: [{ upload_id }] }))).toEqual([
        400, 50035,
      ]);
    // Someone outside the DM cannot open slots for it.
    expect(refusal(await client(p, "POST", `/channels/${dm}/attachments`, w.carol, { files: [{ filename: "f", size: 1 }] }))).toEqual([
      404, 10003,
    ]);
    const many = Array.from({ length: 11 }, () => ({ filename: SEALED_FILE_NAME, size: 1 }));
    expect(refusal(await client(p, "POST", `/channels/${dm}/attachments`, w.alice, { files: many }))).toEqual([400, 50035]);
    const big = [{ filename: SEALED_FILE_NAME, size: p.config.media.maxFileBytes + 1 }];
    expect(refusal(await client(p, "POST", `/channels/${dm}/attachments`, w.alice, { files: big }))).toEqual([413, 40005]);
    expect(rowCounts(p, ["attachments", "messages"])).toEqual({ attachments: 0, messages: 0 });
    // Bob's own slot goes into Bob's message.
    const bobSays = await client(p, "POST", `/channels/${dm}/messages`, w.bob, {
      ciphertext: await sealFor(w.bob, dm),
      attachments: [{ upload_id: bobs }],
    });
    expect(bobSays.status).toBe(200);
    expect(bobSays.body.attachments).toHaveLength(1);
  });

  test("an edit keeps the files; an encrypted edit may not list attachments", async () => {
    const { dm, seal } = await dmSetup();
    const uploadId = await upload(w.alice, dm, new Uint8Array(40));
    const sent = await client(p, "POST", `/channels/${dm}/messages`, w.alice, {
      ciphertext: await seal("one"),
      attachments: [{ upload_id: uploadId }],
    });
    const path = `/channels/${dm}/messages/${sent.body.id}`;
    const edited = await client(p, "PATCH", path, w.alice, { ciphertext: await seal("two", sent.body.id) });
    expect(edited.status).toBe(200);
    expect(edited.body.attachments.map((a: { id: string }) => a.id)).toEqual(sent.body.attachments.map((a: { id: string }) => a.id));
    for (const attachments of [[], null, [{ id: sent.body.attachments[0].id }]]) {
      const r = await client(p, "PATCH", path, w.alice, { ciphertext: await seal("three", sent.body.id), attachments });
      expect(refusal(r)).toEqual([400, 50035]);
      expect(r.body.errors.attachments).toBeDefined();
    }
    expect(rowCounts(p, ["attachments"])).toEqual({ attachments: 1 });
  });
});

/** A shaped envelope from a fresh device of the person's (what the server checks of a DM body). */
async function sealFor(token: string, dm: string): Promise<string> {
  const keys = await generateDeviceKeys();
  const d = await client(p, "POST", "/users/@me/devices", token, { keys: await publicKeysOf(keys) });
  const info = { id: d.body.id, user_id: d.body.user_id, keys: d.body.keys, created_at: 0, removed_at: null };
  return sealMessage(
    "x",
    { channelId: dm, authorId: d.body.user_id, editOf: null },
    { id: d.body.id, keys, created_at: 0 },
    [info],
    [d.body.user_id],
  );
}

describe("bots and DM files", () => {
  test("a person's encrypted DM to a bot: the bot sees the envelope, no attachments (spec 1.6)", async () => {
    const bot = internalId(p, w.w.applications.EchoBot.bot_user_id);
    const dm = (await client(p, "POST", "/users/@me/dms", w.alice, { recipient_id: bot })).body.id as string;
    const uploadId = await upload(w.alice, dm, new Uint8Array(30));
    const sent = await client(p, "POST", `/channels/${dm}/messages`, w.alice, {
      ciphertext: await sealFor(w.alice, dm),
      attachments: [{ upload_id: uploadId }],
    });
    expect(sent.status).toBe(200);
    const token = w.w.applications.EchoBot.token;
    const read = await call(p, "GET", `/channels/${p.api.flakes.of(dm)}/messages/${p.api.flakes.of(sent.body.id)}`, { token });
    expect(read.body).toMatchObject({ content: "", attachments: [], service_e2e_encrypted: true });
  });

  test("a test world's plaintext DM with a bot (reference_dms): the bot gets the attachment as in a server channel, and the same bytes", async () => {
    const q = makeParley();
    try {
      const seeded = await harness(q, "POST", "/seed", { ...structuredClone(BASIC_WORLD), reference_dms: true });
      expect(seeded.status).toBe(200);
      const alice = seeded.body.users.alice.token as string;
      const token = seeded.body.applications.EchoBot.token as string;
      const bot = internalId(q, seeded.body.applications.EchoBot.bot_user_id);
      const dm = (await client(q, "POST", "/users/@me/dms", alice, { recipient_id: bot })).body.id as string;
      const picture = png(7, 5);
      const slot = await client(q, "POST", `/channels/${dm}/attachments`, alice, {
        files: [{ filename: "cat.png", size: picture.byteLength }],
      });
      const res = await q.handle(
        new Request(`${ORIGIN}/api/client/v1/uploads/${slot.body[0].id}`, { method: "PUT", headers: session(alice), body: picture }),
      );
      expect(res.status).toBe(200);
      const sent = await client(q, "POST", `/channels/${dm}/messages`, alice, {
        content: "my cat",
        attachments: [{ upload_id: slot.body[0].id, description: "a grey cat" }],
      });
      expect(sent.status).toBe(200);
      const read = await call(q, "GET", `/channels/${q.api.flakes.of(dm)}/messages/${q.api.flakes.of(sent.body.id)}`, { token });
      expect(read.body).toMatchObject({ content: "my cat", service_e2e_encrypted: false });
      expect(read.body.attachments[0]).toMatchObject({
        filename: "cat.png",
        content_type: "image/png",
        size: picture.byteLength,
        width: 7,
        height: 5,
        description: "a grey cat",
      });
      const bytes = await q.handle(new Request(read.body.attachments[0].url.replace(/^https?:\/\/[^/]+/, ORIGIN)));
      expect(bytes.headers.get("content-disposition")).toStartWith("inline");
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(picture);
    } finally {
      q.core.close();
    }
  });
});
