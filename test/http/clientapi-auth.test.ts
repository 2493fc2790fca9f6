import { describe, expect, test, beforeEach } from "bun:test";
import { client, makeParley, rowCounts, seedBasic, refusal } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";
import { sha256Hex } from "../../src/core/crypto";

let p: Parley;
let w: SeedAnswer;

beforeEach(() => {
  p = makeParley();
  w = seedBasic(p);
});

describe("people's API: sign up, sign in, sign out", () => {
  test("sign up answers a session token and the person; the token works at once", async () => {
    const r = await client(p, "POST", "/auth/signup", null, { username: "Dave", password: "correct horse", global_name: "Dave D" });
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^ps_/);
    expect(r.body.user).toMatchObject({ username: "dave", global_name: "Dave D", bot: false, admin: false });
    const me = await client(p, "GET", "/users/@me", r.body.token);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(r.body.user.id);
  });

  test("sessions are stored only as digests", async () => {
    const r = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" });
    const rows = p.store.db.query("SELECT token_hash FROM person_sessions").all() as { token_hash: string }[];
    expect(rows.some((x) => x.token_hash === r.body.token)).toBe(false);
    expect(rows.some((x) => x.token_hash === sha256Hex(r.body.token))).toBe(true);
  });

  test("bad sign-ups are 400 50035 naming the field and create nothing", async () => {
    const before = rowCounts(p, ["users", "person_sessions"]);
    const cases: [unknown, string][] = [
      [{ username: "dave", password: "short" }, "password"],
      [{ username: "d", password: "long enough" }, "username"],
      [{ username: "has space", password: "long enough" }, "username"],
      [{ password: "long enough" }, "username"],
      [{ username: "dave", password: "long enough", admin: true }, "admin"],
    ];
    for (const [body, field] of cases) {
      const r = await client(p, "POST", "/auth/signup", null, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(50035);
      expect(r.body.message).toContain(field);
    }
    const taken = await client(p, "POST", "/auth/signup", null, { username: "ALICE", password: "long enough" });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe(50035);
    expect(rowCounts(p, ["users", "person_sessions"])).toEqual(before);
  });

  test("sign in with the right password; a wrong one, an unknown name and a bot are all 401", async () => {
    await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" });
    const ok = await client(p, "POST", "/auth/signin", null, { username: "dave", password: "correct horse" });
    expect(ok.status).toBe(200);
    expect(ok.body.user.username).toBe("dave");
    for (const body of [
      { username: "dave", password: "wrong horse!" },
      { username: "nobody", password: "correct horse" },
      { username: "EchoBot", password: "correct horse" },
      // seeded people without a password cannot sign in either
      { username: "alice", password: "" },
    ]) {
      const r = await client(p, "POST", "/auth/signin", null, body);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 0, message: expect.any(String) });
    }
  });

  test("sign out ends that session only", async () => {
    const a = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" });
    const b = await client(p, "POST", "/auth/signin", null, { username: "dave", password: "correct horse" });
    expect((await client(p, "POST", "/auth/signout", a.body.token)).status).toBe(204);
    expect(refusal(await client(p, "GET", "/users/@me", a.body.token))).toEqual([401, 0]);
    expect((await client(p, "GET", "/users/@me", b.body.token)).status).toBe(200);
  });

  test("missing or wrong session, or a bot token, is 401 code 0", async () => {
    for (const t of [null, "ps_nonsense"]) {
      const r = await client(p, "GET", "/users/@me", t);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(0);
    }
    const bot = await client(p, "GET", "/users/@me", w.applications.EchoBot.token);
    expect(refusal(bot)).toEqual([401, 0]);
  });

  test("me shows the seeded administrator flag", async () => {
    const r = await client(p, "GET", "/users/@me", w.users.alice.token);
    expect(r.body).toMatchObject({ username: "alice", admin: true, bot: false });
  });

  test("unknown routes under the people's API are 404 with the error body", async () => {
    const r = await client(p, "GET", "/nothing/here", w.users.alice.token);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 0, message: expect.any(String) });
  });
});
