import { describe, expect, test, beforeEach } from "bun:test";
import { shapedEnvelope as shaped } from "../e2e-helpers";
import { generateDeviceKeys, publicKeysOf } from "../../src/e2e";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { client, internalId, ORIGIN, recordEvents, rowCounts, peopleWorld, refusal } from "../helpers";
import { MAX_CONTENT } from "../../src/core/people";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";
import { messageJson } from "../../src/wire/serializers/message";

let p: Parley;
let w: SeedAnswer;
let alice: string, bob: string, carol: string;
let lab: string, general: string, staff: string;

beforeEach(() => {
  ({ p, w, alice, bob, carol, lab, general, staff } = peopleWorld());
});

/** A device registered for the person whose session `token` is (its keys thrown away), for envelopes to name as their sender. */
async function deviceOf(token: string): Promise<string> {
  return (await client(p, "POST", "/users/@me/devices", token, { keys: await publicKeysOf(await generateDeviceKeys()) })).body.id;
}

describe("server messages", () => {
  test("send, list newest first, edit own, delete own; one event each", async () => {
    const ev = recordEvents(p);
    const a = await client(p, "POST", `/channels/${general}/messages`, bob, { content: "first" });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      content: "first",
      channel_id: general,
      author: { username: "bob" },
      ciphertext: null,
      ephemeral: false,
    });
    const b = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "second", reply_to: a.body.id });
    expect(b.body.reply_to).toBe(a.body.id);
    expect(ev.count("message.created")).toBe(2);
    const list = await client(p, "GET", `/channels/${general}/messages`, bob);
    expect(list.body.map((m: any) => m.content)).toEqual(["second", "first"]);
    const page = await client(p, "GET", `/channels/${general}/messages?limit=1&before=${b.body.id}`, bob);
    expect(page.body.map((m: any) => m.content)).toEqual(["first"]);

    const edited = await client(p, "PATCH", `/channels/${general}/messages/${a.body.id}`, bob, { content: "first!" });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe("first!");
    expect(edited.body.edited_at).not.toBeNull();
    expect(ev.count("message.updated")).toBe(1);
    const notMine = await client(p, "PATCH", `/channels/${general}/messages/${b.body.id}`, bob, { content: "hijack" });
    expect(refusal(notMine)).toEqual([403, 50001]);
    expect((await client(p, "DELETE", `/channels/${general}/messages/${a.body.id}`, bob)).status).toBe(204);
    expect(ev.count("message.deleted")).toBe(1);
    expect(refusal(await client(p, "DELETE", `/channels/${general}/messages/${a.body.id}`, bob))).toEqual([404, 10003]);
  });

  test("deleting someone else's message needs MANAGE_MESSAGES", async () => {
    const m = await client(p, "POST", `/channels/${general}/messages`, alice, { content: "from alice" });
    const mine = await client(p, "POST", `/channels/${general}/messages`, bob, { content: "from bob" });
    const dave = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "long enough" });
    const inv = await client(p, "POST", `/channels/${general}/invites`, alice, {});
    await client(p, "POST", `/invites/${inv.body.code}`, dave.body.token);
    expect(refusal(await client(p, "DELETE", `/channels/${general}/messages/${mine.body.id}`, dave.body.token))).toEqual([403, 50001]);
    // bob is a Mod (MANAGE_MESSAGES)
    expect((await client(p, "DELETE", `/channels/${general}/messages/${m.body.id}`, bob)).status).toBe(204);
  });

  test("SEND_MESSAGES is checked per channel: staff denies @everyone", async () => {
    const ev = recordEvents(p);
    const r = await client(p, "POST", `/channels/${staff}/messages`, bob, { content: "hi staff" });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(50001);
    expect(ev.count("message.created")).toBe(0);
    // the owner holds everything
    expect((await client(p, "POST", `/channels/${staff}/messages`, alice, { content: "hi staff" })).status).toBe(200);
  });

  test("non-members see 404; bad bodies are 400 50035 and write nothing", async () => {
    const stranger = await client(p, "POST", `/channels/${general}/messages`, carol, { content: "hello" });
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe(10003);
    expect(refusal(await client(p, "GET", `/channels/${general}/messages`, carol))).toEqual([404, 10003]);
    const before = rowCounts(p, ["messages"]);
    const cases: [unknown, string][] = [
      [{ content: "" }, "content"],
      [{ content: "   " }, "content"],
      [{ content: "x".repeat(2001) }, "content"],
      [{}, "content"],
      [{ content: 5 }, "content"],
      [{ ciphertext: "AAAA" }, "ciphertext"],
      [{ content: "ok", reply_to: "01900000-0000-7000-8000-000000000000" }, "message_reference"],
    ];
    for (const [body, field] of cases) {
      const r = await client(p, "POST", `/channels/${general}/messages`, bob, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(field);
    }
    expect((await client(p, "POST", `/channels/${general}/messages`, bob, { content: "x".repeat(2000) })).status).toBe(200);
    expect(rowCounts(p, ["messages"]).messages).toBe(before.messages + 1);
    expect(refusal(await client(p, "GET", `/channels/${general}/messages?limit=0`, bob))).toEqual([400, 50035]);
  });

  test(`people's messages hold ${MAX_CONTENT} characters, as the answer, the API description and the docs all say`, async () => {
    for (const n of [MAX_CONTENT + 1, 4001]) {
      const r = await client(p, "POST", `/channels/${general}/messages`, bob, { content: "x".repeat(n) });
      expect(refusal(r)).toEqual([400, 50035]);
      expect(r.body.message).toContain(`content: Must be ${MAX_CONTENT} or fewer in length.`);
    }
    const doc = await (await p.handle(new Request(`${ORIGIN}/api/openapi.json`))).json();
    for (const method of ["post", "patch"]) {
      const path =
        method === "post" ? "/api/client/v1/channels/{channel_id}/messages" : "/api/client/v1/channels/{channel_id}/messages/{message_id}";
      expect(doc.paths[path][method].requestBody.content["application/json"].schema.properties.content.maxLength).toBe(MAX_CONTENT);
    }
    const limits = readFileSync(join(import.meta.dir, "../../docs/operations.md"), "utf8")
      .split("\n")
      .filter((l) => /message content/i.test(l));
    expect(limits.length).toBeGreaterThan(0);
    for (const line of limits) expect(line.match(/\d{4}/g)).toEqual([String(MAX_CONTENT)]);
  });

  test("slowmode: people wait rate_limit_per_user seconds on the clock; managers do not", async () => {
    const slow = await client(p, "POST", `/guilds/${lab}/channels`, alice, { name: "slow", rate_limit_per_user: 10 });
    const id = slow.body.id;
    const dave = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "long enough" });
    const inv = await client(p, "POST", `/channels/${general}/invites`, alice, {});
    await client(p, "POST", `/invites/${inv.body.code}`, dave.body.token);
    const d = dave.body.token;
    p.clock.advance(0); // virtual time from here
    expect((await client(p, "POST", `/channels/${id}/messages`, d, { content: "one" })).status).toBe(200);
    p.clock.advance(4_000);
    const again = await client(p, "POST", `/channels/${id}/messages`, d, { content: "two" });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ code: 20016, retry_after: 6, global: false }); // as on the bot API
    p.clock.advance(6_000);
    expect((await client(p, "POST", `/channels/${id}/messages`, d, { content: "two" })).status).toBe(200);
    // bob holds MANAGE_MESSAGES, alice owns the server: no slowmode for them
    for (const t of [bob, bob, alice, alice])
      expect((await client(p, "POST", `/channels/${id}/messages`, t, { content: "quick" })).status).toBe(200);
  });

  test("ephemeral messages are listed only for their person", async () => {
    const bobId = internalId(p, w.users.bob.id);
    const bot = internalId(p, w.applications.EchoBot.bot_user_id);
    p.core.messages.create({ channelId: general, authorId: bot, content: "only bob", flags: 64, ephemeralUserId: bobId });
    p.core.messages.create({ channelId: general, authorId: bot, content: "everyone" });
    const forBob = await client(p, "GET", `/channels/${general}/messages`, bob);
    expect(forBob.body.map((m: any) => [m.content, m.ephemeral])).toEqual([
      ["everyone", false],
      ["only bob", true],
    ]);
    const forAlice = await client(p, "GET", `/channels/${general}/messages`, alice);
    expect(forAlice.body.map((m: any) => m.content)).toEqual(["everyone"]);
  });
});

