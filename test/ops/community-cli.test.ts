/**
 * What `/admin` does, as `parley` commands beside a running `parley serve` on the same
 * data directory (issue "Running a community"): administrators, reset links, disabling
 * a person with their applications, who may sign up and make servers, sign-up invites,
 * servers given away or deleted, the overview. The server hears of each at once
 * (src/store/relay.ts): its gateway and live connections act on what a command changed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oneLine, parley, serve, type Server } from "./support";
import { createParley } from "../../src/app";
import { loadConfig } from "../../src/config";

const dir = mkdtempSync(join(tmpdir(), "parley-community-"));
const data = join(dir, "data");
const PASSWORD = "a long and quiet password";
const WORLD = {
  users: [
    { name: "alice", admin: true, password: PASSWORD },
    { name: "bob", password: PASSWORD },
    { name: "carol", password: PASSWORD },
    { name: "erin" },
  ],
  guilds: [
    { name: "Lab", owner: "alice", members: ["bob", "carol", "erin"], channels: [{ name: "general" }] },
    { name: "Doomed", owner: "carol", members: ["bob"], channels: [{ name: "ruins" }, { name: "more" }] },
  ],
  applications: [
    { name: "Watcher", owner: "alice", intents: ["GUILDS"], install: ["Lab", "Doomed"] },
    { name: "ErinBot", owner: "erin", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

let server: Server;
let seeded: any;
beforeAll(async () => {
  const seed = join(dir, "world.json");
  writeFileSync(seed, JSON.stringify(WORLD));
  server = await serve(["--port", "0", "--data", data, "--seed", seed, "--rate-limits", "off"]);
  seeded = JSON.parse(/seeded world: (.*)/.exec(server.out())![1]);
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const command = (...argv: string[]) => parley([...argv, "--data", data]);
const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: `Session ${init.token}` } : {}) },
  });
const json = async (r: Response | Promise<Response>) => (await r).json() as Promise<any>;

/** A WebSocket and what came over it. */
function socket(url: string) {
  const ws = new WebSocket(url);
  const frames: any[] = [];
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)));
  const closed = new Promise<number>((r) => (ws.onclose = (e) => r(e.code)));
  const opened = new Promise<void>((r) => (ws.onopen = () => r()));
  const until = async (what: string, ok: () => boolean) => {
    const end = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`no ${what}: ${JSON.stringify(frames).slice(-2000)}`);
      await Bun.sleep(10);
    }
  };
  return { ws, frames, closed, opened, until };
}

/** A bot's gateway session, once READY (with every server it is in). */
async function gateway(token: string) {
  const gw = socket(`${server.base.replace(/^http/, "ws")}/gateway`);
  await gw.until("HELLO", () => gw.frames.some((f) => f.op === 10));
  gw.ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, properties: {} } }));
  await gw.until("READY", () => gw.frames.some((f) => f.t === "READY"));
  return gw;
}

/** A person's live connection, once ready. */
async function live(token: string) {
  const s = socket(`${server.base.replace(/^http/, "ws")}/api/client/v1/live`);
  await s.opened;
  s.ws.send(JSON.stringify({ op: "hello", token }));
  await s.until("ready", () => s.frames.some((f) => f.op === "ready"));
  return s;
}

const closedSoon = (closed: Promise<number>) => Promise.race([closed, Bun.sleep(5000).then(() => "still open")]);
const signUp = (body: Record<string, unknown>) =>
  api("/api/client/v1/auth/signup", { method: "POST", body: JSON.stringify({ password: PASSWORD, ...body }) });

