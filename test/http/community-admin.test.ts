/**
 * The instance's administration and one's own account through the people's API (issue
 * 29): the overview, people (search, disable with or without their bots, delete, reset
 * links, administrators, never removing the last one), registration and sign-up invites,
 * servers; display names, profile cards, device names and signing out with the device.
 * Anyone but an administrator is refused 403 50001; bad input is 400 naming its field.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { client, internalId, makeUnlimitedParley, ORIGIN, recordEvents, refusal } from "../helpers";
import type { Parley } from "../../src/app";

let p: Parley;
let root: string, bob: string, carol: string;
let ids: Record<string, string>;
let lab: string;
let world: ReturnType<Parley["seed"]>;

beforeEach(() => {
  p = makeUnlimitedParley();
  const w = p.seed({
    users: [{ name: "root", admin: true }, { name: "bob" }, { name: "carol" }],
    guilds: [{ name: "Lab", owner: "bob", members: ["carol"], channels: [{ name: "general" }] }],
    applications: [{ name: "BobBot", owner: "bob", intents: ["GUILDS"], install: ["Lab"] }],
  });
  [root, bob, carol] = [w.users.root.token, w.users.bob.token, w.users.carol.token];
  ids = Object.fromEntries(["root", "bob", "carol"].map((n) => [n, internalId(p, w.users[n].id)]));
  lab = internalId(p, w.guilds.Lab.id);
  world = w;
});

const signUp = (body: Record<string, unknown>) => client(p, "POST", "/auth/signup", null, { password: "correct horse battery", ...body });

describe("administration: only administrators", () => {
  test("every /admin route refuses a person who is not one (403 50001), and anyone signed out (401)", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/admin/overview"],
      ["GET", "/admin/users"],
      ["POST", `/admin/users/${ids.bob}/disable`, { disabled: true }],
      ["DELETE", `/admin/users/${ids.bob}`],
      ["POST", `/admin/users/${ids.bob}/password-reset`],
      ["PUT", `/admin/users/${ids.carol}/admin`, { admin: true }],
      ["PUT", "/admin/registration", { registration: "closed" }],
      ["GET", "/admin/instance-invites"],
      ["POST", "/admin/instance-invites", {}],
      ["GET", "/admin/guilds"],
      ["DELETE", `/admin/guilds/${lab}`],
    ];
    for (const [method, path, body] of routes) {
      expect([path, refusal(await client(p, method, path, carol, body))]).toEqual([path, [403, 50001]]);
      expect([path, (await client(p, method, path, null, body)).status]).toEqual([path, 401]);
    }
    // Bob owns Lab, yet the administrators' door is not his: he deletes it as its owner, elsewhere.
    expect(refusal(await client(p, "DELETE", `/admin/guilds/${lab}`, bob))).toEqual([403, 50001]);
    expect(p.core.users.get(ids.bob)?.disabled_at).toBeNull();
    expect(p.core.guilds.get(lab)).not.toBeNull();
    expect(p.core.instance.settings().registration).toBe("open");
  });
});

describe("administration: people", () => {
  test("the overview counts; the list searches names and shows applications", async () => {
    const o = await client(p, "GET", "/admin/overview", root);
    expect(o.status).toBe(200);
    expect(o.body.counts).toMatchObject({ people: 3, administrators: 1, servers: 1, applications: 1 });
    expect(o.body.days).toHaveLength(30);
    // What the operator's health says too: this build's version, and how long it has run.
    const health = await p.handle(new Request(`${ORIGIN}/healthz`));
    const h = (await health.json()) as { version: string };
    expect(o.body.version).toBe(h.version);
    expect(o.body.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(o.body.media_bytes).toBe(0);
    const found = await client(p, "GET", "/admin/users?q=BO", root);
    expect(found.body.map((a: { user: { username: string } }) => a.user.username)).toEqual(["bob"]);
    expect(found.body[0]).toMatchObject({ disabled: false, applications: [{ name: "BobBot", disabled: false }], owned_guilds: 1 });
    expect(refusal(await client(p, "GET", `/admin/users?q=${"x".repeat(65)}`, root))).toEqual([400, 50035]);
  });

  test("disable ends their sessions and refuses sign-in; their bot keeps running unless applications too", async () => {
    const off = await client(p, "POST", `/admin/users/${ids.bob}/disable`, root, { disabled: true });
    expect(off.status).toBe(200);
    expect(refusal(await client(p, "GET", "/users/@me", bob))).toEqual([401, 0]);
    expect((await client(p, "GET", "/admin/users?q=bob", root)).body[0]).toMatchObject({
      disabled: true,
      applications: [{ disabled: false }],
    });
    await client(p, "POST", `/admin/users/${ids.bob}/disable`, root, { disabled: true, applications: true });
    expect((await client(p, "GET", "/admin/users?q=bob", root)).body[0]).toMatchObject({ applications: [{ disabled: true }] });
    await client(p, "POST", `/admin/users/${ids.bob}/disable`, root, { disabled: false, applications: true });
    expect((await client(p, "GET", "/admin/users?q=bob", root)).body[0]).toMatchObject({
      disabled: false,
      applications: [{ disabled: false }],
    });
    expect(refusal(await client(p, "POST", `/admin/users/${ids.bob}/disable`, root, { disabled: "yes" }))).toEqual([400, 50035]);
    expect(refusal(await client(p, "POST", `/admin/users/nobody/disable`, root, { disabled: true }))).toEqual([404, 10003]);
  });

  test("the last administrator is never unmade or disabled; a second one may be", async () => {
    expect(refusal(await client(p, "PUT", `/admin/users/${ids.root}/admin`, root, { admin: false }))[0]).toBe(400);
    expect(refusal(await client(p, "POST", `/admin/users/${ids.root}/disable`, root, { disabled: true }))[0]).toBe(400);
    const made = await client(p, "PUT", `/admin/users/${ids.carol}/admin`, root, { admin: true });
    expect(made.body.admin).toBe(true);
    expect((await client(p, "GET", "/admin/overview", carol)).status).toBe(200);
    expect((await client(p, "PUT", `/admin/users/${ids.root}/admin`, carol, { admin: false })).body.admin).toBe(false);
    expect(refusal(await client(p, "GET", "/admin/overview", root))).toEqual([403, 50001]);
  });

  test("a reset link works once: a new password, every other session ended", async () => {
    const link = await client(p, "POST", `/admin/users/${ids.carol}/password-reset`, root);
    expect(link.status).toBe(200);
    const token = /\/reset-password\/([^/]+)$/.exec(link.body.url)![1];
    const weak = await client(p, "POST", "/auth/password-reset", null, { token, new_password: "short" });
    expect(refusal(weak)).toEqual([400, 50035]);
    expect(JSON.stringify(weak.body.errors)).toContain("new_password");
    const used = await client(p, "POST", "/auth/password-reset", null, { token, new_password: "a much longer passphrase" });
    expect(used.status).toBe(200);
    expect(used.body.user.id).toBe(ids.carol);
    expect((await client(p, "GET", "/users/@me", carol)).status).toBe(401);
    expect((await client(p, "GET", "/users/@me", used.body.token)).status).toBe(200);
    expect(refusal(await client(p, "POST", "/auth/password-reset", null, { token, new_password: "another long passphrase" }))).toEqual([
      404, 10003,
    ]);
    expect(refusal(await client(p, "POST", "/auth/password-reset", null, { token: 5 }))).toEqual([400, 50035]);
  });

  test("delete: their messages stay as Deleted User; servers they own must be given away first", async () => {
    const refused = await client(p, "DELETE", `/admin/users/${ids.bob}`, root);
    expect(refused.status).toBe(400);
    const gone = await client(p, "DELETE", `/admin/users/${ids.carol}`, root);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ username: "carol", servers: 1 });
    expect((await client(p, "GET", "/admin/users?q=carol", root)).body).toEqual([]);
  });
});

describe("administration: registration, sign-up invites, servers", () => {
  test("closed refuses sign-ups; invite-only asks for an invite, which admits its uses; open admits anyone", async () => {
    expect((await client(p, "GET", "/instance", null)).body).toEqual({
      registration: "open",
      guild_creation: "everyone",
      administered: true,
    });
    expect((await client(p, "PUT", "/admin/registration", root, { registration: "closed" })).body.registration).toBe("closed");
    expect((await client(p, "GET", "/instance", null)).body.registration).toBe("closed");
    const closed = await signUp({ username: "late" });
    expect(refusal(closed)).toEqual([403, 50001]);
    expect(closed.body.message).toContain("Sign-ups are closed");
    await client(p, "PUT", "/admin/registration", root, { registration: "invite" });
    expect(refusal(await signUp({ username: "late" }))).toEqual([400, 50035]);
    const inv = await client(p, "POST", "/admin/instance-invites", root, { max_uses: 1, max_age: 3600 });
    expect(inv.status).toBe(200);
    expect((await client(p, "GET", "/admin/instance-invites", root)).body).toEqual([
      expect.objectContaining({ id: inv.body.invite.id, uses: 0, max_uses: 1 }),
    ]);
    expect((await signUp({ username: "late", invite: inv.body.code })).status).toBe(200);
    expect(refusal(await signUp({ username: "later", invite: inv.body.code }))).toEqual([400, 50035]);
    const other = await client(p, "POST", "/admin/instance-invites", root, {});
    expect((await client(p, "DELETE", `/admin/instance-invites/${other.body.invite.id}`, root)).status).toBe(204);
    expect(refusal(await signUp({ username: "later", invite: other.body.code }))).toEqual([400, 50035]);
    for (const body of [{ registration: "sometimes" }, { guild_creation: "nobody" }, { other: 1 }])
      expect(refusal(await client(p, "PUT", "/admin/registration", root, body))).toEqual([400, 50035]);
    expect(refusal(await client(p, "POST", "/admin/instance-invites", root, { max_uses: 1001 }))).toEqual([400, 50035]);
  });

  test("who may create servers; the servers' list; an administrator deletes a server", async () => {
    await client(p, "PUT", "/admin/registration", root, { guild_creation: "admins" });
    expect(refusal(await client(p, "POST", "/guilds", carol, { name: "Mine" }))).toEqual([403, 50001]);
    expect((await client(p, "POST", "/guilds", root, { name: "Root's" })).status).toBe(200);
    const list = await client(p, "GET", "/admin/guilds", root);
    expect(list.body.find((s: { id: string }) => s.id === lab)).toMatchObject({ name: "Lab", owner: { id: ids.bob }, member_count: 3 });
    const ev = recordEvents(p);
    expect((await client(p, "DELETE", `/admin/guilds/${lab}`, root)).body).toMatchObject({ name: "Lab" });
    expect(ev.count("guild.deleted")).toBe(1);
  });
});

describe("one's own account", () => {
  test("a display name in any script; too long or with controls refused at global_name; others see it", async () => {
    const set = await client(p, "PATCH", "/users/@me", carol, { global_name: "  Zoë 王 🌿 " });
    expect(set.status).toBe(200);
    expect(set.body.global_name).toBe("Zoë 王 🌿");
    for (const bad of ["x".repeat(33), "a\u202Eb", "\u0007"]) {
      const r = await client(p, "PATCH", "/users/@me", carol, { global_name: bad });
      expect(refusal(r)).toEqual([400, 50035]);
      expect(JSON.stringify(r.body.errors)).toContain("global_name");
    }
    expect(refusal(await client(p, "PATCH", "/users/@me", carol, { name: "x" }))).toEqual([400, 50035]);
    const card = await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}`, bob);
    expect(card.body).toMatchObject({ user: { global_name: "Zoë 王 🌿" }, nick: null, roles: [], mutual_guild_ids: [lab] });
    expect((await client(p, "PATCH", "/users/@me", carol, { global_name: null })).body.global_name).toBeNull();
  });

  test("a profile card is for those who share a server or a DM", async () => {
    const stranger = (await signUp({ username: "stranger" })).body.token;
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile`, stranger))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}`, stranger))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile?guild_id=nope`, bob))).toEqual([404, 10003]);
  });

  test("someone who left is still seen from their message in the server, so a moderator can ban them", async () => {
    const general = internalId(p, world.guilds.Lab.channels.general);
    const bye = (await client(p, "POST", `/channels/${general}/messages`, carol, { content: "bye all" })).body;
    const quiet = (await signUp({ username: "quiet" })).body;
    const mine = (await client(p, "POST", `/channels/${general}/messages`, bob, { content: "see you" })).body;
    expect((await client(p, "DELETE", `/users/@me/guilds/${lab}`, carol)).status).toBe(204);
    const card = await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}&message_id=${bye.id}`, bob);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ user: { username: "carol" }, nick: null, roles: [], mutual_guild_ids: [] });
    // Without the server, without their message (no scan of the server's history for an
    // id a member names), or with someone else's message, nothing is seen.
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}&message_id=${mine.id}`, bob))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/users/${quiet.user.id}/profile?guild_id=${lab}&message_id=${bye.id}`, bob))).toEqual([
      404, 10003,
    ]);
    expect((await client(p, "PUT", `/guilds/${lab}/bans/${ids.carol}`, bob, {})).status).toBe(204);
    // Banned, they are seen from the server alone: the ban list names them.
    expect((await client(p, "GET", `/users/${ids.carol}/profile?guild_id=${lab}`, bob)).status).toBe(200);
  });

  test("devices: renamed by their person; sign-out may remove this browser's device", async () => {
    const key = Buffer.alloc(32, 7).toString("base64url");
    const d = await client(p, "POST", "/users/@me/devices", carol, { name: "Chromium on Linux", keys: { x25519: key, p256: null } });
    expect(d.status).toBe(200);
    const renamed = await client(p, "PATCH", `/users/@me/devices/${d.body.id}`, carol, { name: "Work laptop" });
    expect(renamed.body.name).toBe("Work laptop");
    expect(refusal(await client(p, "PATCH", `/users/@me/devices/${d.body.id}`, carol, { name: "" }))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/users/@me/devices/${d.body.id}`, bob, { name: "Mine now" }))).toEqual([404, 10003]);
    const ev = recordEvents(p);
    expect((await client(p, "POST", "/auth/signout", carol, { remove_device: true })).status).toBe(204);
    expect(ev.count("device.removed")).toBe(1);
    expect(refusal(await client(p, "POST", "/auth/signout", bob, { remove_device: "yes" }))).toEqual([400, 50035]);
  });
});
