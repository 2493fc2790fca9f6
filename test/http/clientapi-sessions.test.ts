/**
 * People's sessions end (docs/security.md, Finding 6): after a while unused (idle) and
 * after a while however used (absolute), on the one clock; and when the person ends
 * them: the session list with revoke, sign out everywhere, and a password change, which
 * needs the current password and ends every other session.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import type { Config } from "../../src/config";
import { call, harness, makeUnlimitedParley } from "../helpers";

const PASSWORD = "correct horse battery";
const DAY = 86_400_000;
const CHROMIUM = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

let p: Parley;

/** alice and bob, with passwords, and none of the sessions the seed opens for them: each test signs in. */
async function world(config: Partial<Config> = {}) {
  p = makeUnlimitedParley(config);
  const w = p.seed({
    users: [
      { name: "alice", password: PASSWORD },
      { name: "bob", password: PASSWORD },
    ],
  });
  for (const u of Object.values(w.users)) expect((await as(u.token, "POST", "/auth/signout")).status).toBe(204);
  p.clock.advance(0);
}

afterEach(async () => {
  await p?.stop();
});

/** A people's API request with a session token and, optionally, the browser's User-Agent. */
function as(token: string | null, method: string, path: string, body?: unknown, ua?: string) {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Session ${token}`;
  if (ua) headers["User-Agent"] = ua;
  return call(p, method, `/api/client/v1${path}`, { headers, body });
}

async function signIn(username: string, ua?: string, password = PASSWORD): Promise<string> {
  const r = await as(null, "POST", "/auth/signin", { username, password }, ua);
  expect(r.status).toBe(200);
  return r.body.token;
}

const me = (token: string) => as(token, "GET", "/users/@me");

async function expectEnded(token: string): Promise<void> {
  const r = await me(token);
  expect([r.status, r.body.code]).toEqual([401, 0]);
}

describe("expiry", () => {
  test("a session unused for 30 days ends; one used within 30 days goes on", async () => {
    await world();
    const idle = await signIn("alice");
    const used = await signIn("alice");
    p.clock.advance(29 * DAY);
    expect((await me(used)).status).toBe(200);
    p.clock.advance(2 * DAY);
    expect((await me(used)).status).toBe(200);
    await expectEnded(idle);
  });

  test("a session ends 365 days after sign-in however much it is used", async () => {
    await world();
    const token = await signIn("alice");
    for (let day = 20; day < 365; day += 20) {
      p.clock.advance(20 * DAY);
      expect((await me(token)).status).toBe(200);
    }
    p.clock.advance(6 * DAY);
    await expectEnded(token);
  });

  test("the harness clock moving 400 days ends a session", async () => {
    await world();
    const token = await signIn("alice");
    expect((await harness(p, "POST", "/clock", { advance_ms: 400 * DAY })).status).toBe(200);
    await expectEnded(token);
    expect((await as(token, "GET", "/users/@me/sessions")).status).toBe(401);
  });

  test("the limits come from the config", async () => {
    await world({ sessions: { idleMs: 60_000, absoluteMs: 10 * 60_000 } });
    const idle = await signIn("alice");
    const used = await signIn("alice");
    for (let minute = 1; minute < 10; minute++) {
      p.clock.advance(50_000);
      expect((await me(used)).status).toBe(200);
    }
    await expectEnded(idle);
    p.clock.advance(60_000);
    await expectEnded(used);
  });
});

describe("the session list", () => {
  test("lists each session with its device label, when it was last used and which one is this", async () => {
    await world();
    const chromium = await signIn("alice", CHROMIUM);
    p.clock.advance(60_000);
    const firefox = await signIn("alice", FIREFOX);
    await signIn("bob", FIREFOX);
    const list = await as(chromium, "GET", "/users/@me/sessions");
    expect(list.status).toBe(200);
    expect(list.body.map((s: any) => [s.label, s.current])).toEqual([
      ["Firefox on Windows", false],
      ["Chromium on Linux", true],
    ]);
    expect(Object.keys(list.body[0]).sort()).toEqual(["created_at", "current", "expires_at", "id", "label", "last_used_at"]);
    expect(Date.parse(list.body[0].last_used_at)).toBeGreaterThan(Date.parse(list.body[1].created_at));
    expect((await as(firefox, "GET", "/users/@me/sessions")).body.find((s: any) => s.current).label).toBe("Firefox on Windows");
  });

  test("revoking a session ends it and no other; another person's session is unknown", async () => {
    await world();
    const here = await signIn("alice", CHROMIUM);
    const there = await signIn("alice", FIREFOX);
    const bob = await signIn("bob");
    const [bobs] = (await as(bob, "GET", "/users/@me/sessions")).body;
    const notMine = await as(here, "DELETE", `/users/@me/sessions/${bobs.id}`);
    expect([notMine.status, notMine.body.code]).toEqual([404, 10003]);
    expect((await me(bob)).status).toBe(200);
    const other = (await as(here, "GET", "/users/@me/sessions")).body.find((s: any) => !s.current);
    expect((await as(here, "DELETE", `/users/@me/sessions/${other.id}`)).status).toBe(204);
    await expectEnded(there);
    expect((await me(here)).status).toBe(200);
    expect((await as(here, "GET", "/users/@me/sessions")).body).toHaveLength(1);
  });

  test("sign out everywhere ends every session of the person, this one included, and nobody else's", async () => {
    await world();
    const here = await signIn("alice");
    const there = await signIn("alice");
    const bob = await signIn("bob");
    expect((await as(here, "DELETE", "/users/@me/sessions")).status).toBe(204);
    await expectEnded(here);
    await expectEnded(there);
    expect((await me(bob)).status).toBe(200);
  });
});

describe("password change", () => {
  test("needs the current password; ends every other session and keeps this one", async () => {
    await world();
    const here = await signIn("alice");
    const there = await signIn("alice");
    const wrong = await as(here, "POST", "/users/@me/password", {
      current_password: "not the password",
      new_password: "a brand new secret phrase",
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 50035]);
    expect(wrong.body.errors.current_password._errors[0].code).toBe("PASSWORD_DOES_NOT_MATCH");
    const weak = await as(here, "POST", "/users/@me/password", { current_password: PASSWORD, new_password: "password" });
    expect([weak.status, weak.body.code]).toEqual([400, 50035]);
    expect(weak.body.errors.new_password._errors[0].code).toBe("PASSWORD_TOO_WEAK");
    expect((await me(there)).status).toBe(200);

    const changed = await as(here, "POST", "/users/@me/password", {
      current_password: PASSWORD,
      new_password: "a brand new secret phrase",
    });
    expect(changed.status).toBe(204);
    expect((await me(here)).status).toBe(200);
    await expectEnded(there);
    const old = await as(null, "POST", "/auth/signin", { username: "alice", password: PASSWORD });
    expect(old.status).toBe(401);
    await signIn("alice", undefined, "a brand new secret phrase");
  });
});
