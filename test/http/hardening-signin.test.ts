/**
 * Passwords and sign-in (docs/security.md): hashing off the event loop, old scrypt hashes
 * still verifying (and replaced), weak passwords refused with the reason, sign-in
 * throttled per name and per address with growing delays, sign-ups per address, and each
 * person's writes per window. Throttles run on the shared clock, moved here virtually.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, harness, makeParley, ORIGIN, peopleWorld, refusal, rowCounts } from "../helpers";
import type { Parley } from "../../src/app";
import { OWASP_ARGON2, Passwords, verifyPassword } from "../../src/core/crypto";
import { loadConfig } from "../../src/config";
import { TEST_PASSWORD_COST } from "../../src/config/passwords";
import { rememberAddress } from "../../src/wire/throttle";
import { SIGN_IN_PER_ADDRESS, SIGN_IN_PER_NAME, SIGN_UP_PER_ADDRESS, WRITES_PER_PERSON } from "../../src/clientapi/limits";
import { createDemoWorld } from "../../src/cli/demo";

const STRONG = "violet tractor moonbeam";
/**
 * STRONG as the old scheme stored it, made apart from Parley's verifier, with
 * @noble/hashes: scrypt(STRONG, 16 bytes of 0x07, { N: 2^14, r: 8, p: 1, dkLen: 32 }).
 * Written out: making it takes a quarter second of JavaScript every run.
 */
const OLD_SCRYPT_HASH =
  "scrypt$16384$8$1$07070707070707070707070707070707$befc67b01b3a10bf900ae88ab047530ab08ac0b7dcf55507da7d2367750eaaad";
let p: Parley;

beforeEach(() => {
  p = makeParley();
  p.clock.advance(0); // virtual time: the throttles' delays pass only when moved
});