describe("administration from the command line, beside a running server", () => {
  test("user admin: a person becomes an administrator at once; the last one cannot be unmade", async () => {
    const carol = seeded.users.carol.token;
    expect((await json(api("/api/client/v1/users/@me", { token: carol }))).admin).toBe(false);
    expect((await command("user", "admin", "carol")).out).toBe("carol is an administrator\n");
    expect((await json(api("/api/client/v1/users/@me", { token: carol }))).admin).toBe(true);
    expect((await command("user", "admin", "carol", "--revoke")).code).toBe(0);
    oneLine(
      await command("user", "admin", "alice", "--revoke"),
      /alice is the last administrator and cannot be made a non-administrator: make someone else an administrator first/,
    );
    expect((await json(api("/api/client/v1/users/@me", { token: seeded.users.alice.token }))).admin).toBe(true);
  }, 30_000);

  test("user reset-link: a one-time link under the server's address; using it signs the person out everywhere", async () => {
    const conn = await live(seeded.users.bob.token);
    const r = await command("user", "reset-link", "bob");
    expect(r.code).toBe(0);
    const link = new RegExp(`^${server.base.replace(/[.]/g, "\\.")}/reset-password/(pr_\\S+)$`, "m").exec(r.out);
    expect(link).not.toBeNull();
    expect(r.out).not.toContain("no server is running");
    // What the reset page will do (its route comes with the web work): redeem through the core, beside the server.
    const beside = createParley(loadConfig({ data, quiet: true }, {}), { relayEvents: true });
    try {
      await beside.core.passwordResets.redeem(link![1], "bob's brand new password", "test");
      await expect(beside.core.passwordResets.redeem(link![1], "bob's second new password", "test")).rejects.toThrow(
        "unknown, used or expired",
      );
    } finally {
      await beside.stop();
    }
    expect(await closedSoon(conn.closed)).toBe(4001);
    expect((await api("/api/client/v1/users/@me", { token: seeded.users.bob.token })).status).toBe(401);
    const back = await api("/api/client/v1/auth/signin", {
      method: "POST",
      body: JSON.stringify({ username: "bob", password: "bob's brand new password" }),
    });
    expect(back.status).toBe(200);
    seeded.users.bob.token = ((await back.json()) as any).token;
  }, 30_000);

  test("user disable --apps: the person is signed out and their bot's session ends; without --apps the bot keeps running", async () => {
    const bot = await gateway(seeded.applications.ErinBot.token);
    const plain = await command("user", "disable", "erin");
    expect(plain.out).toContain("their bots keep running (ErinBot: add --apps to disable them too)");
    expect(await Promise.race([bot.closed, Bun.sleep(500).then(() => "still open")])).toBe("still open");
    const withApps = await command("user", "disable", "erin", "--apps");
    expect(withApps.out).toContain("their applications are disabled too (tokens refused, bots' sessions ended): ErinBot");
    await bot.until("op 9", () => bot.frames.some((f) => f.op === 9));
    expect(await closedSoon(bot.closed)).not.toBe("still open");
    expect(
      (await fetch(`${server.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${seeded.applications.ErinBot.token}` } })).status,
    ).toBe(401);
    expect((await command("user", "disable", "erin", "--enable", "--apps")).out).toContain("their applications are enabled: ErinBot");
    expect(
      (await fetch(`${server.base}/api/v10/users/@me`, { headers: { Authorization: `Bot ${seeded.applications.ErinBot.token}` } })).status,
    ).toBe(200);
  }, 30_000);

  test("registration: closed refuses sign-ups with a clear 403; invite-only asks for an invite; open lets anyone in", async () => {
    expect((await command("registration")).out).toBe("registration is open: anyone may sign up\nservers may be created by everyone\n");
    expect((await command("registration", "closed")).code).toBe(0);
    const closed = await signUp({ username: "late" });
    expect(closed.status).toBe(403);
    expect(await closed.json()).toEqual({
      code: 50001,
      message: "Sign-ups are closed on this server: ask its administrator for an account",
    });
    expect((await command("registration", "invite-only")).code).toBe(0);
    const noInvite = await signUp({ username: "late" });
    expect(noInvite.status).toBe(400);
    expect(((await noInvite.json()) as any).errors.invite._errors[0].code).toBe("INVITE_REQUIRED");
    oneLine(await command("registration", "sometimes"), /registration is open, invite-only or closed/);
    expect((await command("registration", "open")).code).toBe(0);
    expect((await signUp({ username: "early" })).status).toBe(200);
  }, 30_000);

  test("registration servers admins: only administrators create servers, at once", async () => {
    const bob = seeded.users.bob.token;
    expect((await command("registration", "servers", "admins")).out).toBe("servers may be created by administrators only\n");
    const refused = await api("/api/client/v1/guilds", { method: "POST", token: bob, body: JSON.stringify({ name: "Bob's" }) });
    expect(refused.status).toBe(403);
    expect(
      (await api("/api/client/v1/guilds", { method: "POST", token: seeded.users.alice.token, body: JSON.stringify({ name: "Alice's" }) }))
        .status,
    ).toBe(200);
    expect((await command("registration", "servers", "everyone")).code).toBe(0);
    expect((await api("/api/client/v1/guilds", { method: "POST", token: bob, body: JSON.stringify({ name: "Bob's" }) })).status).toBe(200);
  }, 30_000);

  test("invite create, list, revoke: a code shown once, its uses and expiry listed, gone once revoked", async () => {
    const made = await command("invite", "create", "--max-uses", "2", "--expire", "1d");
    expect(made.code).toBe(0);
    const id = /^invite (\S+): 2 sign-ups, until \S+Z$/m.exec(made.out)![1];
    expect(made.out).toMatch(/^code \(shown once; the person signing up gives it\): \S{16}$/m);
    expect(made.out).toContain("note: registration is not invite-only now");
    expect((await command("invite", "list")).out).toMatch(new RegExp(`^${id}  used 0 of 2  until \\S+  by the operator$`, "m"));
    oneLine(await command("invite", "create", "--expire", "soon"), /--expire takes a number of minutes, hours or days/);
    expect((await command("invite", "revoke", id)).out).toBe(`revoked invite ${id}\n`);
    expect((await command("invite", "list")).out).toBe("no sign-up invites ('parley invite create')\n");
    oneLine(await command("invite", "revoke", id), /no sign-up invite .* that still works/);
  }, 30_000);

  test("guild transfer: the server's bots hear GUILD_UPDATE with the new owner; people see it", async () => {
    const watcher = await gateway(seeded.applications.Watcher.token);
    const r = await command("guild", "transfer", "Lab", "--to", "bob");
    expect(r.out).toBe("Lab is now owned by bob\n");
    await watcher.until("GUILD_UPDATE", () => watcher.frames.some((f) => f.t === "GUILD_UPDATE" && f.d.owner_id === seeded.users.bob.id));
    const bob = await json(api("/api/client/v1/users/@me", { token: seeded.users.bob.token }));
    const lab = (await json(api("/api/client/v1/guilds", { token: seeded.users.carol.token }))).find((g: any) => g.name === "Lab");
    expect(lab.owner_id).toBe(bob.id);
    oneLine(await command("guild", "transfer", "Lab", "--to", "early"), /early is not a member of Lab/);
    watcher.ws.close();
  }, 30_000);

  test("guild delete: bots get GUILD_DELETE, members' clients guild.deleted, and everything in it is gone", async () => {
    const watcher = await gateway(seeded.applications.Watcher.token);
    const bob = await live(seeded.users.bob.token);
    const r = await command("guild", "delete", "Doomed");
    expect(r.out).toBe("deleted Doomed: 2 channels, 0 messages, 0 roles; 3 members removed\n");
    await watcher.until("GUILD_DELETE", () => watcher.frames.some((f) => f.t === "GUILD_DELETE" && f.d.id === seeded.guilds.Doomed.id));
    expect(watcher.frames.find((f) => f.t === "GUILD_DELETE").d.unavailable).toBeUndefined();
    await bob.until("guild.deleted", () => bob.frames.some((f) => f.type === "guild.deleted"));
    expect((await command("guild", "list")).out).not.toContain("Doomed");
    watcher.ws.close();
    bob.ws.close();
  }, 30_000);

  test("stats: the overview's counts and the last 30 days", async () => {
    const r = await command("stats");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^people 5 \(1 administrator, 0 disabled\), applications 2$/);
    expect(lines[1]).toMatch(/^servers 3, channels 3, messages 0$/);
    expect(lines[2]).toMatch(/^database \d+\.\d MiB, media \d+\.\d MiB$/);
    expect(lines.slice(4)).toHaveLength(30);
    expect(lines.at(-1)).toStartWith(new Date().toISOString().slice(0, 10));
  }, 30_000);
});
