import { describe, expect, test, beforeEach } from "bun:test";
import { call, makeParley, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let token: string;

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
  token = w.applications.EchoBot.token;
});

describe("GET /users/@me", () => {
  test("answers the bot user with bot true and verified", async () => {
    const r = await call(p, "GET", "/users/@me", { token });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body.id).toBe(w.applications.EchoBot.bot_user_id);
    expect(r.body.bot).toBe(true);
    expect(r.body.verified).toBe(true);
    expect(r.body.username).toBe("EchoBot");
  });

  test("missing, malformed and wrong tokens are 401 code 0", async () => {
    for (const t of [null, "nonsense", token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")]) {
      const r = await call(p, "GET", "/users/@me", { token: t });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 0, message: expect.any(String) });
    }
    const bearer = await call(p, "GET", "/users/@me", { headers: { Authorization: `Bearer ${token}` } });
    expect(refusal(bearer)).toEqual([401, 0]);
  });
});

import { readFileSync, mkdtempSync, rmSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley } from "../../src/app";
import { testConfig, SPEC_RATE_LIMITS } from "../../src/config";
import { bucketHash, seconds } from "../../src/botapi/ratelimit";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { INTENTS } from "../../src/core/permissions";
import { rotateToken } from "../../src/wire/tokens";

