import { describe, expect, test, beforeEach, afterEach } from "bun:test";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, client, harness, internalId, makeParley, recordEvents, rowCounts, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { png } from "../support/png";

let p: Parley;
let w: SeedAnswer;
let general: string, staff: string;

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  general = w.guilds.Lab.channels.general;
  staff = w.guilds.Lab.channels.staff;
});

describe("POST /users/{user}/messages", () => {
  test("a person says something: 200 {id}, one message.created, visible with full content", async () => {
    const ev = recordEvents(p);
    const r = await harness(p, "POST", "/users/bob/messages", { channel_id: general, content: "hello bot", embeds: [{ title: "card" }] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["id"]);
    expect(r.body.id).toMatch(/^[0-9]{17,20}$/);
    expect(ev.count("message.created")).toBe(1);
    const list = await harness(p, "GET", `/channels/${general}/messages?as=alice`);
    expect(list.body[0]).toMatchObject({
      id: r.body.id,
      channel_id: general,
      content: "hello bot",
      embeds: [{ title: "card" }],
      components: [],
      flags: 0,
      author: { id: w.users.bob.id, username: "bob" },
    });
  });

  test("people are named by seed name or snowflake; unknown users are 404 10003", async () => {
    expect((await harness(p, "POST", `/users/${w.users.bob.id}/messages`, { channel_id: general, content: "by id" })).status).toBe(200);
    for (const u of ["nobody", "12345678901234567890"]) {
      const r = await harness(p, "POST", `/users/${u}/messages`, { channel_id: general, content: "x" });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(10003);
    }
  });

  test("the person's rights apply: staff denies SEND_MESSAGES, strangers see no channel", async () => {
    const before = rowCounts(p, ["messages"]);
    const denied = await harness(p, "POST", "/users/bob/messages", { channel_id: staff, content: "x" });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(50001);
    const stranger = await harness(p, "POST", "/users/carol/messages", { channel_id: general, content: "x" });
    expect(refusal(stranger)).toEqual([404, 10003]);
    expect(rowCounts(p, ["messages"])).toEqual(before);
  });

  test("bad bodies are 400 50035 naming the field, writing nothing", async () => {
    const before = rowCounts(p, ["messages"]);
    const cases: [unknown, string][] = [
      [{ content: "x" }, "channel_id"],
      [{ channel_id: general }, "content"],
      [{ channel_id: general, content: "" }, "content"],
      [{ channel_id: general, content: "x".repeat(2001) }, "content"],
      [{ channel_id: "abc", content: "x" }, "channel_id"],
      [{ channel_id: general, content: "x", embeds: new Array(11).fill({}) }, "embeds"],
      // An embed the bot API would refuse: a bot must never receive it from a person either.
      [{ channel_id: general, content: "x", embeds: [{ title: 5 }] }, "embeds[0].title"],
      [{ channel_id: general, content: "x", embeds: [{ color: -1 }] }, "embeds[0].color"],
      [{ channel_id: general, content: "x", embeds: [{ fields: [{ name: "n" }] }] }, "embeds[0].fields[0].value"],
    ];
    for (const [body, field] of cases) {
      const r = await harness(p, "POST", "/users/bob/messages", body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(field);
    }
    const unknownChannel = await harness(p, "POST", "/users/bob/messages", { channel_id: "12345678901234567", content: "x" });
    expect(refusal(unknownChannel)).toEqual([404, 10003]);
    expect(rowCounts(p, ["messages"])).toEqual(before);
  });
});

describe("GET /channels/{id}/messages?as=", () => {
  test("newest first; ephemeral messages only for their person, with flags & 64", async () => {
    const bot = internalId(p, w.applications.EchoBot.bot_user_id);
    const ch = internalId(p, general);
    await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "one" });
    p.core.messages.create({ channelId: ch, authorId: bot, content: "secret for bob", ephemeralUserId: internalId(p, w.users.bob.id) });
    await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "two" });
    const bob = await harness(p, "GET", `/channels/${general}/messages?as=bob`);
    expect(bob.body.map((m: any) => m.content)).toEqual(["two", "secret for bob", "one"]);
    expect(bob.body[1].flags & 64).toBe(64);
    const alice = await harness(p, "GET", `/channels/${general}/messages?as=alice`);
    expect(alice.body.map((m: any) => m.content)).toEqual(["two", "one"]);
    const limited = await harness(p, "GET", `/channels/${general}/messages?as=bob&limit=1`);
    expect(limited.body.length).toBe(1);
  });

  test("a bound that is no snowflake is 400/50035 naming it, as on the bot API (not an empty page)", async () => {
    for (const q of ["before=xyz", "after=12ab", "before=-1"]) {
      const r = await harness(p, "GET", `/channels/${general}/messages?as=alice&${q}`);
      expect([r.status, r.body.code, Object.keys(r.body.errors ?? {})]).toEqual([400, 50035, [q.split("=")[0]]]);
    }
    expect((await harness(p, "GET", `/channels/${general}/messages?as=alice&before=99999999999999999`)).status).toBe(200);
  });

  test("a person outside the server and an unknown channel are 404", async () => {
    expect(refusal(await harness(p, "GET", `/channels/${general}/messages?as=carol`))).toEqual([404, 10003]);
    expect(refusal(await harness(p, "GET", `/channels/12345678901234567/messages?as=bob`))).toEqual([404, 10003]);
    expect(refusal(await harness(p, "GET", `/channels/${general}/messages?as=nobody`))).toEqual([404, 10003]);
  });
});

