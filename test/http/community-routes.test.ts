/**
 * Running a server through the people's API (issue 29): a member's nickname and roles,
 * the ban list, the server's invites, the audit log, the channels' order and categories,
 * giving the server away, deleting it and leaving it. Rights are the core's: a moderator
 * is stopped by rank, a member by missing bits (403 50001), a stranger sees nothing (404
 * 10003), and bad input is a 400 naming its field, never a 500.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { client, internalId, makeUnlimitedParley, ORIGIN, recordEvents, refusal } from "../helpers";
import { png } from "../support/png";
import type { Parley } from "../../src/app";

let p: Parley;
let olive: string, mo: string, mem: string, sam: string;
let club: string, general: string, staff: string;
let ids: Record<string, string>;
let senior: string, modRole: string, helper: string;

beforeEach(async () => {
  p = makeUnlimitedParley();
  const w = p.seed({
    users: [{ name: "olive" }, { name: "mo" }, { name: "mem" }, { name: "hi" }, { name: "sam" }],
    guilds: [{ name: "Club", owner: "olive", members: ["mo", "mem", "hi"], channels: [{ name: "general" }, { name: "staff" }] }],
  });
  [olive, mo, mem, sam] = [w.users.olive.token, w.users.mo.token, w.users.mem.token, w.users.sam.token];
  ids = Object.fromEntries(["olive", "mo", "mem", "hi", "sam"].map((n) => [n, internalId(p, w.users[n].id)]));
  club = internalId(p, w.guilds.Club.id);
  general = internalId(p, w.guilds.Club.channels.general);
  staff = internalId(p, w.guilds.Club.channels.staff);
  // Newer roles land lower: Senior above Mod.
  const sr = await client(p, "POST", `/guilds/${club}/roles`, olive, { name: "Senior", permissions: [] });
  const md = await client(p, "POST", `/guilds/${club}/roles`, olive, {
    name: "Mod",
    permissions: ["KICK_MEMBERS", "BAN_MEMBERS", "MANAGE_ROLES", "MANAGE_CHANNELS", "MANAGE_GUILD", "VIEW_AUDIT_LOG"],
  });
  const hp = await client(p, "POST", `/guilds/${club}/roles`, olive, { name: "Helper", permissions: [] });
  [senior, modRole, helper] = [sr.body.id, md.body.id, hp.body.id];
  expect((await client(p, "PUT", `/guilds/${club}/members/${ids.mo}/roles/${modRole}`, olive)).status).toBe(204);
  expect((await client(p, "PUT", `/guilds/${club}/members/${ids.hi}/roles/${senior}`, olive)).status).toBe(204);
});

describe("members: nickname and roles", () => {
  test("a moderator sets a member's nickname and roles below their rank; member.updated once", async () => {
    const ev = recordEvents(p);
    const r = await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, mo, { nick: "Mémé 猫", roles: [helper] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ nick: "Mémé 猫", roles: [helper], user: { id: ids.mem } });
    expect(ev.count("member.updated")).toBe(1);
    const cleared = await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, mo, { nick: "", roles: [] });
    expect(cleared.body).toMatchObject({ nick: null, roles: [] });
  });

  test("rank: not a role above one's own, not a member ranked above; a member without MANAGE_ROLES is refused", async () => {
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, mo, { roles: [senior] }))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, mo, { roles: [modRole] }))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.hi}`, mo, { nick: "x" }))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mo}`, mem, { nick: "x" }))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, sam, { nick: "x" }))).toEqual([404, 10003]);
  });

  test("bad input: a long nickname, an unknown role, a non-id, an unknown field: 400 naming the field", async () => {
    const long = await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, olive, { nick: "x".repeat(33) });
    expect(refusal(long)).toEqual([400, 50035]);
    const unknown = await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, olive, { roles: ["not-an-id"] });
    expect(refusal(unknown)).toEqual([400, 50035]);
    expect(JSON.stringify(unknown.body.errors)).toContain("roles");
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, olive, { roles: "all" }))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/${ids.mem}`, olive, { mute: true }))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/members/nobody`, olive, { nick: "x" }))).toEqual([404, 10003]);
  });
});

describe("bans", () => {
  test("the list with reasons, for BAN_MEMBERS; unban lifts it", async () => {
    expect((await client(p, "PUT", `/guilds/${club}/bans/${ids.mem}`, mo, { reason: "spam" })).status).toBe(204);
    const list = await client(p, "GET", `/guilds/${club}/bans`, mo);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ user: expect.objectContaining({ id: ids.mem, username: "mem" }), reason: "spam" }]);
    expect(refusal(await client(p, "GET", `/guilds/${club}/bans`, sam))).toEqual([404, 10003]);
    expect((await client(p, "DELETE", `/guilds/${club}/bans/${ids.mem}`, mo)).status).toBe(204);
    expect((await client(p, "GET", `/guilds/${club}/bans`, olive)).body).toEqual([]);
  });

  test("a member without BAN_MEMBERS sees no list", async () => {
    expect(refusal(await client(p, "GET", `/guilds/${club}/bans`, mem))).toEqual([403, 50001]);
  });
});

describe("invites", () => {
  test("listed with uses and creator for MANAGE_GUILD; revoked by code; refused to a member", async () => {
    const made = await client(p, "POST", `/channels/${general}/invites`, mem, { max_age: 86_400, max_uses: 3 });
    expect(made.status).toBe(200);
    const list = await client(p, "GET", `/guilds/${club}/invites`, mo);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({ code: made.body.code, inviter_id: ids.mem, uses: 0, max_uses: 3, max_age: 86_400 }),
    ]);
    expect(refusal(await client(p, "GET", `/guilds/${club}/invites`, mem))).toEqual([403, 50001]);
    expect(refusal(await client(p, "GET", `/guilds/${club}/invites`, sam))).toEqual([404, 10003]);
    expect((await client(p, "DELETE", `/invites/${made.body.code}`, mo)).status).toBe(200);
    expect((await client(p, "GET", `/guilds/${club}/invites`, mo)).body).toEqual([]);
  });

  test("signed out, an invite names its server, its icon and member count, not its channel or creator", async () => {
    const made = await client(p, "POST", `/channels/${general}/invites`, mem, {});
    const look = await client(p, "GET", `/invites/${made.body.code}`, null);
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({
      code: made.body.code,
      guild: { id: club, name: "Club", icon: null, member_count: 4 },
      channel: null,
      inviter_id: null,
    });
    // With an icon, its hash, which the icon's path serves to anyone.
    const bytes = png(8, 8);
    const slot = await client(p, "POST", "/uploads", olive, {
      purpose: "icon",
      filename: "club.png",
      size: bytes.byteLength,
      guild_id: club,
    });
    const put = new Request(`${ORIGIN}${slot.body.upload_url}`, {
      method: "PUT",
      headers: { Authorization: `Session ${olive}` },
      body: bytes,
    });
    expect((await p.handle(put)).status).toBe(200);
    const icon = (await client(p, "PUT", `/guilds/${club}/icon`, olive, { upload_id: slot.body.id })).body.icon;
    expect(icon).toMatch(/^[0-9a-f]{32}$/);
    const after = await client(p, "GET", `/invites/${made.body.code}`, null);
    expect(after.body.guild).toEqual({ id: club, name: "Club", icon, member_count: 4 });
    expect((await p.handle(new Request(`${ORIGIN}/icons/${club}/${icon}.png`))).status).toBe(200);
    expect(refusal(await client(p, "GET", `/invites/nope`, null))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/invites/${"x".repeat(40)}`, null))).toEqual([404, 10003]);
  });
});

describe("the audit log", () => {
  test("what people did, newest first, with the actor's name; filtered by action and person; VIEW_AUDIT_LOG", async () => {
    expect(refusal(await client(p, "GET", `/guilds/${club}/audit-log`, mem))).toEqual([403, 50001]);
    await client(p, "PUT", `/guilds/${club}/bans/${ids.mem}`, mo, { reason: "spam" });
    await client(p, "PATCH", `/guilds/${club}/members/${ids.hi}`, olive, { nick: "High" });
    const all = await client(p, "GET", `/guilds/${club}/audit-log`, mo);
    expect(all.status).toBe(200);
    expect(all.body[0]).toMatchObject({
      action_type: 24,
      actor: { id: ids.olive },
      target_id: ids.hi,
      target_user: { id: ids.hi },
      changes: [{ key: "nick", new_value: "High" }],
    });
    const bans = await client(p, "GET", `/guilds/${club}/audit-log?action_type=22`, mo);
    expect(bans.body).toEqual([
      expect.objectContaining({ action_type: 22, reason: "spam", actor: expect.objectContaining({ username: "mo" }), target_id: ids.mem }),
    ]);
    const byOlive = await client(p, "GET", `/guilds/${club}/audit-log?user_id=${ids.olive}&limit=100`, mo);
    expect(byOlive.body.length).toBeGreaterThan(0);
    expect(byOlive.body.every((e: { actor: { id: string } }) => e.actor.id === ids.olive)).toBe(true);
    expect(refusal(await client(p, "GET", `/guilds/${club}/audit-log`, mem))).toEqual([404, 10003]);
    expect(refusal(await client(p, "GET", `/guilds/${club}/audit-log`, sam))).toEqual([404, 10003]);
    for (const q of ["limit=0", "limit=101", "limit=x", "action_type=-1", "user_id=bob", "before=1"])
      expect(refusal(await client(p, "GET", `/guilds/${club}/audit-log?${q}`, mo))).toEqual([400, 50035]);
  });
});

describe("channels: order and categories", () => {
  test("reorder and move into a category: channel.updated per moved channel, one audit entry each", async () => {
    const cat = await client(p, "POST", `/guilds/${club}/channels`, olive, { name: "Team", type: 4 });
    expect(cat.status).toBe(200);
    const ev = recordEvents(p);
    const r = await client(p, "PATCH", `/guilds/${club}/channels`, mo, [
      { id: staff, position: 0, parent_id: cat.body.id },
      { id: general, position: 1 },
    ]);
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.body.map((c: { id: string }) => [c.id, c]));
    expect(byId[staff]).toMatchObject({ position: 0, parent_id: cat.body.id });
    expect(byId[general]).toMatchObject({ position: 1 });
    expect(ev.count("channel.updated")).toBe(2);
    const log = await client(p, "GET", `/guilds/${club}/audit-log?action_type=11`, olive);
    expect(log.body.map((e: { target_id: string }) => e.target_id).sort()).toEqual([general, staff].sort());
  });

  test("two parent changes: 400 40009; not a category or unknown: 400 naming it; no right: 403; nothing changed", async () => {
    const cat = await client(p, "POST", `/guilds/${club}/channels`, olive, { name: "Team", type: 4 });
    const before = JSON.stringify(p.core.guilds.channels(club));
    expect(
      refusal(
        await client(p, "PATCH", `/guilds/${club}/channels`, olive, [
          { id: staff, parent_id: cat.body.id },
          { id: general, parent_id: cat.body.id },
        ]),
      ),
    ).toEqual([400, 40009]);
    const notCat = await client(p, "PATCH", `/guilds/${club}/channels`, olive, [{ id: staff, parent_id: general }]);
    expect(refusal(notCat)).toEqual([400, 50035]);
    expect(JSON.stringify(notCat.body.errors)).toContain("parent_id");
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/channels`, olive, [{ id: "nope", position: 1 }]))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/channels`, olive, { id: staff }))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/channels`, olive, [{ id: staff, position: -1 }]))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/channels`, mem, [{ id: staff, position: 5 }]))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PATCH", `/guilds/${club}/channels`, sam, [{ id: staff, position: 5 }]))).toEqual([404, 10003]);
    expect(JSON.stringify(p.core.guilds.channels(club))).toBe(before);
  });
});

describe("the server as a whole: ownership, deletion, leaving", () => {
  test("the owner gives the server away; the old owner may then leave; nobody else may give it", async () => {
    expect(refusal(await client(p, "DELETE", `/users/@me/guilds/${club}`, olive))).toEqual([400, 50035]);
    expect(refusal(await client(p, "PUT", `/guilds/${club}/owner`, mo, { owner_id: ids.mo }))).toEqual([403, 50001]);
    expect(refusal(await client(p, "PUT", `/guilds/${club}/owner`, olive, { owner_id: ids.sam }))).toEqual([404, 10003]);
    expect(refusal(await client(p, "PUT", `/guilds/${club}/owner`, olive, { owner_id: 7 }))).toEqual([400, 50035]);
    const given = await client(p, "PUT", `/guilds/${club}/owner`, olive, { owner_id: ids.mem });
    expect(given.status).toBe(200);
    expect(given.body.owner_id).toBe(ids.mem);
    const log = await client(p, "GET", `/guilds/${club}/audit-log?action_type=1`, mem);
    expect(log.body[0]).toMatchObject({
      actor: { id: ids.olive },
      changes: [{ key: "owner_id", old_value: ids.olive, new_value: ids.mem }],
    });
    expect((await client(p, "DELETE", `/users/@me/guilds/${club}`, olive)).status).toBe(204);
    expect(p.core.guilds.isMember(club, ids.olive)).toBe(false);
  });

  test("deleting: what goes is said first; only the owner; members hear guild.deleted; everything is gone", async () => {
    const said = await client(p, "GET", `/guilds/${club}/deletion`, olive);
    expect(said.body).toMatchObject({ id: club, name: "Club", channels: 2, members: 4, roles: 3 });
    expect(refusal(await client(p, "GET", `/guilds/${club}/deletion`, mo))).toEqual([403, 50001]);
    expect(refusal(await client(p, "DELETE", `/guilds/${club}`, mo))).toEqual([403, 50001]);
    expect(refusal(await client(p, "DELETE", `/guilds/${club}`, sam))).toEqual([404, 10003]);
    const ev = recordEvents(p);
    const gone = await client(p, "DELETE", `/guilds/${club}`, olive);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ name: "Club", channels: 2 });
    expect(ev.count("guild.deleted")).toBe(1);
    expect(refusal(await client(p, "GET", `/guilds/${club}`, mem))).toEqual([404, 10003]);
  });

  test("a member leaves", async () => {
    expect((await client(p, "DELETE", `/users/@me/guilds/${club}`, mem)).status).toBe(204);
    expect(p.core.guilds.isMember(club, ids.mem)).toBe(false);
  });
});