describe("direct messages", () => {
  test("open a DM with someone who shares a server; strangers and oneself are refused", async () => {
    const bobId = internalId(p, w.users.bob.id);
    const carolId = internalId(p, w.users.carol.id);
    const dm = await client(p, "POST", "/users/@me/dms", alice, { recipient_id: bobId });
    expect(dm.status).toBe(200);
    expect(dm.body).toMatchObject({ type: 1, guild_id: null, e2e: true, recipients: [expect.objectContaining({ id: bobId })] });
    const again = await client(p, "POST", "/users/@me/dms", bob, { recipient_id: internalId(p, w.users.alice.id) });
    expect(again.body.id).toBe(dm.body.id);
    expect((await client(p, "GET", "/users/@me/dms", bob)).body.map((c: any) => c.id)).toEqual([dm.body.id]);
    const before = rowCounts(p, ["channels", "dm_recipients"]);
    const stranger = await client(p, "POST", "/users/@me/dms", alice, { recipient_id: carolId });
    expect(refusal(stranger)).toEqual([403, 50001]);
    expect(refusal(await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.alice.id) }))).toEqual([
      400, 50035,
    ]);
    expect(refusal(await client(p, "POST", "/users/@me/dms", alice, { recipient_id: "01900000-0000-7000-8000-000000000000" }))).toEqual([
      404, 10003,
    ]);
    expect(rowCounts(p, ["channels", "dm_recipients"])).toEqual(before);
  });

  test("a DM message carries only ciphertext; plaintext is refused with 50035", async () => {
    const dm = await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.users.bob.id) });
    const device = await deviceOf(alice);
    const shapedEnvelope = (bucket = 128) => shaped(bucket, [device]);
    const before = rowCounts(p, ["messages"]);
    // Only the envelope's shape is checked (a version, ids, base64url parts of bucket sizes), and that a current device of the author's sent it.
    const good = shapedEnvelope().split(".");
    const malformed = [
      "v1.aXY.Y2lwaGVy",
      [...good.slice(0, 3), good[3].slice(0, -4), ...good.slice(4)].join("."),
      good.slice(0, 4).join("."),
      shapedEnvelope(100),
      shapedEnvelope(8192 * 2),
    ];
    const bodies = [
      { content: "hello bob" },
      { content: "hello", ciphertext: "AAAA" },
      {},
      { ciphertext: "not base64 at all" },
      ...malformed.map((ciphertext) => ({ ciphertext })),
    ];
    for (const body of bodies) {
      const r = await client(p, "POST", `/channels/${dm.body.id}/messages`, alice, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
    }
    expect(rowCounts(p, ["messages"])).toEqual(before);
    const ev = recordEvents(p);
    const envelope = shapedEnvelope();
    const sent = await client(p, "POST", `/channels/${dm.body.id}/messages`, alice, { ciphertext: envelope });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ content: "", ciphertext: envelope });
    expect(ev.count("message.created")).toBe(1);
    const row = p.core.messages.get(sent.body.id)!;
    expect(row.content).toBe("");
    expect(row.ciphertext).toBe(envelope);
    const forBob = await client(p, "GET", `/channels/${dm.body.id}/messages`, bob);
    expect(forBob.body[0].ciphertext).toBe(envelope);
    expect(refusal(await client(p, "GET", `/channels/${dm.body.id}/messages`, carol))).toEqual([404, 10003]);
    const edit = await client(p, "PATCH", `/channels/${dm.body.id}/messages/${sent.body.id}`, alice, { content: "plain" });
    expect(refusal(edit)).toEqual([400, 50035]);
    const edited = shapedEnvelope(256);
    const edit2 = await client(p, "PATCH", `/channels/${dm.body.id}/messages/${sent.body.id}`, alice, { ciphertext: edited });
    expect(edit2.body.ciphertext).toBe(edited);
  });

  test("a DM to a bot is encrypted too: the bot sees the envelope of spec 1.6", async () => {
    const dm = await client(p, "POST", "/users/@me/dms", alice, { recipient_id: internalId(p, w.applications.EchoBot.bot_user_id) });
    expect(dm.status).toBe(200);
    const sent = await client(p, "POST", `/channels/${dm.body.id}/messages`, alice, { ciphertext: shaped(128, [await deviceOf(alice)]) });
    const seen = messageJson(p.api.flakes, p.core.reads.messages.byId(sent.body.id)!, { content: true });
    expect(seen).toMatchObject({ content: "", embeds: [], service_e2e_encrypted: true });
  });
});

describe("presence", () => {
  test("online, idle, dnd, offline; one presence.updated per change", async () => {
    const ev = recordEvents(p);
    for (const status of ["online", "idle", "dnd", "offline"]) {
      const r = await client(p, "PUT", "/users/@me/presence", bob, { status });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status });
      expect((await client(p, "GET", "/users/@me", bob)).body.presence).toBe(status);
    }
    await client(p, "PUT", "/users/@me/presence", bob, { status: "offline" });
    expect(ev.count("presence.updated")).toBe(4);
    const bad = await client(p, "PUT", "/users/@me/presence", bob, { status: "away" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(50035);
  });
});