describe("reactions", () => {
  test("PUT and DELETE answer 204 with one event each; a repeat fires nothing", async () => {
    const m = await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "react to me" });
    const ev = recordEvents(p);
    const body = { channel_id: general, message_id: m.body.id, emoji: "👍" };
    expect((await harness(p, "PUT", "/users/bob/reactions", body)).status).toBe(204);
    expect((await harness(p, "PUT", "/users/bob/reactions", body)).status).toBe(204);
    expect(ev.count("reaction.added")).toBe(1);
    const seen = await harness(p, "GET", `/channels/${general}/messages?as=bob`);
    expect(seen.body[0].reactions).toEqual([expect.objectContaining({ emoji: { id: null, name: "👍" }, count: 1, me: true })]);
    expect((await harness(p, "DELETE", "/users/bob/reactions", body)).status).toBe(204);
    expect(ev.count("reaction.removed")).toBe(1);
  });

  test("a message of another channel, bad bodies and strangers are refused", async () => {
    const m = await harness(p, "POST", "/users/alice/messages", { channel_id: general, content: "x" });
    const before = rowCounts(p, ["reactions"]);
    expect(refusal(await harness(p, "PUT", "/users/bob/reactions", { channel_id: staff, message_id: m.body.id, emoji: "👍" }))).toEqual([
      404, 10003,
    ]);
    expect(refusal(await harness(p, "PUT", "/users/carol/reactions", { channel_id: general, message_id: m.body.id, emoji: "👍" }))).toEqual(
      [404, 10003],
    );
    const bad = await harness(p, "PUT", "/users/bob/reactions", { channel_id: general, message_id: m.body.id });
    expect(refusal(bad)).toEqual([400, 50035]);
    expect(bad.body.message).toContain("emoji");
    expect(rowCounts(p, ["reactions"])).toEqual(before);
  });
});

describe("POST /users/{user}/dms", () => {
  test("to a person: stored as ciphertext only, read back as plaintext by the people in it", async () => {
    const ev = recordEvents(p);
    const r = await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "psst, bob" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["channel_id", "id"]);
    expect(ev.count("message.created")).toBe(1);
    const row = p.core.messages.get(internalId(p, r.body.id))!;
    expect(row.content).toBe("");
    expect(row.ciphertext).toMatch(/^dm1\./);
    expect(row.ciphertext).not.toContain("psst");
    const bob = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=bob`);
    expect(bob.body[0]).toMatchObject({ id: r.body.id, content: "psst, bob", service_e2e_encrypted: true });
    // a second DM reuses the channel
    const again = await harness(p, "POST", `/users/${w.users.bob.id}/dms`, { recipient_id: w.users.alice.id, content: "hi alice" });
    expect(again.body.channel_id).toBe(r.body.channel_id);
    const alice = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=alice`);
    expect(alice.body.map((m: any) => m.content)).toEqual(["hi alice", "psst, bob"]);
    // the people's API hands out the ciphertext, never the text
    const viaClient = await client(p, "GET", `/channels/${internalId(p, r.body.channel_id)}/messages`, w.users.bob.token);
    expect(viaClient.body[0].content).toBe("");
    expect(viaClient.body[0].ciphertext).toMatch(/^dm1\./);
  });

  test("to a bot: the bot sees only the envelope (spec 1.6)", async () => {
    const r = await harness(p, "POST", "/users/alice/dms", { recipient_id: w.applications.EchoBot.bot_user_id, content: "hello bot" });
    expect(r.status).toBe(200);
    const asBot = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=EchoBot`);
    expect(asBot.body[0]).toMatchObject({ content: "", embeds: [], service_e2e_encrypted: true });
    const asAlice = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=alice`);
    expect(asAlice.body[0].content).toBe("hello bot");
  });

  test("refusals create neither channel nor message", async () => {
    const before = rowCounts(p, ["channels", "dm_recipients", "messages"]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { recipient_id: "carol", content: "hi" }))).toEqual([403, 50001]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { recipient_id: "nobody", content: "hi" }))).toEqual([404, 10003]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "" }))).toEqual([400, 50035]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "x".repeat(2001) }))).toEqual([400, 50035]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { recipient_id: "alice", content: "me" }))).toEqual([400, 50035]);
    expect(refusal(await harness(p, "POST", "/users/alice/dms", { content: "who" }))).toEqual([400, 50035]);
    expect(rowCounts(p, ["channels", "dm_recipients", "messages"])).toEqual(before);
  });

  test("with files: each is encrypted and uploaded as file.bin; the recipient's client opens the exact bytes and facts", async () => {
    const b64 = (b: Uint8Array | string) => Buffer.from(b).toString("base64");
    const picture = png(5, 4);
    const r = await harness(p, "POST", "/users/alice/dms", {
      recipient_id: "bob",
      content: "",
      files: [
        { name: "beach.png", data: b64(picture), description: "The beach at dawn" },
        { name: "notes.txt", data: b64("eggs, milk\n") },
      ],
    });
    expect(r.status).toBe(200);
    const rows = p.store.db.query("SELECT filename, description FROM attachments ORDER BY ordinal").all();
    expect(rows).toEqual([
      { filename: "file.bin", description: null },
      { filename: "file.bin", description: null },
    ]);
    const opened = [
      { filename: "beach.png", content_type: "image/png", size: picture.byteLength, description: "The beach at dawn", data: b64(picture) },
      { filename: "notes.txt", content_type: "text/plain", size: 11, description: null, data: b64("eggs, milk\n") },
    ];
    const bob = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=bob`);
    expect(bob.body[0]).toMatchObject({ content: "", service_e2e_state: "decrypted", service_e2e_files: opened });
    // An edit (or a later message through /messages) keeps them: the sealed text names them again.
    expect((await harness(p, "PATCH", `/users/alice/messages/${r.body.id}`, { content: "two files" })).status).toBe(204);
    const after = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=bob`);
    expect(after.body[0]).toMatchObject({ content: "two files", service_e2e_files: opened });
    const more = await harness(p, "POST", "/users/bob/messages", {
      channel_id: r.body.channel_id,
      content: "and one back",
      files: [{ name: "reply.txt", data: b64("ok") }],
    });
    expect(more.status).toBe(200);
    const seen = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=alice&limit=1`);
    expect(seen.body[0].service_e2e_files).toEqual([
      { filename: "reply.txt", content_type: "text/plain", size: 2, description: null, data: b64("ok") },
    ]);
  });

  test("files whose facts do not fit the largest bucket are refused before anything is uploaded", async () => {
    const before = rowCounts(p, ["uploads", "media_blobs", "messages"]);
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.txt`, data: "eA==", description: "é".repeat(1024) }));
    const r = await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "x", files });
    expect(refusal(r)).toEqual([400, 50035]);
    expect(r.body.message).toContain("too long to encrypt");
    expect(rowCounts(p, ["uploads", "media_blobs", "messages"])).toEqual(before);
  });

  test("harness messages into a DM channel are encrypted as well", async () => {
    const r = await harness(p, "POST", "/users/alice/dms", { recipient_id: "bob", content: "first" });
    const m = await harness(p, "POST", "/users/bob/messages", { channel_id: r.body.channel_id, content: "reply in dm" });
    expect(m.status).toBe(200);
    expect(p.core.messages.get(internalId(p, m.body.id))!.ciphertext).toMatch(/^dm1\./);
    const seen = await harness(p, "GET", `/channels/${r.body.channel_id}/messages?as=alice`);
    expect(seen.body[0].content).toBe("reply in dm");
  });
});

