import { beforeEach, describe, expect, test } from "bun:test";
import { call, client, internalId, makeUnlimitedParley, seedAdmin } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let token: string;
const reason = { "X-Audit-Log-Reason": encodeURIComponent("tidying up: ünïcode") };

beforeEach(() => {
  p = makeUnlimitedParley();
  w = seedAdmin(p);
  token = w.applications.ModBot.token;
});

async function entries(actionType: number) {
  const r = await call(p, "GET", `/guilds/${w.guilds.Lab.id}/audit-logs?action_type=${actionType}`, { token });
  expect(r.status).toBe(200);
  return r.body.audit_log_entries as any[];
}

describe("channel and message actions write audit entries with the reason", () => {
  test("channel create, update, delete (10, 11, 12)", async () => {
    const c = await call(p, "POST", `/guilds/${w.guilds.Lab.id}/channels`, { token, body: { name: "news", topic: "t" }, headers: reason });
    expect(c.status).toBe(200);
    const [created] = await entries(10);
    expect(created).toMatchObject({ target_id: c.body.id, user_id: w.applications.ModBot.bot_user_id, reason: "tidying up: ünïcode" });
    expect(created.changes).toContainEqual({ key: "name", new_value: "news" });
    await call(p, "PATCH", `/channels/${c.body.id}`, { token, body: { topic: "new topic" }, headers: reason });
    const [updated] = await entries(11);
    expect(updated.changes).toEqual([{ key: "topic", old_value: "t", new_value: "new topic" }]);
    await call(p, "DELETE", `/channels/${c.body.id}`, { token });
    const [deleted] = await entries(12);
    expect(deleted.target_id).toBe(c.body.id);
    expect(deleted.reason).toBeNull();
    expect(deleted.changes).toContainEqual({ key: "name", old_value: "news" });
  });

  test("overwrite create, update, delete (13, 14, 15) with the reference options", async () => {
    const ch = w.guilds.Lab.channels.general;
    const role = w.guilds.Lab.roles.Low;
    await call(p, "PUT", `/channels/${ch}/permissions/${role}`, { token, body: { type: 0, allow: "2048" }, headers: reason });
    await call(p, "PUT", `/channels/${ch}/permissions/${role}`, { token, body: { type: 0, deny: "2048" } });
    await call(p, "DELETE", `/channels/${ch}/permissions/${role}`, { token });
    const [c] = await entries(13);
    expect(c).toMatchObject({ target_id: ch, options: { id: role, type: "0", role_name: "Low" }, reason: "tidying up: ünïcode" });
    const [u] = await entries(14);
    expect(u.changes).toEqual([
      { key: "allow", old_value: "2048", new_value: "0" },
      { key: "deny", old_value: "0", new_value: "2048" },
    ]);
    const [d] = await entries(15);
    expect(d.options).toMatchObject({ id: role, type: "0" });
  });

  test("a moderator deleting another's message (72) and a bulk delete (73); deleting one's own is not audited", async () => {
    const ch = w.guilds.Lab.channels.general;
    const carol = p.api.flakes.uuid(w.users.carol.id)!;
    const cid = p.api.flakes.uuid(ch)!;
    // ModBot's role lacks MANAGE_MESSAGES: grant it in this channel only.
    p.core.guilds.setOverwrite(cid, p.api.flakes.uuid(w.applications.ModBot.bot_user_id)!, 1, 8192, 0);
    const ms = [1, 2, 3].map((i) => p.core.messages.create({ channelId: cid, authorId: carol, content: `m${i}` }));
    const own = await call(p, "POST", `/channels/${ch}/messages`, { token, body: { content: "mine" } });
    await call(p, "DELETE", `/channels/${ch}/messages/${own.body.id}`, { token });
    expect(await entries(72)).toEqual([]);
    await call(p, "DELETE", `/channels/${ch}/messages/${p.api.flakes.of(ms[0].id)}`, { token, headers: reason });
    const [one] = await entries(72);
    expect(one).toMatchObject({ target_id: w.users.carol.id, options: { channel_id: ch, count: "1" }, reason: "tidying up: ünïcode" });
    const r = await call(p, "POST", `/channels/${ch}/messages/bulk-delete`, {
      token,
      body: { messages: ms.slice(1).map((m) => p.api.flakes.of(m.id)) },
    });
    expect(r.status).toBe(204);
    const [bulk] = await entries(73);
    expect(bulk).toMatchObject({ target_id: ch, options: { count: "2" } });
    // The same ids again: all gone already, so nothing changed and nothing is logged.
    const again = await call(p, "POST", `/channels/${ch}/messages/bulk-delete`, {
      token,
      body: { messages: ms.slice(1).map((m) => p.api.flakes.of(m.id)) },
    });
    expect(again.status).toBe(204);
    expect(await entries(73)).toHaveLength(1);
  });
});

/** Every entry of the Lab server, oldest first. */
async function all() {
  const r = await call(p, "GET", `/guilds/${w.guilds.Lab.id}/audit-logs?after=0&limit=100`, { token });
  expect(r.status).toBe(200);
  return r.body.audit_log_entries as any[];
}

/** The entries written since `mark` entries, as [action_type, target_id, options.id]. */
async function since(mark: number) {
  return (await all()).slice(mark).map((e) => [e.action_type, e.target_id, e.options?.id]);
}

