/**
 * A new instance's first administrator, made with the setup link `parley serve` prints
 * while nobody administers it (core/setup-link.ts): a new account that administers the
 * server, or the signed-in person made one; once, whoever tries at the same moment; the
 * link dies the moment anyone administers the instance, however made; bad input stores
 * nothing and leaves the link working.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { client, makeUnlimitedParley } from "../helpers";
import type { Parley } from "../../src/app";
import { OPERATOR } from "../../src/core";

let p: Parley;
let token: string;

beforeEach(() => {
  p = makeUnlimitedParley();
  token = p.core.setup.token()!;
});

const create = (body: Record<string, unknown>) =>
  client(p, "POST", "/auth/setup", null, { token, username: "ana", password: "a long password for ana", ...body });
const check = (t = token) => client(p, "POST", "/auth/setup/check", null, { token: t });
const admins = () => p.core.accounts.list(OPERATOR).flatMap((a) => (a.user.is_admin ? [a.user] : []));

describe("the setup link", () => {
  test("is made once and kept: every start (and every node) prints the same link until it is used", () => {
    expect(token).toMatch(/^setup_[\w-]{40,}$/);
    expect(p.core.setup.token()).toBe(token);
  });

  test("creates an administrator's account and signs it in; then it no longer works", async () => {
    expect((await client(p, "GET", "/instance", null)).body.administered).toBe(false);
    expect((await check()).status).toBe(204);
    const r = await create({ global_name: "Ana" });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ username: "ana", global_name: "Ana", admin: true });
    const me = await client(p, "GET", "/users/@me", r.body.token);
    expect(me.body.admin).toBe(true);
    expect((await client(p, "GET", "/admin/overview", r.body.token)).status).toBe(200);

    for (const again of [await check(), await create({ username: "mallory" })]) {
      expect(again.status).toBe(404);
      expect(again.body.message).toContain("already has an administrator");
    }
    expect(admins().map((a) => a.username)).toEqual(["ana"]);
    expect(p.core.setup.token()).toBeNull();
    expect((await client(p, "GET", "/instance", null)).body.administered).toBe(true);
  });

  test("makes the signed-in person the administrator", async () => {
    const bob = await client(p, "POST", "/auth/signup", null, { username: "bob", password: "a long password for bob" });
    expect(bob.body.user.admin).toBe(false);
    const r = await client(p, "POST", "/users/@me/setup", bob.body.token, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ username: "bob", admin: true });
    expect((await client(p, "POST", "/users/@me/setup", bob.body.token, { token })).status).toBe(404);
    expect((await check()).status).toBe(404);
  });

  test("works on a server closed to sign-ups: it is how such a server gets its first person", async () => {
    p.core.instance.update(OPERATOR, { registration: "closed" });
    expect((await client(p, "POST", "/auth/signup", null, { username: "eve", password: "a long password for eve" })).status).toBe(403);
    expect((await create({})).status).toBe(200);
  });

  test("dies the moment anyone administers the instance, however made", async () => {
    p.core.accounts.setAdmin(OPERATOR, p.core.users.createPerson({ username: "root", password: "a long password for root" }).id, true);
    expect((await check()).status).toBe(404);
    expect((await create({})).status).toBe(404);
    expect(p.core.setup.token()).toBeNull();
    expect(admins().map((a) => a.username)).toEqual(["root"]);
  });

  test("a wrong link is refused with the same answer, and changes nothing", async () => {
    for (const r of [await check(`${token}x`), await check("setup_"), await create({ token: "nope" })]) {
      expect(r.status).toBe(404);
      expect(typeof r.body.code).toBe("number");
      expect(r.body.message).toContain("not this server's");
    }
    expect(admins()).toEqual([]);
    expect((await check()).status).toBe(204);
  });

  test("bad input answers 400 naming its field, stores nothing, and leaves the link working", async () => {
    const weak = await create({ password: "password" });
    expect(weak.status).toBe(400);
    expect(JSON.stringify(weak.body.errors)).toContain("password");
    const badName = await create({ username: "a b/c" });
    expect(badName.status).toBe(400);
    expect((await client(p, "POST", "/auth/setup", null, { token })).status).toBe(400);
    expect((await client(p, "POST", "/auth/setup", null, "not json")).status).toBe(400);
    expect(p.core.accounts.list(OPERATOR)).toEqual([]);
    expect((await check()).status).toBe(204);
  });

  test("two people using it at once: one administrator, and the other is told the link no longer works", async () => {
    const [a, b] = await Promise.all([create({ username: "ana" }), create({ username: "ben" })]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    expect(admins()).toHaveLength(1);
  });
});