describe("DM plaintext never reaches the database file", () => {
  let dir: string;
  let fp: Parley;
  afterEach(async () => {
    await fp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("scan parley.db and its -wal for the text of DMs sent through the harness and the people's API", async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-e2e-"));
    fp = makeParley({ data: dir, dbPath: join(dir, "parley.db") });
    const fw = seedBasic(fp);
    const secret = "the-launch-code-is-7741-zebra";
    const r = await harness(fp, "POST", "/users/alice/dms", { recipient_id: "bob", content: secret });
    expect(r.status).toBe(200);
    const bot = await harness(fp, "POST", "/users/alice/dms", { recipient_id: "EchoBot", content: `${secret}-for-the-bot` });
    expect(bot.status).toBe(200);
    // the people's API refuses plaintext outright, so it cannot land on disk either
    const refused = await client(fp, "POST", `/channels/${internalId(fp, r.body.channel_id)}/messages`, fw.users.bob.token, {
      content: `${secret}-plain`,
    });
    expect(refusal(refused)).toEqual([400, 50035]);
    // a server message is plaintext by design: it proves the scan would find text
    await harness(fp, "POST", "/users/bob/messages", { channel_id: fw.guilds.Lab.channels.general, content: "server-canary-5512" });
    const files = ["parley.db", "parley.db-wal"].map((f) => join(dir, f)).filter(existsSync);
    expect(files.length).toBeGreaterThan(0);
    const blob = Buffer.concat(files.map((f) => readFileSync(f)));
    expect(blob.includes("server-canary-5512")).toBe(true);
    expect(blob.includes(secret)).toBe(false);
    expect(blob.includes(Buffer.from(secret, "utf16le"))).toBe(false);
  });
});

describe("not mounted without test mode", () => {
  test("harness paths are plain 404s with a JSON body", async () => {
    const prod = makeParley({ harness: false });
    for (const [m, path] of [
      ["POST", "/api/harness/v1/reset"],
      ["POST", "/api/harness/v1/users/bob/messages"],
      ["GET", "/api/harness/v1/channels/1/messages"],
    ] as const) {
      const r = await call(prod, m, path, { body: {} });
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.body).toEqual({ code: 0, message: expect.any(String) });
    }
    await prod.stop();
  });
});
