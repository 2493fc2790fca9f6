/**
 * The people's API's sign up, sign in and sign out, as a scenario table (test/scenarios.ts):
 * every row a fresh BASIC_WORLD, one request, its status and code, what the answer says.
 */
import { expect } from "bun:test";
import { client, refusal, rowCounts } from "../helpers";
import { scenarios, type Scenario } from "../scenarios";
import { sha256Hex } from "../../src/core/crypto";

const SIGNUP = "/api/client/v1/auth/signup";
const SIGNIN = "/api/client/v1/auth/signin";
const ME = "/api/client/v1/users/@me";

/** setup/after pair: the request writes no row to these tables. */
function writesNothing(tables: string[]): Pick<Scenario, "setup" | "after"> {
  let before: Record<string, number>;
  return {
    setup: ({ p }) => void (before = rowCounts(p, tables)),
    after: ({ p }) => expect(rowCounts(p, tables)).toEqual(before),
  };
}

/** The error body is exactly {code, message}: nothing else, no detail for a guesser. */
const bareError: Scenario["after"] = ({ res }) => expect(res.body).toEqual({ code: 0, message: expect.any(String) });

/** A bad sign-up: 400 50035, the message names the field, nothing created. */
const badSignup = (name: string, body: unknown, field: string | null): Scenario => ({
  name,
  actor: "anon",
  method: "POST",
  path: SIGNUP,
  body,
  status: 400,
  code: 50035,
  contains: field ? [`Invalid Form Body (${field}:`] : [],
  events: { "*": 0 },
  ...writesNothing(["users", "person_sessions"]),
});

/** A refused sign-in of a known person "dave" (signed up by the row's setup): 401, the bare error. */
const refusedSignin = (name: string, body: unknown): Scenario => ({
  name,
  actor: "anon",
  method: "POST",
  path: SIGNIN,
  body,
  status: 401,
  code: 0,
  setup: async ({ p }) => void (await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" })),
  after: bareError,
});

scenarios("people's API: sign up", [
  {
    name: "sign up answers a session token and the person; the token works at once",
    actor: "anon",
    method: "POST",
    path: SIGNUP,
    body: { username: "Dave", password: "correct horse", global_name: "Dave D" },
    status: 200,
    after: async ({ p, res }) => {
      expect(res.body.token).toMatch(/^ps_/);
      expect(res.body.user).toMatchObject({ username: "dave", global_name: "Dave D", bot: false, admin: false });
      const me = await client(p, "GET", "/users/@me", res.body.token);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(res.body.user.id);
    },
  },
  {
    name: "sessions are stored only as digests",
    actor: "anon",
    method: "POST",
    path: SIGNUP,
    body: { username: "dave", password: "correct horse" },
    status: 200,
    after: ({ p, res }) => {
      const rows = p.store.db.query("SELECT token_hash FROM person_sessions").all() as { token_hash: string }[];
      expect(rows.some((x) => x.token_hash === res.body.token)).toBe(false);
      expect(rows.some((x) => x.token_hash === sha256Hex(res.body.token))).toBe(true);
    },
  },
  badSignup("a short password is 400 naming password, creating nothing", { username: "dave", password: "short" }, "password"),
  badSignup("a one-letter username is 400 naming username, creating nothing", { username: "d", password: "long enough" }, "username"),
  badSignup(
    "a username with a space is 400 naming username, creating nothing",
    { username: "has space", password: "long enough" },
    "username",
  ),
  badSignup("a missing username is 400 naming username, creating nothing", { password: "long enough" }, "username"),
  badSignup("an admin flag is 400 naming admin, creating nothing", { username: "dave", password: "long enough", admin: true }, "admin"),
  badSignup("a taken name (in any case) is 400, creating nothing", { username: "ALICE", password: "long enough" }, null),
]);

scenarios("people's API: sign in", [
  {
    name: "sign in with the right password",
    actor: "anon",
    method: "POST",
    path: SIGNIN,
    body: { username: "dave", password: "correct horse" },
    status: 200,
    setup: async ({ p }) => void (await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" })),
    after: ({ res }) => expect(res.body.user.username).toBe("dave"),
  },
  refusedSignin("a wrong password is 401", { username: "dave", password: "wrong horse!" }),
  refusedSignin("an unknown name is 401", { username: "nobody", password: "correct horse" }),
  refusedSignin("a bot's name is 401", { username: "EchoBot", password: "correct horse" }),
  // seeded people without a password cannot sign in either
  refusedSignin("a seeded person without a password is 401", { username: "alice", password: "" }),
]);

scenarios("people's API: sessions", [
  {
    name: "sign out ends that session only",
    actor: "anon",
    method: "POST",
    path: "/api/client/v1/auth/signout",
    headers: { Authorization: "Session {a}" },
    status: 204,
    setup: async ({ p }) => {
      const a = await client(p, "POST", "/auth/signup", null, { username: "dave", password: "correct horse" });
      const b = await client(p, "POST", "/auth/signin", null, { username: "dave", password: "correct horse" });
      return { a: a.body.token, b: b.body.token };
    },
    after: async ({ p, fill }) => {
      expect(refusal(await client(p, "GET", "/users/@me", fill("{a}")))).toEqual([401, 0]);
      expect((await client(p, "GET", "/users/@me", fill("{b}"))).status).toBe(200);
    },
  },
  { name: "a missing session is 401 code 0", actor: "anon", method: "GET", path: ME, status: 401, code: 0 },
  {
    name: "a wrong session is 401 code 0",
    actor: "anon",
    method: "GET",
    path: ME,
    headers: { Authorization: "Session ps_nonsense" },
    status: 401,
    code: 0,
  },
  {
    name: "a bot token as a session is 401 code 0",
    actor: "anon",
    method: "GET",
    path: ME,
    headers: { Authorization: "Session {token:EchoBot}" },
    status: 401,
    code: 0,
  },
  {
    name: "me shows the seeded administrator flag",
    actor: "alice",
    method: "GET",
    path: "/users/@me",
    status: 200,
    after: ({ res }) => expect(res.body).toMatchObject({ username: "alice", admin: true, bot: false }),
  },
  {
    name: "unknown routes under the people's API are 404 with the error body",
    actor: "alice",
    method: "GET",
    path: "/nothing/here",
    status: 404,
    code: 0,
    after: bareError,
  },
]);