describe("tokens", () => {
  test("look like the reference's: three parts, the first the base64 of the bot user's id", () => {
    const parts = token.split(".");
    expect(parts).toHaveLength(3);
    expect(Buffer.from(parts[0], "base64").toString()).toBe(w.applications.EchoBot.bot_user_id);
    expect(parts[2].length).toBeGreaterThanOrEqual(43);
  });

  test("rotation refuses the old token at once and accepts the new one", async () => {
    const app = p.api.flakes.uuid(w.applications.EchoBot.id)!;
    const fresh = rotateToken(p.core.apps, p.api.flakes, app);
    expect(refusal(await call(p, "GET", "/users/@me", { token }))).toEqual([401, 0]);
    expect((await call(p, "GET", "/users/@me", { token: fresh })).status).toBe(200);
    expect(p.core.apps.get(app)!.token_version).toBe(3); // seeded (1), re-minted after approval (2), rotated (3)
  });

  test("the harness rotate endpoint answers a new token; the old one is refused", async () => {
    const r = await call(p, "POST", `/api/harness/v1/applications/${w.applications.EchoBot.id}/rotate`);
    expect(r.status).toBe(200);
    expect(refusal(await call(p, "GET", "/users/@me", { token }))).toEqual([401, 0]);
    expect((await call(p, "GET", "/users/@me", { token: r.body.token })).status).toBe(200);
    expect(refusal(await call(p, "POST", `/api/harness/v1/applications/12345678901234567/rotate`))).toEqual([404, 10003]);
  });

  test("deleting the application stops its token at once and removes its bot from every server", async () => {
    const app = p.api.flakes.uuid(w.applications.EchoBot.id)!;
    const bot = p.api.flakes.uuid(w.applications.EchoBot.bot_user_id)!;
    p.core.apps.delete(app);
    expect(refusal(await call(p, "GET", "/users/@me", { token }))).toEqual([401, 0]);
    expect(p.core.guilds.guildIdsOf(bot)).toEqual([]);
  });

  test("no plaintext token, session token or secret part is in the database file", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-tok-"));
    try {
      const q = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db") }));
      const seeded = q.seed({ users: [{ name: "alice" }], applications: [{ name: "Bot", owner: "alice" }] });
      const t = seeded.applications.Bot.token;
      q.store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      q.store.close();
      const secret = t.split(".")[2];
      for (const f of readdirSync(dir)) {
        const bytes = readFileSync(join(dir, f)).toString("latin1");
        expect(bytes.includes(secret)).toBe(false);
        expect(bytes.includes(seeded.users.alice.token)).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("data and tokens survive a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-restart-"));
    try {
      const cfg = testConfig({ data: dir, dbPath: join(dir, "parley.db") });
      const q1 = createParley(cfg);
      const s = q1.seed({
        users: [{ name: "alice" }],
        guilds: [{ name: "Lab", owner: "alice" }],
        applications: [{ name: "Bot", owner: "alice", install: ["Lab"] }],
      });
      await q1.stop();
      const q2 = createParley(cfg);
      const me = await call(q2, "GET", "/users/@me", { token: s.applications.Bot.token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(s.applications.Bot.bot_user_id);
      const guilds = await call(q2, "GET", "/users/@me/guilds", { token: s.applications.Bot.token });
      expect(guilds.body.map((g: any) => g.id)).toEqual([s.guilds.Lab.id]);
      await q2.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("privileged intents", () => {
  test("are not granted until an administrator approves them, and then only from the next token", async () => {
    const s = p.seed({
      users: [{ name: "dave" }],
      applications: [{ name: "Nosy", owner: "dave", intents: ["GUILDS", "MESSAGE_CONTENT", "GUILD_MEMBERS"] }],
    });
    const appId = p.api.flakes.uuid(s.applications.Nosy.id)!;
    expect(p.core.apps.get(appId)!.token_intents).toBe(INTENTS.GUILDS);
    const before = await call(p, "GET", "/applications/@me", { token: s.applications.Nosy.token });
    expect(before.body.flags & (1 << 18)).toBe(0);

    const dave = p.api.flakes.uuid(s.users.dave.id)!;
    expect(() => p.core.apps.approvePrivileged(appId, dave, INTENTS.MESSAGE_CONTENT)).toThrow("administrator");
    const alice = p.api.flakes.uuid(w.users.alice.id)!; // an administrator
    p.core.apps.approvePrivileged(appId, alice, INTENTS.MESSAGE_CONTENT);
    expect(p.core.apps.get(appId)!.token_intents).toBe(INTENTS.GUILDS); // the token's grant is fixed at minting
    rotateToken(p.core.apps, p.api.flakes, appId);
    expect(p.core.apps.get(appId)!.token_intents).toBe(INTENTS.GUILDS | INTENTS.MESSAGE_CONTENT); // GUILD_MEMBERS still unapproved
  });

  test("a new application asks for every non-privileged intent by default", () => {
    const s = p.seed({ users: [{ name: "erin" }], applications: [{ name: "Plain", owner: "erin" }] });
    const a = p.core.apps.get(p.api.flakes.uuid(s.applications.Plain.id)!)!;
    expect(a.token_intents & INTENTS.GUILD_MESSAGES).toBeTruthy();
    expect(a.token_intents & (INTENTS.MESSAGE_CONTENT | INTENTS.GUILD_MEMBERS | INTENTS.GUILD_PRESENCES)).toBe(0);
  });
});

describe("routes of the foundation", () => {
  test("GET /gateway needs no token; GET /gateway/bot does and answers the static start limits", async () => {
    const open = await call(p, "GET", "/gateway");
    expect(open.status).toBe(200);
    expect(open.body.url).toMatch(/^ws:\/\/.+\/gateway$/);
    expect(refusal(await call(p, "GET", "/gateway/bot"))).toEqual([401, 0]);
    const bot = await call(p, "GET", "/gateway/bot", { token });
    expect(bot.body).toEqual({
      url: open.body.url,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 86400000, max_concurrency: 1 },
    });
  });

  test("GET /applications/@me and /oauth2/applications/@me answer the bot's own application", async () => {
    for (const path of ["/applications/@me", "/oauth2/applications/@me"]) {
      const r = await call(p, "GET", path, { token });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(w.applications.EchoBot.id);
      expect(r.body.verify_key).toBe(w.applications.EchoBot.public_key);
      expect(r.body.verify_key).toMatch(/^[0-9a-f]{64}$/);
      expect(r.body.bot.id).toBe(w.applications.EchoBot.bot_user_id);
      expect(r.body.owner.id).toBe(w.users.alice.id);
      expect(r.body.flags & (1 << 18)).toBe(1 << 18); // MESSAGE_CONTENT approved
    }
  });

  test("GET /users/{id} answers a public profile (bot false) or 404 10003", async () => {
    const bob = await call(p, "GET", `/users/${w.users.bob.id}`, { token });
    expect(bob.status).toBe(200);
    expect(bob.body).toMatchObject({ id: w.users.bob.id, username: "bob", bot: false });
    const self = await call(p, "GET", `/users/${w.applications.EchoBot.bot_user_id}`, { token });
    expect(self.body.bot).toBe(false);
    for (const id of ["12345678901234567", "abc", "1"]) {
      const r = await call(p, "GET", `/users/${id}`, { token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 10003, message: expect.any(String) });
    }
  });

  test("GET /users/@me/guilds lists the bot's guilds with step-A permissions", async () => {
    const r = await call(p, "GET", "/users/@me/guilds", { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: w.guilds.Lab.id, name: "Lab", icon: null, banner: null, owner: false, permissions: String(2048 | 1 | 32768), features: [] },
    ]);
    const bad = await call(p, "GET", "/users/@me/guilds?limit=500", { token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(50035);
  });

  test("DELETE /users/@me/guilds/{id}: the bot leaves; a guild it is not in is 404", async () => {
    const events: string[] = [];
    p.core.bus.subscribe((e) => events.push(e.type));
    const r = await call(p, "DELETE", `/users/@me/guilds/${w.guilds.Lab.id}`, { token });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect(events).toEqual(["member.removed"]);
    expect((await call(p, "GET", "/users/@me/guilds", { token })).body).toEqual([]);
    expect(refusal(await call(p, "DELETE", `/users/@me/guilds/${w.guilds.Lab.id}`, { token }))).toEqual([404, 10003]);
  });

  test("POST /guilds and every unknown path or method answer 501 {code: 0}", async () => {
    const cases: [string, string][] = [
      ["POST", "/guilds"],
      ["GET", "/stickers/123"],
      ["POST", "/users/@me"],
      ["PUT", "/gateway"],
      ["GET", "/channels/1/threads/archived/public"],
    ];
    for (const [m, path] of cases) {
      const r = await call(p, m, path, { token, body: m === "GET" ? undefined : {} });
      expect(r.status).toBe(501);
      expect(r.body).toEqual({ code: 0, message: expect.stringContaining("Not Implemented") });
      expect(r.headers.get("content-type")).toBe("application/json");
    }
  });

  test("paths outside the APIs are a JSON 404; harness paths exist only in test mode", async () => {
    // Outside every API there is no id to be unknown: code 0, as for the harness path below.
    expect(refusal(await call(p, "GET", "/api/nothing"))).toEqual([404, 0]);
    const plain = makeParley({ harness: false });
    const r = await call(plain, "POST", "/api/harness/v1/reset");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 0, message: expect.any(String) });
  });

  test("no error body carries a stack trace", async () => {
    const r = await call(p, "POST", "/api/harness/v1/seed", { rawBody: "{bad json", headers: { "Content-Type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(50035);
    expect(r.text).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe("rate limits (virtual clock, no sleeping)", () => {
  test("a bucket allows 10 per 10 s, then answers 429 with every header and a JSON body", async () => {
    p.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    for (let i = 0; i < 10; i++) {
      const r = await call(p, "GET", "/users/@me", { token });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(9 - i));
      expect(r.headers.get("x-ratelimit-limit")).toBe("10");
      expect(r.headers.get("x-ratelimit-global")).toBeNull();
    }
    const r = await call(p, "GET", "/users/@me", { token });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: expect.any(String), retry_after: 10, global: false, code: 0 });
    expect(r.headers.get("retry-after")).toBe("10");
    expect(r.headers.get("x-ratelimit-scope")).toBe("user");
    expect(r.headers.get("via")).toBeTruthy();
    expect(r.headers.get("x-ratelimit-global")).toBeNull();
    expect(r.headers.get("x-ratelimit-reset-after")).toBe("10.000");
    expect(r.headers.get("x-ratelimit-reset")).toBe(String(Math.ceil((Date.parse("2026-03-01T00:00:00Z") + 10_000) / 1000)));
    p.clock.advance(4_000);
    const later = await call(p, "GET", "/users/@me", { token });
    expect(refusal(later)).toEqual([429, 0]);
    expect(later.body.retry_after).toBe(6);
    p.clock.advance(6_000);
    expect((await call(p, "GET", "/users/@me", { token })).status).toBe(200);
  });

  test("a bucket 429 says the same wait in X-RateLimit-Reset-After as in retry_after, even when the clock ticks while it is built", async () => {
    // detritus-client rejects a bucket 429 whose header and body differ by a millisecond.
    p.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    for (let i = 0; i < 10; i++) expect((await call(p, "GET", "/users/@me", { token })).status).toBe(200);
    const frozen = p.clock.now.bind(p.clock);
    let ticks = 0;
    p.clock.now = () => frozen() + ticks++;
    try {
      const r = await call(p, "GET", "/users/@me", { token });
      expect(r.status).toBe(429);
      expect(ticks).toBeGreaterThan(1);
      expect(Number(r.headers.get("x-ratelimit-reset-after")) * 1000).toBe(r.body.retry_after * 1000);
    } finally {
      p.clock.now = frozen;
    }
  });

  test("X-RateLimit-Reset-After is written as toFixed(3) writes it, for every wait a window can have", () => {
    for (let ms = 0; ms <= 120_000; ms++) if (seconds(ms) !== (ms / 1000).toFixed(3)) throw new Error(`${ms}: ${seconds(ms)}`);
    for (const ms of [3_600_000, 86_400_001, 1.5, 999.9996, -0]) expect(seconds(ms)).toBe((ms / 1000).toFixed(3));
  });

  test("X-RateLimit-Bucket is the first 16 bytes of SHA-256 over method and /api/v10 template", async () => {
    const r = await call(p, "GET", "/users/@me", { token });
    const expected = bytesToHex(sha256(new TextEncoder().encode("GET /api/v10/users/@me")).subarray(0, 16));
    expect(r.headers.get("x-ratelimit-bucket")).toBe(expected);
    expect(bucketHash("GET", "/users/{user_id}")).toHaveLength(32);
    const other = await call(p, "GET", `/users/${w.users.bob.id}`, { token });
    expect(other.headers.get("x-ratelimit-bucket")).toBe(bucketHash("GET", "/users/{user_id}"));
  });

  test("windows are per bot and per major parameter", async () => {
    p.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    const s = p.seed({ users: [{ name: "zed" }], applications: [{ name: "Other", owner: "zed" }] });
    for (let i = 0; i < 10; i++) await call(p, "GET", `/users/${w.users.bob.id}`, { token });
    expect(refusal(await call(p, "GET", `/users/${w.users.bob.id}`, { token }))).toEqual([429, 0]);
    // another major parameter: its own window
    expect((await call(p, "GET", `/users/${w.users.carol.id}`, { token })).status).toBe(200);
    // another bot, same parameter: its own window
    expect((await call(p, "GET", `/users/${w.users.bob.id}`, { token: s.applications.Other.token })).status).toBe(200);
  });

  test("the global window: 50 per second across all bots, then a global 429", async () => {
    p.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    const s = p.seed({
      users: Array.from({ length: 60 }, (_, i) => ({ name: `u${i}` })),
      applications: [{ name: "Other", owner: "u0" }],
    });
    const ids = Object.values(s.users).map((u) => u.id);
    for (let i = 0; i < 50; i++) {
      const t = i % 2 ? token : s.applications.Other.token;
      expect((await call(p, "GET", `/users/${ids[i]}`, { token: t })).status).toBe(200);
    }
    const r = await call(p, "GET", `/users/${ids[55]}`, { token });
    expect(refusal(r)).toEqual([429, 0]);
    expect(r.body.global).toBe(true);
    expect(r.headers.get("x-ratelimit-global")).toBe("true");
    expect(r.headers.get("x-ratelimit-scope")).toBe("global");
    expect(r.headers.get("via")).toBeTruthy();
    expect(r.headers.get("retry-after")).toBe("1");
    // unauthenticated GET /gateway is not counted nor refused
    expect((await call(p, "GET", "/gateway")).status).toBe(200);
    p.clock.advance(1000);
    expect((await call(p, "GET", `/users/${ids[55]}`, { token })).status).toBe(200);
  });

  test("limits are configurable, with the spec's values as default", async () => {
    const q = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, default: { limit: 2, windowMs: 1000 } } });
    const s = seedBasic(q);
    q.clock.set(Date.parse("2026-03-01T00:00:00Z"));
    const t = s.applications.EchoBot.token;
    expect((await call(q, "GET", "/users/@me", { token: t })).status).toBe(200);
    expect((await call(q, "GET", "/users/@me", { token: t })).status).toBe(200);
    expect(refusal(await call(q, "GET", "/users/@me", { token: t }))).toEqual([429, 0]);
    const off = makeParley({ rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } });
    const s2 = seedBasic(off);
    for (let i = 0; i < 15; i++) expect((await call(off, "GET", "/users/@me", { token: s2.applications.EchoBot.token })).status).toBe(200);
  });
});