const signIn = (username: string, password: string, address?: string) => {
  const req = new Request(`${ORIGIN}/api/client/v1/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  rememberAddress(req, address);
  return p.handle(req).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as any }));
};

describe("password hashing", () => {
  // A server's cost is the OWASP baseline; the in-process test apps (testConfig) hash far
  // cheaper, so these run one at the server's own (config/passwords.ts).
  const SERVER_COST = loadConfig({ data: ":memory:", quiet: true }, {}).passwordCost;
  const storedHash = (q: Parley, username: string) =>
    (q.store.db.query("SELECT password_hash FROM users WHERE username = ?").get(username) as { password_hash: string }).password_hash;

  test("a server hashes at the OWASP baseline (m = 19 MiB, t = 2), and a sign-in does not hold the event loop meanwhile", async () => {
    expect(SERVER_COST).toEqual(OWASP_ARGON2);
    p = makeParley({ passwordCost: SERVER_COST });
    p.clock.advance(0);
    await client(p, "POST", "/auth/signup", null, { username: "dave", password: STRONG });
    expect(storedHash(p, "dave")).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
    const order: string[] = [];
    const pending = signIn("dave", STRONG).then((r) => order.push(`signin ${r.status}`));
    setTimeout(() => order.push("timer"), 0);
    await pending;
    expect(order).toEqual(["timer", "signin 200"]);
  });

  test("new hashes are Argon2id in the PHC format (Bun's own verifier agrees); a wrong password fails", async () => {
    const h = await new Passwords().hash(STRONG);
    expect(h).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
    expect(await Bun.password.verify(STRONG, h)).toBe(true);
    expect(await verifyPassword(STRONG, h)).toBe(true);
    expect(await verifyPassword("violet tractor moonbeam!", h)).toBe(false);
    expect(await verifyPassword(STRONG, "$argon2id$v=19$m=99999999,t=2,p=1$AAAA$AAAA")).toBe(false);
    expect(await verifyPassword(STRONG, "garbage")).toBe(false);
  });

  test("a test app hashes at its own cost; on a server, such a hash signs in and is replaced by one at the server's", async () => {
    await client(p, "POST", "/auth/signup", null, { username: "dave", password: STRONG });
    const cheap = storedHash(p, "dave");
    expect(cheap).toStartWith(`$argon2id$v=19$m=${TEST_PASSWORD_COST.memory},t=${TEST_PASSWORD_COST.passes},p=1$`);
    const server = makeParley({ passwordCost: SERVER_COST });
    server.clock.advance(0);
    server.core.users.createPerson({ username: "dave", passwordHash: cheap });
    p = server; // signIn() asks p
    expect((await signIn("dave", "wrong password here")).status).toBe(401);
    expect((await signIn("dave", STRONG)).status).toBe(200);
    expect(storedHash(server, "dave")).toStartWith("$argon2id$v=19$m=19456,t=2,p=1$");
    expect((await signIn("dave", STRONG)).status).toBe(200);
  });

  test("a stored scrypt hash (the old scheme) still signs in, and is replaced by an Argon2id one", async () => {
    const u = p.core.users.createPerson({ username: "olduser", passwordHash: OLD_SCRYPT_HASH });
    expect((await signIn("olduser", "wrong password here")).status).toBe(401);
    const r = await signIn("olduser", STRONG);
    expect(r.status).toBe(200);
    const now = (p.store.db.query("SELECT password_hash FROM users WHERE id = ?").get(u.id) as { password_hash: string }).password_hash;
    expect(now).toStartWith("$argon2id$");
    expect((await signIn("olduser", STRONG)).status).toBe(200);
  });
});

describe("weak passwords", () => {
  for (const [what, password] of [
    ["password", "password"],
    ["12345678", "12345678"],
    ["eight spaces", "        "],
    ["the username", "dave_the_great"],
    ["the username in capitals", "DAVE_THE_GREAT"],
  ]) {
    test(`sign-up with ${what} is 400 50035 naming password, with the reason, creating nothing`, async () => {
      const before = rowCounts(p, ["users", "person_sessions"]);
      const r = await client(p, "POST", "/auth/signup", null, { username: "dave_the_great", password });
      expect(refusal(r)).toEqual([400, 50035]);
      expect(r.body.errors.password._errors[0].code).toBe("PASSWORD_TOO_WEAK");
      expect(r.body.errors.password._errors[0].message.length).toBeGreaterThan(10);
      expect(rowCounts(p, ["users", "person_sessions"])).toEqual(before);
    });
  }

  test("the reason says why: a common password is called common", async () => {
    const r = await client(p, "POST", "/auth/signup", null, { username: "erin", password: "password" });
    expect(r.body.message).toContain("password:");
    expect(r.body.errors.password._errors[0].message).toMatch(/heavily used/i);
  });

  test("the world document (over HTTP and in-process) refuses weak passwords too; people seeded without one have none", async () => {
    const seeded = await harness(p, "POST", "/seed", { users: [{ name: "frank", password: "12345678" }] });
    expect(refusal(seeded)).toEqual([400, 50035]);
    expect(seeded.body.errors.users["0"].password._errors[0].code).toBe("PASSWORD_TOO_WEAK");
    expect(() => p.seed({ users: [{ name: "frank", password: "qwertyuiop" }] })).toThrow(/password/);
    const ok = await harness(p, "POST", "/seed", { users: [{ name: "frank", password: STRONG }, { name: "gina" }] });
    expect(ok.status).toBe(200);
    expect((await signIn("frank", STRONG)).status).toBe(200);
    expect(p.store.db.query("SELECT password_hash FROM users WHERE username = 'gina'").get()).toEqual({ password_hash: null });
  });

  test("the demo world's password passes and signs in", async () => {
    const lines = createDemoWorld(p)(p.api.urls);
    const password = /password (\S+),/.exec(lines.join("\n"))![1];
    expect((await signIn("demo", password)).status).toBe(200);
  });
});

describe("sign-in throttling", () => {
  beforeEach(async () => {
    await client(p, "POST", "/auth/signup", null, { username: "dave", password: STRONG });
  });

  test(`after ${SIGN_IN_PER_NAME.free + 1} wrong passwords a name is locked with the spec's 429, with growing delays; success clears it`, async () => {
    for (let i = 0; i <= SIGN_IN_PER_NAME.free; i++) expect((await signIn("dave", "wrong guess number")).status).toBe(401);
    const locked = await signIn("dave", STRONG); // even the right password waits
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ code: 0, message: "You are being rate limited.", retry_after: 1, global: false });
    expect(locked.headers.get("retry-after")).toBe("1");
    expect(locked.headers.get("via")).toBe("1.1 parley");
    expect(locked.headers.get("x-ratelimit-scope")).toBe("user");
    expect(locked.headers.get("x-ratelimit-global")).toBeNull();
    p.clock.advance(1000);
    expect((await signIn("Dave", "wrong guess again")).status).toBe(401);
    expect((await signIn("dave", STRONG)).body.retry_after).toBe(2); // the next delay doubles
    p.clock.advance(2000);
    expect((await signIn("dave", STRONG)).status).toBe(200);
    expect((await signIn("dave", "wrong after success")).status).toBe(401); // the record started over
  });

  test("concurrent guesses count when they start: of 40 at once, only the free ones are checked", async () => {
    const all = await Promise.all(Array.from({ length: 40 }, () => signIn("dave", "concurrent wrong guess")));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_PER_NAME.free + 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SIGN_IN_PER_NAME.free - 1);
  });

  test("one address trying many names is locked; another address is not", async () => {
    for (let i = 0; i <= SIGN_IN_PER_ADDRESS.free; i++) expect((await signIn(`nobody${i}`, "some password", "10.0.0.1")).status).toBe(401);
    const locked = await signIn("dave", STRONG, "10.0.0.1");
    expect(refusal(locked as never)).toEqual([429, 0]);
    expect((await signIn("dave", STRONG, "10.0.0.2")).status).toBe(200);
  });

  test(`sign-ups from one address: ${SIGN_UP_PER_ADDRESS.free + 1} pass (dave's included), then 429`, async () => {
    for (let i = 0; i < SIGN_UP_PER_ADDRESS.free; i++)
      expect((await client(p, "POST", "/auth/signup", null, { username: `user${i}`, password: STRONG })).status).toBe(200);
    const r = await client(p, "POST", "/auth/signup", null, { username: "onemore", password: STRONG });
    expect(refusal(r)).toEqual([429, 0]);
    expect(r.body.retry_after).toBe(SIGN_UP_PER_ADDRESS.baseMs / 1000);
  });
});

