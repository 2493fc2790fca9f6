import { describe, expect, test, beforeEach } from "bun:test";
import { makeParley, recordEvents, seedAdmin } from "../helpers";
import { diffChanges, AUDIT } from "../../src/core/audit";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let gid: string;
const u = (f: string) => p.api.flakes.uuid(f)!;

beforeEach(() => {
  p = makeParley();
  w = seedAdmin(p);
  gid = u(w.guilds.Lab.id);
});

describe("diffChanges", () => {
  test("one change per differing key; nulls appear as a missing side", () => {
    expect(diffChanges({ a: 1, b: "x", c: null }, { a: 1, b: "y", c: 2 })).toEqual([
      { key: "b", old_value: "x", new_value: "y" },
      { key: "c", new_value: 2 },
    ]);
    expect(diffChanges({ a: 1 }, null)).toEqual([{ key: "a", old_value: 1 }]);
  });
});

describe("audit.record / list", () => {
  test("joins the caller's transaction: a rolled-back action leaves no entry", () => {
    expect(() =>
      p.store.write(() => {
        p.core.audit.record({ guildId: gid, actorId: null, actionType: AUDIT.CHANNEL_CREATE, targetId: gid, reason: "r" });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(p.core.audit.list(gid, { limit: 50 })).toHaveLength(0);
  });

  test("stands alone outside a transaction; reason capped at 512; ordering by bounds", () => {
    const a = p.core.audit.record({ guildId: gid, actorId: null, actionType: 10, reason: "x".repeat(600) });
    const b = p.core.audit.record({ guildId: gid, actorId: null, actionType: 11, options: { channel_id: gid, count: "2" } });
    expect(a.reason).toHaveLength(512);
    expect(p.core.audit.list(gid, { limit: 50 }).map((r) => r.id)).toEqual([b.id, a.id]);
    expect(p.core.audit.list(gid, { limit: 50, after: "" }).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(p.core.audit.list(gid, { limit: 50, actionType: 11 }).map((r) => r.id)).toEqual([b.id]);
    expect(() => p.core.audit.list(gid, { limit: 101 })).toThrow();
  });
});

describe("hierarchy", () => {
  test("the owner manages every role; a member only those strictly below its highest", () => {
    const H = p.core.roles.hierarchy;
    const roles = w.guilds.Lab.roles;
    const bot = u(w.applications.ModBot.bot_user_id);
    const role = (name: string) => p.core.guilds.requireRole(gid, u(roles[name]));
    expect(() => H.requireRoleBelow(gid, bot, role("Mod"))).not.toThrow();
    expect(() => H.requireRoleBelow(gid, bot, role("BotRole"))).toThrow();
    expect(() => H.requireRoleBelow(gid, u(w.users.alice.id), role("High"))).not.toThrow();
    expect(() => H.requireMemberBelow(gid, bot, u(w.users.carol.id))).not.toThrow();
    expect(() => H.requireMemberBelow(gid, bot, u(w.users.bob.id))).toThrow();
    expect(() => H.requireMemberBelow(gid, u(w.users.bob.id), u(w.users.alice.id))).toThrow();
    // bob is ADMINISTRATOR: he may grant any bit, but only below High.
    expect(() => H.requireGrantable(gid, u(w.users.bob.id), 1 << 30)).not.toThrow();
    expect(() => H.requireGrantable(gid, bot, 1 << 3)).toThrow();
  });

  test("reorder moving down keeps the rest in order and renumbers 1..n", () => {
    const alice = u(w.users.alice.id);
    const roles = w.guilds.Lab.roles;
    const ev = recordEvents(p);
    const out = p.core.roles.reorder(gid, alice, [{ roleId: u(roles.High), position: 1 }]);
    expect(out.map((r) => [r.name, r.position])).toEqual([
      ["@everyone", 0],
      ["High", 1],
      ["Low", 2],
      ["Mod", 3],
      ["BotRole", 4],
    ]);
    expect(ev.count("role.updated")).toBe(4);
  });
});

describe("moderation", () => {
  test("editMember checks every field before writing anything", () => {
    const bot = u(w.applications.ModBot.bot_user_id);
    const carol = u(w.users.carol.id);
    const ev = recordEvents(p);
    expect(() => p.core.moderation.editMember(gid, bot, carol, { nick: "new", mute: true })).toThrow();
    expect(p.core.guilds.member(gid, carol)!.nick).toBeNull();
    expect(ev.events).toHaveLength(0);
  });

  test("ban with a span only deletes that member's messages in that guild", () => {
    const bot = u(w.applications.ModBot.bot_user_id);
    const carol = u(w.users.carol.id);
    p.clock.advance(0);
    const here = p.core.messages.create({ channelId: u(w.guilds.Lab.channels.staff), authorId: carol, content: "x" });
    p.core.guilds.addMember(u(w.guilds.Elsewhere.id), carol);
    const there = p.core.messages.create({ channelId: u(w.guilds.Elsewhere.channels.lobby), authorId: carol, content: "y" });
    p.core.moderation.ban(gid, bot, carol, { deleteMessageSeconds: 60 });
    expect(p.core.messages.get(here.id)).toBeNull();
    expect(p.core.messages.get(there.id)).not.toBeNull();
    expect(() => p.core.moderation.ban(gid, bot, carol, { deleteMessageSeconds: 604_801 })).toThrow();
  });
});
