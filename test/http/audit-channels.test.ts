import { beforeEach, describe, expect, test } from "bun:test";
import { call, makeUnlimitedParley, seedAdmin } from "../helpers";
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
  });
});
