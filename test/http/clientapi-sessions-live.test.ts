/**
 * Every live connection of a person's session closes (4001) when the session ends
 * (docs/security.md, Finding 6): sign-out, revoke, sign out everywhere, a password
 * change (the other sessions), expiry, a removed device, and, from the operator's
 * command in another process, a password reset, a disabled or a deleted account. The
 * close frame's reason says which, so a client can tell the person why. The other
 * sessions' connections stay.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParley, type Parley } from "../../src/app";
import { testConfig, type Config } from "../../src/config";
import { main } from "../../src/cli";
import { client, internalId, makeParley } from "../helpers";
import { LiveConn } from "./live-client";

const PASSWORD = "correct horse battery";
let p: Parley;
let dir: string | null = null;
const open: LiveConn[] = [];

/** A listening server with alice and bob, in memory or on a file another connection can write to. */
function start(opts: { onFile?: boolean; config?: Partial<Config> } = {}) {
  if (opts.onFile) {
    dir = mkdtempSync(join(tmpdir(), "parley-sessions-"));
    p = createParley(testConfig({ data: dir, dbPath: join(dir, "parley.db"), ...opts.config }));
  } else p = makeParley(opts.config);
  const w = p.seed({
    users: [
      { name: "alice", password: PASSWORD },
      { name: "bob", password: PASSWORD },
    ],
    guilds: [{ name: "Lab", owner: "alice", members: ["bob"] }],
  });
  p.listen();
  return w;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await p.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function signIn(username: string, password = PASSWORD): Promise<string> {
  const r = await client(p, "POST", "/auth/signin", null, { username, password });
  expect(r.status).toBe(200);
  return r.body.token;
}

async function live(token: string): Promise<LiveConn> {
  const { c } = await LiveConn.hello(p, token);
  open.push(c);
  return c;
}

/** The operator's command on its own connection to the server's database file (a request after it comes a turn later). */
async function cli(...argv: string[]): Promise<void> {
  const code = await main(
    [...argv, "--data", dir!],
    {},
    () => {},
    () => {},
  );
  expect(code).toBe(0);
  await new Promise((r) => setImmediate(r));
}

/** Closed as an ended session is, the reason naming why it ended. */
async function closedAsEnded(c: LiveConn, why: string): Promise<void> {
  expect(await c.closed).toEqual({ code: 4001, reason: why });
}

async function stillOpen(c: LiveConn): Promise<void> {
  await c.sync();
  expect(c.isClosed).toBe(false);
}

describe("the person ends a session", () => {
  test("sign-out closes that session's connections and no other's", async () => {
    start();
    const here = await signIn("alice");
    const there = await signIn("alice");
    const a = await live(here);
    const a2 = await live(here);
    const b = await live(there);
    expect((await client(p, "POST", "/auth/signout", here)).status).toBe(204);
    await closedAsEnded(a, "signed_out");
    await closedAsEnded(a2, "signed_out");
    await stillOpen(b);
  });

  test("revoking a session closes its connections", async () => {
    start();
    const here = await signIn("alice");
    const there = await signIn("alice");
    const b = await live(there);
    const other = (await client(p, "GET", "/users/@me/sessions", here)).body.find((s: any) => !s.current);
    expect((await client(p, "DELETE", `/users/@me/sessions/${other.id}`, here)).status).toBe(204);
    await closedAsEnded(b, "revoked");
  });

  test("sign out everywhere closes every connection of the person, and nobody else's", async () => {
    start();
    const a = await live(await signIn("alice"));
    const here = await signIn("alice");
    const a2 = await live(here);
    const bob = await live(await signIn("bob"));
    expect((await client(p, "DELETE", "/users/@me/sessions", here)).status).toBe(204);
    await closedAsEnded(a, "signed_out_everywhere");
    await closedAsEnded(a2, "signed_out_everywhere");
    await stillOpen(bob);
  });

  test("a password change closes the other sessions' connections and keeps this one's", async () => {
    start();
    const here = await signIn("alice");
    const mine = await live(here);
    const theirs = await live(await signIn("alice"));
    const r = await client(p, "POST", "/users/@me/password", here, {
      current_password: PASSWORD,
      new_password: "a brand new secret phrase",
    });
    expect(r.status).toBe(204);
    await closedAsEnded(theirs, "password_changed");
    await stillOpen(mine);
  });

  test("removing a device signs its browser out: it hears of the removal, then its connections close saying why; the remover's stay", async () => {
    start();
    const laptop = await signIn("alice");
    const phone = await signIn("alice");
    const mine = await live(laptop);
    const theirs = await live(phone);
    const keys = { x25519: Buffer.alloc(32, 7).toString("base64url") };
    const device = await client(p, "POST", "/users/@me/devices", phone, { name: "Phone", keys });
    expect(device.status).toBe(200);
    expect((await client(p, "DELETE", `/users/@me/devices/${device.body.id}`, laptop)).status).toBe(204);
    await closedAsEnded(theirs, "device_removed");
    // The removal came first: its event is the last frame before the close.
    expect(theirs.frames.at(-1)).toMatchObject({ op: "event", type: "device.removed", data: { id: device.body.id } });
    expect((await mine.event("device.removed")).data.id).toBe(device.body.id);
    await stillOpen(mine);
  });

  test("a session past its absolute limit closes its connection at its next ping, however often it pinged", async () => {
    start({ config: { sessions: { idleMs: 2 * 60_000, absoluteMs: 5 * 60_000 } } });
    const token = await signIn("alice");
    p.clock.advance(0);
    const c = await live(token);
    for (let i = 0; i < 5; i++) {
      p.clock.advance(50_000);
      await stillOpen(c);
    }
    p.clock.advance(60_000);
    c.send({ op: "ping" });
    await closedAsEnded(c, "expired");
  });
});

describe("the operator ends sessions from another process", () => {
  test("`parley user password` closes every connection of the person at once", async () => {
    start({ onFile: true });
    const a = await live(await signIn("alice"));
    const bob = await live(await signIn("bob"));
    await cli("user", "password", "alice", "--password", "a brand new secret phrase");
    await closedAsEnded(a, "password_reset");
    await stillOpen(bob);
  });

  test("`parley user disable` closes their connections and refuses sign-in until `--enable`", async () => {
    start({ onFile: true });
    const token = await signIn("alice");
    const a = await live(token);
    await cli("user", "disable", "alice");
    await closedAsEnded(a, "disabled");
    expect((await client(p, "GET", "/users/@me", token)).status).toBe(401);
    const refused = await client(p, "POST", "/auth/signin", null, { username: "alice", password: PASSWORD });
    expect([refused.status, refused.body.code]).toEqual([401, 0]);
    await cli("user", "disable", "alice", "--enable");
    await signIn("alice");
  });

  test("`parley user delete` ends every session and device of the person and closes their connections", async () => {
    const w = start({ onFile: true });
    const bobId = internalId(p, w.users.bob.id);
    const laptop = await signIn("bob");
    const phone = await signIn("bob");
    const keys = { x25519: Buffer.alloc(32, 7).toString("base64url") };
    expect((await client(p, "POST", "/users/@me/devices", phone, { name: "Phone", keys })).status).toBe(200);
    const a = await live(laptop);
    const b = await live(phone);
    const alice = await live(await signIn("alice"));
    await cli("user", "delete", "bob");
    // The phone's session held a device, and it too ends as the account's deletion, not the device's removal.
    await closedAsEnded(a, "deleted");
    await closedAsEnded(b, "deleted");
    await stillOpen(alice);
    expect((await client(p, "GET", "/users/@me", laptop)).status).toBe(401);
    expect(p.core.sessions.list(bobId)).toEqual([]);
    expect(p.core.devices.current(bobId)).toEqual([]);
  });
});
