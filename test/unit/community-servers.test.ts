/**
 * Running a server, in the core (issue "Running a community"): giving it away, deleting
 * it, leaving it; channels reordered and grouped in categories (reference-gaps 2.1, 2.6);
 * channel fields; invites, bot installs and server edits in the audit log, which members
 * with VIEW_AUDIT_LOG read filtered by action and by who acted. Ranks as docs/security.md
 * "Trust" says: rights are the core's, whichever surface asks.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { internalId, makeParley, recordEvents, rowCounts } from "../helpers";
import { AUDIT } from "../../src/core/audit";
import { DomainError, OPERATOR } from "../../src/core";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

const WORLD = {
  users: [{ name: "owner" }, { name: "mod" }, { name: "member" }, { name: "admin", admin: true }, { name: "stranger" }],
  guilds: [
    {
      name: "Club",
      owner: "owner",
      members: ["mod", "member"],
      roles: [
        {
          name: "Mods",
          permissions: ["MANAGE_CHANNELS", "VIEW_AUDIT_LOG", "KICK_MEMBERS", "BAN_MEMBERS", "SEND_MESSAGES", "CREATE_INSTANT_INVITE"],
          members: ["mod"],
        },
      ],
      channels: [
        { name: "general" },
        { name: "Text", type: 4 },
        { name: "chat", parent: "Text" },
        { name: "memes", parent: "Text" },
        { name: "Voice", type: 4 },
        { name: "lounge", type: 2, parent: "Voice" },
        { name: "rules" },
      ],
    },
  ],
  applications: [{ name: "Helper", owner: "owner", intents: ["GUILDS"] }],
};

let p: Parley;
let w: SeedAnswer;
let guild: string;
const id = (flake: string) => internalId(p, flake);
const person = (name: string) => id(w.users[name].id);
const channel = (name: string) => id(w.guilds.Club.channels[name]);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { kind: e.kind, message: e.message, code: e.issues[0]?.code };
    throw e;
  }
  throw new Error("did not throw");
};

beforeEach(() => {
  p = makeParley();
  w = p.seed(structuredClone(WORLD));
  guild = id(w.guilds.Club.id);
});

describe("owning a server", () => {
  test("the owner cannot leave without giving the server away; after a transfer they can, and the new owner is above everyone", () => {
    expect(code(() => p.core.people.leave(person("owner"), guild))).toMatchObject({ kind: "invalid", code: "OWNER_CANNOT_LEAVE" });
    const ev = recordEvents(p);
    p.core.servers.transfer(person("owner"), guild, person("member"), "retiring");
    expect(p.core.guilds.require(guild).owner_id).toBe(person("member"));
    expect(ev.of("guild.updated")).toEqual([{ type: "guild.updated", guildId: guild }]);
    const [entry] = p.core.audit.list(guild, { limit: 1 });
    expect(entry).toMatchObject({ action_type: AUDIT.GUILD_UPDATE, actor_id: person("owner"), target_id: guild, reason: "retiring" });
    expect(JSON.parse(entry.changes)).toEqual([{ key: "owner_id", old_value: person("owner"), new_value: person("member") }]);
    // The new owner is out of everyone's reach; the old one may now leave.
    expect(code(() => p.core.moderation.kick(guild, person("mod"), person("member")))).toMatchObject({ kind: "forbidden" });
    p.core.people.leave(person("owner"), guild);
    expect(p.core.guilds.isMember(guild, person("owner"))).toBe(false);
  });

  test("only the owner (or an instance administrator, or the operator) gives a server away, and only to a person who is a member", () => {
    expect(code(() => p.core.servers.transfer(person("mod"), guild, person("mod")))).toMatchObject({ kind: "forbidden" });
    expect(code(() => p.core.servers.transfer(person("stranger"), guild, person("stranger")))).toMatchObject({ kind: "not_found" });
    expect(code(() => p.core.servers.transfer(person("owner"), guild, person("stranger")))).toMatchObject({ kind: "not_found" });
    const bot = id(w.applications.Helper.bot_user_id);
    p.core.apps.install(id(w.applications.Helper.id), guild, person("owner"));
    expect(code(() => p.core.servers.transfer(person("owner"), guild, bot))).toMatchObject({ kind: "invalid", code: "OWNER_INVALID" });
    expect(p.core.guilds.require(guild).owner_id).toBe(person("owner"));
    p.core.servers.transfer(person("admin"), guild, person("mod"));
    p.core.servers.transfer(OPERATOR, guild, person("member"));
    expect(p.core.guilds.require(guild).owner_id).toBe(person("member"));
  });

  test("deleting a server says what goes, then takes it all: members hear guild.deleted, nothing of it is left", () => {
    const said = p.core.messages.send(person("member"), channel("general"), { content: "hello" });
    expect(said.content).toBe("hello");
    expect(code(() => p.core.servers.delete(person("mod"), guild))).toMatchObject({ kind: "forbidden" });
    expect(code(() => p.core.servers.deletion(person("stranger"), guild))).toMatchObject({ kind: "not_found" });
    const asked = p.core.servers.deletion(person("owner"), guild);
    // Five channels people talk in, under two categories: a category is not a channel here.
    expect(asked).toMatchObject({ channels: 5, categories: 2, messages: 1, members: 3, roles: 1 });
    const ev = recordEvents(p);
    const gone = p.core.servers.delete(person("owner"), guild);
    expect(gone).toEqual(asked);
    expect(ev.of("guild.deleted")).toEqual([
      { type: "guild.deleted", guildId: guild, memberIds: expect.arrayContaining([person("owner"), person("mod"), person("member")]) },
    ]);
    expect(p.core.guilds.get(guild)).toBeNull();
    const left = p.store.db
      .query(
        "SELECT (SELECT count(*) FROM channels WHERE guild_id = ?1) + (SELECT count(*) FROM members WHERE guild_id = ?1) + (SELECT count(*) FROM roles WHERE guild_id = ?1) + (SELECT count(*) FROM audit_log WHERE guild_id = ?1) AS n",
      )
      .get(guild) as { n: number };
    expect(left.n).toBe(0);
    expect(rowCounts(p, ["messages"]).messages).toBe(0);
  });

  test("an instance administrator lists every server with its owner and counts, and may delete any; nobody else may list", () => {
    const list = p.core.servers.list(person("admin"));
    expect(list.map((s) => [s.guild.name, s.owner?.username, s.memberCount, s.channelCount])).toEqual([["Club", "owner", 3, 5]]);
    expect(p.core.servers.list(OPERATOR, "clu")).toHaveLength(1);
    expect(p.core.servers.list(OPERATOR, "%")).toHaveLength(0);
    expect(code(() => p.core.servers.list(person("owner")))).toMatchObject({ kind: "forbidden" });
    p.core.servers.delete(person("admin"), guild);
    expect(p.core.servers.list(OPERATOR)).toEqual([]);
  });

  test("editing the server needs MANAGE_GUILD and is audited (GUILD_UPDATE) with what changed", () => {
    expect(code(() => p.core.servers.update(person("mod"), guild, { name: "Mine" }))).toMatchObject({ kind: "forbidden" });
    p.core.servers.update(person("owner"), guild, { name: "Club House", systemChannelId: channel("rules") });
    const [entry] = p.core.audit.list(guild, { limit: 1, actionType: AUDIT.GUILD_UPDATE });
    expect(JSON.parse(entry.changes)).toEqual([
      { key: "name", old_value: "Club", new_value: "Club House" },
      { key: "system_channel_id", old_value: channel("general"), new_value: channel("rules") },
    ]);
    expect(code(() => p.core.servers.update(person("owner"), guild, { systemChannelId: channel("Text") }))).toMatchObject({
      code: "CHANNEL_TYPE_INVALID",
    });
    // Nothing changed: no entry.
    p.core.servers.update(person("owner"), guild, { name: "Club House" });
    expect(p.core.audit.list(guild, { limit: 10, actionType: AUDIT.GUILD_UPDATE })).toHaveLength(1);
  });
});

describe("channels in order and in categories (PATCH /guilds/{id}/channels)", () => {
  test("listed channels take their positions and one may change category: CHANNEL_UPDATE and an audit entry each", () => {
    const ev = recordEvents(p);
    const out = p.core.channels.reorder(person("mod"), guild, [
      { channelId: channel("rules"), position: 0 },
      { channelId: channel("general"), position: 7 },
      { channelId: channel("memes"), parentId: null },
    ]);
    expect(out.find((c) => c.id === channel("rules"))!.position).toBe(0);
    expect(out.find((c) => c.id === channel("memes"))!.parent_id).toBeNull();
    expect(
      ev
        .of("channel.updated")
        .map((e) => e.channelId)
        .sort(),
    ).toEqual([channel("general"), channel("memes"), channel("rules")].sort());
    const entries = p.core.audit.list(guild, { limit: 10, actionType: AUDIT.CHANNEL_UPDATE });
    expect(entries).toHaveLength(3);
    expect(entries.every((e) => e.actor_id === person("mod"))).toBe(true);
    expect(JSON.parse(entries.find((e) => e.target_id === channel("memes"))!.changes)).toEqual([
      { key: "parent_id", old_value: channel("Text") },
    ]);
  });

  test("two channels changing category in one request: 400 40009, and nothing moves", () => {
    const before = p.core.guilds.channels(guild);
    const ev = recordEvents(p);
    const e = code(() =>
      p.core.channels.reorder(person("owner"), guild, [
        { channelId: channel("chat"), parentId: channel("Voice") },
        { channelId: channel("rules"), parentId: channel("Text") },
      ]),
    );
    expect(e).toMatchObject({ kind: "parent_limit" });
    const { errorToStatusBody } = require("../../src/wire/errors") as typeof import("../../src/wire/errors");
    const err = new DomainError("parent_limit", "Only one channel may change parent_id per request");
    expect(errorToStatusBody(err)).toMatchObject({ status: 400, body: { code: 40009 } });
    expect(p.core.guilds.channels(guild)).toEqual(before);
    expect(ev.all).toEqual([]);
    // Listing a channel with its current parent is no change of parent.
    p.core.channels.reorder(person("owner"), guild, [
      { channelId: channel("chat"), parentId: channel("Text"), position: 3 },
      { channelId: channel("rules"), parentId: channel("Text") },
    ]);
    expect(p.core.guilds.channel(channel("rules"))!.parent_id).toBe(channel("Text"));
  });

  test("a category holds no category; a parent is a category of this server; an unknown id is named by its index", () => {
    expect(
      code(() => p.core.channels.reorder(person("owner"), guild, [{ channelId: channel("Voice"), parentId: channel("Text") }])),
    ).toMatchObject({ code: "CHANNEL_PARENT_INVALID" });
    expect(
      code(() => p.core.channels.reorder(person("owner"), guild, [{ channelId: channel("rules"), parentId: channel("general") }])),
    ).toMatchObject({ code: "CHANNEL_PARENT_INVALID" });
    const e = code(() =>
      p.core.channels.reorder(person("owner"), guild, [
        { channelId: channel("rules"), position: 1 },
        { channelId: null, position: 2 },
      ]),
    );
    expect(e).toMatchObject({ kind: "invalid", code: "CHANNEL_INVALID", message: expect.stringContaining("[1].id") });
    expect(code(() => p.core.channels.reorder(person("owner"), guild, [{ channelId: channel("rules"), position: -1 }]))).toMatchObject({
      kind: "invalid",
    });
  });

  test("rights: MANAGE_CHANNELS (a member without it: 403), in the channel and in the category it moves to; a stranger sees nothing", () => {
    expect(code(() => p.core.channels.reorder(person("member"), guild, [{ channelId: channel("rules"), position: 0 }]))).toMatchObject({
      kind: "forbidden",
    });
    expect(code(() => p.core.channels.reorder(person("stranger"), guild, [{ channelId: channel("rules"), position: 0 }]))).toMatchObject({
      kind: "not_found",
    });
    const mods = id(w.guilds.Club.roles.Mods);
    p.core.guilds.setOverwrite(channel("Voice"), mods, 0, 0, 1 << 4); // deny MANAGE_CHANNELS in the Voice category
    expect(
      code(() => p.core.channels.reorder(person("mod"), guild, [{ channelId: channel("rules"), parentId: channel("Voice") }])),
    ).toMatchObject({ kind: "forbidden" });
    expect(p.core.guilds.channel(channel("rules"))!.parent_id).toBeNull();
  });

  test("lock_permissions takes the new category's overwrites; it needs MANAGE_ROLES and bits the actor may write", () => {
    const everyone = guild;
    p.core.guilds.setOverwrite(channel("Text"), everyone, 0, 0, 1 << 11); // the category denies SEND_MESSAGES
    expect(
      code(() =>
        p.core.channels.reorder(person("mod"), guild, [{ channelId: channel("rules"), parentId: channel("Text"), lockPermissions: true }]),
      ),
    ).toMatchObject({ kind: "forbidden" });
    p.core.channels.reorder(person("owner"), guild, [{ channelId: channel("rules"), parentId: channel("Text"), lockPermissions: true }]);
    expect(p.core.guilds.overwrites(channel("rules"))).toEqual([
      { channel_id: channel("rules"), target_id: everyone, target_type: 0, allow: 0, deny: 1 << 11 },
    ]);
  });

  test("deleting a category keeps its children at the top level, one channel.updated each (reference-gaps 2.6)", () => {
    const ev = recordEvents(p);
    p.core.channels.delete(person("owner"), channel("Text"));
    expect(p.core.guilds.channel(channel("chat"))!.parent_id).toBeNull();
    expect(p.core.guilds.channel(channel("memes"))!.parent_id).toBeNull();
    expect(ev.of("channel.updated").map((e) => e.channelId)).toEqual([channel("chat"), channel("memes")]);
    expect(ev.count("channel.deleted")).toBe(1);
  });

  test("channel fields: name 1-100, topic up to 1024, slow mode 0-21600, NSFW; each refusal names its field", () => {
    const c = p.core.channels.edit(person("mod"), channel("general"), { name: "lobby", topic: "Say hi", rateLimitPerUser: 30, nsfw: true });
    expect(c).toMatchObject({ name: "lobby", topic: "Say hi", rate_limit_per_user: 30, nsfw: 1 });
    expect(code(() => p.core.channels.edit(person("mod"), channel("general"), { name: "x".repeat(101) }))).toMatchObject({
      message: expect.stringContaining("name"),
    });
    expect(code(() => p.core.channels.edit(person("mod"), channel("general"), { topic: "x".repeat(1025) }))).toMatchObject({
      message: expect.stringContaining("topic"),
    });
    expect(code(() => p.core.channels.edit(person("mod"), channel("general"), { rateLimitPerUser: 21601 }))).toMatchObject({
      message: expect.stringContaining("rate_limit_per_user"),
    });
    expect(code(() => p.core.channels.edit(person("member"), channel("general"), { topic: "mine" }))).toMatchObject({ kind: "forbidden" });
  });
});

describe("invites, installs and the audit log as people read it", () => {
  test("an invite with expiry and uses is listed with its uses and creator; revoking it is audited (INVITE_CREATE 40, INVITE_DELETE 42)", () => {
    const inv = p.core.invites.create(person("mod"), channel("general"), { maxAge: 3600, maxUses: 2 });
    p.core.invites.join(inv.code, person("stranger"));
    const listed = p.core.invites.forGuild(person("mod"), guild).map((i) => p.core.reads.invite(i));
    expect(listed.map((m) => [m.invite.code, m.invite.uses, m.invite.max_uses, m.invite.max_age, m.inviter?.username])).toEqual([
      [inv.code, 1, 2, 3600, "mod"],
    ]);
    expect(code(() => p.core.invites.forGuild(person("member"), guild))).toMatchObject({ kind: "forbidden" });
    expect(code(() => p.core.invites.delete(inv.code, person("member")))).toMatchObject({ kind: "forbidden" });
    p.core.invites.delete(inv.code, person("owner"), "spam");
    const entries = p.core.audit.list(guild, { limit: 10 });
    expect(entries.map((e) => [e.action_type, e.actor_id, e.reason])).toEqual([
      [AUDIT.INVITE_DELETE, person("owner"), "spam"],
      [AUDIT.INVITE_CREATE, person("mod"), null],
    ]);
    expect(JSON.parse(entries[1].changes)).toEqual(
      expect.arrayContaining([
        { key: "code", new_value: inv.code },
        { key: "channel_id", new_value: channel("general") },
        { key: "inviter_id", new_value: person("mod") },
        { key: "max_uses", new_value: 2 },
        { key: "max_age", new_value: 3600 },
      ]),
    );
    expect(JSON.parse(entries[0].changes)).toContainEqual({ key: "uses", old_value: 1 });
    // Expired on the one clock: gone from the list.
    const later = p.core.invites.create(person("mod"), channel("general"), { maxAge: 60 });
    p.clock.advance(60_000);
    expect(p.core.invites.forGuild(person("owner"), guild).map((i) => i.code)).not.toContain(later.code);
  });

  test("installing a bot is audited as BOT_ADD (28) with the bot as its target, once", () => {
    const app = id(w.applications.Helper.id);
    const bot = id(w.applications.Helper.bot_user_id);
    p.core.apps.install(app, guild, person("owner"));
    p.core.apps.install(app, guild, person("owner"));
    const entries = p.core.audit.list(guild, { limit: 10, actionType: AUDIT.BOT_ADD });
    expect(entries.map((e) => [e.actor_id, e.target_id])).toEqual([[person("owner"), bot]]);
    expect(
      p.core.reads
        .auditLog(entries)
        .users.map((u) => u.username)
        .sort(),
    ).toEqual(["Helper", "owner"]);
  });

  test("members with VIEW_AUDIT_LOG read it filtered by action and by person, with the names the entries point at", () => {
    p.core.moderation.ban(guild, person("mod"), person("stranger"), { reason: "spam" });
    p.core.channels.edit(person("owner"), channel("general"), { topic: "rules apply" });
    const mods = id(w.guilds.Club.roles.Mods);
    p.core.roles.edit(guild, mods, person("owner"), { name: "Moderators" });
    expect(p.core.audit.forMember(person("mod"), guild, { limit: 50 })).toHaveLength(3);
    expect(p.core.audit.forMember(person("mod"), guild, { limit: 50, actorId: person("owner") }).map((e) => e.action_type)).toEqual([
      AUDIT.ROLE_UPDATE,
      AUDIT.CHANNEL_UPDATE,
    ]);
    const bans = p.core.audit.forMember(person("mod"), guild, { limit: 50, actionType: AUDIT.MEMBER_BAN_ADD });
    expect(bans.map((e) => [e.actor_id, e.target_id, e.reason])).toEqual([[person("mod"), person("stranger"), "spam"]]);
    const model = p.core.reads.auditLog(p.core.audit.forMember(person("mod"), guild, { limit: 50 }));
    expect(model.users.map((u) => u.username).sort()).toEqual(["mod", "owner", "stranger"]);
    expect(model.channels.map((c) => c.name)).toEqual(["general"]);
    expect(model.roles.map((r) => r.name)).toEqual(["Moderators"]);
    expect(code(() => p.core.audit.forMember(person("member"), guild, { limit: 50 }))).toMatchObject({ kind: "forbidden" });
    expect(code(() => p.core.audit.forMember(person("stranger"), guild, { limit: 50 }))).toMatchObject({ kind: "not_found" });
  });

  test("bans are listed with their reasons, and an unban is audited", () => {
    p.core.moderation.ban(guild, person("mod"), person("member"), { reason: "rude" });
    expect(p.core.moderation.bans(guild, person("mod"), { limit: 1000 }).map((b) => [b.user.username, b.ban.reason])).toEqual([
      ["member", "rude"],
    ]);
    p.core.moderation.unban(guild, person("mod"), person("member"), "apologised");
    expect(p.core.moderation.bans(guild, person("mod"), { limit: 1000 })).toEqual([]);
    expect(p.core.audit.list(guild, { limit: 1 })[0]).toMatchObject({ action_type: AUDIT.MEMBER_BAN_REMOVE, reason: "apologised" });
  });
});