describe("people's writes", () => {
  test(`a person's writes past ${WRITES_PER_PERSON.limit} per window are 429 with the spec's body; reads and other people are not limited`, async () => {
    const { p: q, alice, bob, general } = peopleWorld();
    q.clock.advance(0);
    let created = 0;
    let refused: any = null;
    for (let i = 0; i < WRITES_PER_PERSON.limit + 5; i++) {
      const r = await client(q, "POST", `/channels/${general}/messages`, alice, { content: `m${i}` });
      if (r.status === 200) created++;
      else refused ??= r;
    }
    expect(created).toBe(WRITES_PER_PERSON.limit);
    expect(refusal(refused)).toEqual([429, 0]);
    expect(refused.body.global).toBe(false);
    expect(refused.body.retry_after).toBeGreaterThan(0);
    expect((await client(q, "GET", `/channels/${general}/messages`, alice)).status).toBe(200);
    expect((await client(q, "POST", `/channels/${general}/messages`, bob, { content: "mine" })).status).toBe(200);
    q.clock.advance(WRITES_PER_PERSON.windowMs);
    expect((await client(q, "POST", `/channels/${general}/messages`, alice, { content: "later" })).status).toBe(200);
  });

  test("a harness reset starts every people's window over", async () => {
    const { p: q, alice, general } = peopleWorld();
    q.clock.advance(0);
    for (let i = 0; i < WRITES_PER_PERSON.limit; i++) await client(q, "POST", `/channels/${general}/messages`, alice, { content: `m${i}` });
    expect((await client(q, "POST", `/channels/${general}/messages`, alice, { content: "over" })).status).toBe(429);
    q.reset();
    expect(q.core.users.count()).toBe(0);
    const r = await call(q, "POST", "/api/harness/v1/seed", { body: { users: [{ name: "alice" }] } });
    expect(r.status).toBe(200);
  });
});