describe("every way of changing overwrites writes the reference's entries, once", () => {
  test("a bot's PATCH with permission_overwrites: one 13, 14 or 15 per overwrite that differs, no 11 for the list", async () => {
    const ch = w.guilds.Lab.channels.general;
    const { Low } = w.guilds.Lab.roles;
    const carol = w.users.carol.id;
    let mark = (await all()).length;
    const first = [
      { id: Low, type: 0, allow: "2048" },
      { id: carol, type: 1, deny: "2048" },
    ];
    expect((await call(p, "PATCH", `/channels/${ch}`, { token, body: { permission_overwrites: first }, headers: reason })).status).toBe(
      200,
    );
    const made = (await all()).slice(mark);
    expect(made.map((e) => [e.action_type, e.target_id, e.options.id, e.reason]).sort()).toEqual(
      [
        [13, ch, Low, "tidying up: ünïcode"],
        [13, ch, carol, "tidying up: ünïcode"],
      ].sort(),
    );
    expect(made.find((e) => e.options.id === carol)).toMatchObject({
      options: { id: carol, type: "1" },
      changes: [
        { key: "id", new_value: carol },
        { key: "type", new_value: 1 },
        { key: "allow", new_value: "0" },
        { key: "deny", new_value: "2048" },
      ],
    });
    expect(made.find((e) => e.options.id === Low).options).toEqual({ id: Low, type: "0", role_name: "Low" });
    // The member an overwrite is for is among the users listed, as discord.py looks for it there.
    const listed = await call(p, "GET", `/guilds/${w.guilds.Lab.id}/audit-logs?action_type=13`, { token });
    expect(listed.body.users.map((u: any) => u.id)).toContain(carol);
    mark += made.length;
    // The same list again changes nothing and records nothing; a new list with a new topic records both.
    await call(p, "PATCH", `/channels/${ch}`, { token, body: { permission_overwrites: first } });
    expect(await since(mark)).toEqual([]);
    const second = { topic: "rules", permission_overwrites: [{ id: Low, type: 0, deny: "2048" }] };
    await call(p, "PATCH", `/channels/${ch}`, { token, body: second });
    const next = (await all()).slice(mark);
    expect(next.map((e) => [e.action_type, e.options?.id ?? null]).sort()).toEqual([
      [11, null],
      [14, Low],
      [15, carol],
    ]);
    expect(next.find((e) => e.action_type === 11).changes).toEqual([{ key: "topic", new_value: "rules" }]);
    expect(next.find((e) => e.action_type === 14).changes).toEqual([
      { key: "allow", old_value: "2048", new_value: "0" },
      { key: "deny", old_value: "0", new_value: "2048" },
    ]);
    expect(next.find((e) => e.action_type === 15).changes).toContainEqual({ key: "deny", old_value: "2048" });
  });

  test("a person's PATCH with `overwrites` records the same entries, under the person's name", async () => {
    const ch = w.guilds.Lab.channels.staff;
    const mark = (await all()).length;
    const body = { overwrites: [{ target_id: internalId(p, w.guilds.Lab.roles.Low), type: "role", deny: "2048" }] };
    expect((await client(p, "PATCH", `/channels/${internalId(p, ch)}`, w.users.alice.token, body)).status).toBe(200);
    const [e, ...rest] = (await all()).slice(mark);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({ action_type: 13, target_id: ch, user_id: w.users.alice.id, options: { id: w.guilds.Lab.roles.Low } });
  });

  test("a category's change records the synced channels it carries; a lock_permissions move records the overwrites it took", async () => {
    const g = w.guilds.Lab.id;
    const { Low } = w.guilds.Lab.roles;
    const cat = (await call(p, "POST", `/guilds/${g}/channels`, { token, body: { name: "Ops", type: 4 } })).body.id;
    const inside = (await call(p, "POST", `/guilds/${g}/channels`, { token, body: { name: "ops-chat", parent_id: cat } })).body.id;
    const loose = (await call(p, "POST", `/guilds/${g}/channels`, { token, body: { name: "loose" } })).body.id;
    let mark = (await all()).length;
    await call(p, "PUT", `/channels/${cat}/permissions/${Low}`, { token, body: { type: 0, deny: "2048" }, headers: reason });
    const carried = (await all()).slice(mark);
    expect(carried.map((e) => [e.action_type, e.target_id, e.options.id, e.reason])).toEqual([
      [13, cat, Low, "tidying up: ünïcode"],
      [13, inside, Low, "tidying up: ünïcode"],
    ]);
    mark += carried.length;
    const moved = await call(p, "PATCH", `/guilds/${g}/channels`, { token, body: [{ id: loose, parent_id: cat, lock_permissions: true }] });
    expect(moved.status).toBe(204);
    expect(await since(mark)).toEqual([
      [11, loose, undefined],
      [13, loose, Low],
    ]);
  });

  test("CHANNEL_CREATE and CHANNEL_DELETE list the channel's overwrites (permission_overwrites, snowflake ids)", async () => {
    const { Low } = w.guilds.Lab.roles;
    const body = { name: "locked", permission_overwrites: [{ id: Low, type: 0, deny: "2048" }] };
    const c = await call(p, "POST", `/guilds/${w.guilds.Lab.id}/channels`, { token, body });
    const ow = [{ id: Low, type: 0, allow: "0", deny: "2048" }];
    const [created] = await entries(10);
    expect(created.changes).toContainEqual({ key: "permission_overwrites", new_value: ow });
    await call(p, "DELETE", `/channels/${c.body.id}`, { token });
    const [deleted] = await entries(12);
    expect(deleted.changes).toContainEqual({ key: "permission_overwrites", old_value: ow });
    // A channel without overwrites lists none, as a null field is left out.
    await call(p, "POST", `/guilds/${w.guilds.Lab.id}/channels`, { token, body: { name: "open" } });
    expect((await entries(10))[0].changes.map((x: any) => x.key)).not.toContain("permission_overwrites");
  });
});
