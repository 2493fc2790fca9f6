/**
 * A real discord.js 14 bot beside people running their server (issue 29): what people do
 * through the people's API reaches the bot as the reference's events (CHANNEL_UPDATE per
 * reordered channel, GUILD_MEMBER_UPDATE for roles and nickname, GUILD_MEMBER_REMOVE for a
 * ban, GUILD_UPDATE for a new owner) and as audit log entries naming the person; the
 * bot's own `guild.channels.setPositions` reorders through PATCH /guilds/{id}/channels,
 * and its `guild.edit` changes the server through PATCH /guilds/{id}; overwrites replaced
 * by the bot's `permissionOverwrites.set`, or carried from a category to its synced
 * channel, are the overwrite entries discord.js reads (the channel as target, the role as
 * extra).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  AuditLogEvent,
  Client,
  Events,
  GatewayIntentBits as I,
  PermissionFlagsBits,
  type Guild,
  type GuildMember,
  type TextChannel,
} from "discord.js";
import { makeParley } from "../helpers";
import { next } from "./support";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/world";

let p: Parley;
let w: SeedAnswer;
let bot: Client;
let base: string;
let guild: Guild;

const id = (flake: string) => p.api.flakes.uuid(flake)!;
/** A people's API request as a seeded person. */
async function as(user: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}/api/client/v1${path}`, {
    method,
    headers: { Authorization: `Session ${w.users[user].token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

beforeAll(async () => {
  p = makeParley();
  w = p.seed({
    users: [{ name: "olive" }, { name: "mem" }, { name: "carol" }],
    guilds: [
      {
        name: "Club",
        owner: "olive",
        members: ["mem", "carol"],
        roles: [
          { name: "Helper", permissions: [] },
          { name: "Bots", permissions: ["VIEW_AUDIT_LOG", "MANAGE_CHANNELS", "MANAGE_ROLES", "MANAGE_GUILD"], members: ["Keeper"] },
        ],
        channels: [{ name: "general" }, { name: "staff" }, { name: "Team", type: 4 }],
      },
    ],
    applications: [
      { name: "Keeper", owner: "olive", intents: ["GUILDS", "GUILD_MEMBERS"], approved_privileged: ["GUILD_MEMBERS"], install: ["Club"] },
    ],
  });
  p.listen();
  base = p.api.urls.base;
  bot = new Client({ intents: [I.Guilds, I.GuildMembers], rest: { api: `${base}/api` } });
  const ready = next(bot, Events.ClientReady, () => true, 10_000);
  await bot.login(w.applications.Keeper.token);
  await ready;
  guild = bot.guilds.cache.get(w.guilds.Club.id)!;
  // Members arrive with GUILD_CREATE (GUILD_MEMBERS): the cache knows them.
}, 30_000);

afterAll(async () => {
  await Promise.race([bot?.destroy(), Bun.sleep(2000)]);
  await p?.stop();
});

describe("what people do, as a discord.js bot sees it", () => {
  test("a person moves a channel into a category: CHANNEL_UPDATE with its parent; the audit log names the person", async () => {
    const staff = w.guilds.Club.channels.staff;
    const moved = next<[unknown, { id: string; parentId: string | null }]>(bot, Events.ChannelUpdate, (_old, c) => c.id === staff);
    await as("olive", "PATCH", `/guilds/${id(w.guilds.Club.id)}/channels`, [
      { id: id(staff), parent_id: id(w.guilds.Club.channels.Team), position: 0 },
    ]);
    const [, after] = await moved;
    expect(after.parentId).toBe(w.guilds.Club.channels.Team);
    const logs = await guild.fetchAuditLogs({ type: AuditLogEvent.ChannelUpdate });
    const entry = logs.entries.find((e) => e.targetId === staff)!;
    expect(entry.executorId).toBe(w.users.olive.id);
    expect(entry.changes).toContainEqual(expect.objectContaining({ key: "parent_id", new: w.guilds.Club.channels.Team }));
  });

  test("roles and nickname: GUILD_MEMBER_UPDATE, and audit entries 24 and 25 by the person", async () => {
    const mem = w.users.mem.id;
    const updated = next<[unknown, GuildMember]>(bot, Events.GuildMemberUpdate, (_o, m) => m.id === mem && m.nickname === "Mimi");
    await as("olive", "PATCH", `/guilds/${id(w.guilds.Club.id)}/members/${id(mem)}`, {
      nick: "Mimi",
      roles: [id(w.guilds.Club.roles.Helper)],
    });
    const [, m] = await updated;
    expect(m.roles.cache.has(w.guilds.Club.roles.Helper)).toBe(true);
    const roles = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberRoleUpdate });
    expect(roles.entries.find((e) => e.targetId === mem)?.executorId).toBe(w.users.olive.id);
    const nick = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberUpdate });
    expect(nick.entries.find((e) => e.targetId === mem)?.changes).toContainEqual(expect.objectContaining({ key: "nick", new: "Mimi" }));
  });

  test("a ban by a person: GUILD_MEMBER_REMOVE and an audit entry with the reason", async () => {
    const carol = w.users.carol.id;
    const removed = next<[GuildMember]>(bot, Events.GuildMemberRemove, (m) => m.id === carol);
    await as("olive", "PUT", `/guilds/${id(w.guilds.Club.id)}/bans/${id(carol)}`, { reason: "spam" });
    await removed;
    const bans = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberBanAdd });
    expect(bans.entries.find((e) => e.targetId === carol)).toMatchObject({ executorId: w.users.olive.id, reason: "spam" });
  });

  test("ownership given away: GUILD_UPDATE with the new owner", async () => {
    const updated = next<[unknown, Guild]>(bot, Events.GuildUpdate, (_o, g) => g.ownerId === w.users.mem.id);
    await as("olive", "PUT", `/guilds/${id(w.guilds.Club.id)}/owner`, { owner_id: id(w.users.mem.id) });
    await updated;
    expect(bot.guilds.cache.get(w.guilds.Club.id)!.ownerId).toBe(w.users.mem.id);
  });

  test("the bot edits the server with guild.edit: GUILD_UPDATE, and a GUILD_UPDATE audit entry by the bot", async () => {
    const staff = w.guilds.Club.channels.staff;
    const updated = next<[unknown, Guild]>(bot, Events.GuildUpdate, (_o, g) => g.name === "Club House");
    const edited = await guild.edit({
      name: "Club House",
      description: "Members only",
      systemChannel: staff,
      defaultMessageNotifications: 1,
      reason: "rebrand",
    });
    expect([edited.name, edited.description, edited.systemChannelId, edited.defaultMessageNotifications]).toEqual([
      "Club House",
      "Members only",
      staff,
      1,
    ]);
    const [, seen] = await updated;
    expect(seen.systemChannelId).toBe(staff);
    const logs = await guild.fetchAuditLogs({ type: AuditLogEvent.GuildUpdate, user: bot.user!.id });
    const entry = logs.entries.find((e) => e.changes.some((c) => c.key === "name" && c.new === "Club House"))!;
    expect([entry.executorId, entry.reason]).toEqual([bot.user!.id, "rebrand"]);
    await expect(guild.edit({ name: "x" })).rejects.toMatchObject({ code: 50035 });
  });

  test("the bot reorders channels itself with setPositions", async () => {
    const general = w.guilds.Club.channels.general;
    const moved = next<[unknown, { id: string }]>(bot, Events.ChannelUpdate, (_old, c) => c.id === general);
    await guild.channels.setPositions([{ channel: general, position: 7 }]);
    await moved;
    expect(p.core.guilds.channel(id(general))!.position).toBe(7);
    await expect(
      guild.channels.setPositions([
        { channel: general, parent: w.guilds.Club.channels.Team },
        { channel: w.guilds.Club.channels.staff, parent: null },
      ]),
    ).rejects.toMatchObject({
      code: 40009,
    });
  });

  test("overwrites replaced by the bot, and carried from a category: the overwrite entries discord.js reads", async () => {
    const { general, staff, Team } = w.guilds.Club.channels;
    const helper = guild.roles.cache.get(w.guilds.Club.roles.Helper)!;
    const deny = PermissionFlagsBits.ManageChannels;
    await (guild.channels.cache.get(general) as TextChannel).permissionOverwrites.set([{ id: helper.id, deny: [deny] }], "helpers out");
    const mine = await guild.fetchAuditLogs({ type: AuditLogEvent.ChannelOverwriteCreate, user: bot.user!.id });
    const set = mine.entries.first()!;
    expect([set.targetId, set.extra, set.reason]).toEqual([general, helper, "helpers out"]);
    expect(set.changes).toContainEqual({ key: "deny", new: String(deny) });

    // #staff sits in Team (the first test) with the same (no) overwrites: it follows Team's change.
    await as("mem", "PUT", `/channels/${id(Team)}/overwrites/${id(helper.id)}`, { type: "role", deny: ["MANAGE_CHANNELS"] });
    const theirs = await guild.fetchAuditLogs({ type: AuditLogEvent.ChannelOverwriteCreate, user: w.users.mem.id });
    expect(theirs.entries.map((e) => [e.targetId, e.extra])).toEqual([
      [staff, helper],
      [Team, helper],
    ]);
  });
});
