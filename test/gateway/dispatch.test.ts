/**
 * Domain events -> dispatches (spec 6.2, reference-gaps 4): who hears what, under which
 * intent, in which shape. Each test counts the frames every session received (after
 * sync(), which proves nothing else is in flight).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeParley } from "../helpers";
import { Gw, I, seedGatewayWorld, type World } from "./client";

let p: Parley;
let W: World;
const open: Gw[] = [];

async function bot(name: "AllBot" | "PlainBot", intents: number): Promise<Gw> {
  const g = await Gw.open(p);
  open.push(g);
  await g.identify(W.w.applications[name].token, intents);
  await g.sync();
  g.frames = g.frames.filter((f) => f.op !== 0 && f.op !== 11); // keep only what follows
  (g as any).taken = 0;
  return g;
}

async function syncAll(...gs: Gw[]) {
  for (const g of gs) await g.sync();
}

const ts = (gs: Gw[]) => gs.map((g) => g.dispatches().map((f) => f.t));

beforeEach(() => {
  p = makeParley();
  W = seedGatewayWorld(p);
  p.listen();
});

afterEach(async () => {
  for (const g of open.splice(0)) await g.close();
  await p.stop();
});

describe("messages", () => {
  test("MESSAGE_CREATE with content only for sessions that IDENTIFY with MESSAGE_CONTENT", async () => {
    const full = await bot("AllBot", I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const bare = await bot("AllBot", I.GUILD_MESSAGES); // granted, but not asked for
    const plain = await bot("PlainBot", I.GUILD_MESSAGES);
    const deaf = await bot("AllBot", I.GUILDS);
    const embeds = [{ title: "t", description: "d" }];
    const components = [{ type: 1, components: [{ type: 2, style: 1, custom_id: "x", label: "X" }] }];
    const m = p.core.messages.create({
      channelId: W.channel("Lab", "general"),
      authorId: W.person("bob"),
      content: `hi <@${W.person("alice")}>`,
      embeds,
      components,
    });
    await syncAll(full, bare, plain, deaf);
    expect(ts([full, bare, plain, deaf])).toEqual([["MESSAGE_CREATE"], ["MESSAGE_CREATE"], ["MESSAGE_CREATE"], []]);

    const withContent = full.dispatches()[0].d;
    expect(withContent.id).toBe(p.api.flakes.of(m.id));
    expect(withContent.content).toBe(`hi <@${W.w.users.alice.id}>`);
    expect(withContent.embeds).toEqual([expect.objectContaining({ title: "t" })]);
    expect(withContent.components.length).toBe(1);
    expect(withContent.guild_id).toBe(W.w.guilds.Lab.id);
    expect(withContent.channel_id).toBe(W.w.guilds.Lab.channels.general);
    expect(withContent.author).toMatchObject({ id: W.w.users.bob.id, bot: false });
    expect(withContent.member.user).toBeUndefined();
    expect(withContent.mentions.map((u: any) => u.id)).toEqual([W.w.users.alice.id]);

    for (const g of [bare, plain]) {
      const d = g.dispatches()[0].d;
      expect(d.id).toBe(withContent.id);
      expect(d.content).toBe("");
      expect(d.embeds).toEqual([]);
      expect(d.components).toEqual([]);
      expect(d.attachments).toEqual([]);
      expect(d.guild_id).toBe(W.w.guilds.Lab.id);
      expect(d.author.id).toBe(W.w.users.bob.id);
    }
  });

  test("MESSAGE_UPDATE and MESSAGE_DELETE", async () => {
    const g = await bot("AllBot", I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const m = p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("bob"), content: "v1" });
    p.core.messages.edit(m.id, { content: "v2" });
    p.core.messages.delete(m.id);
    await g.sync();
    expect(ts([g])).toEqual([["MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"]]);
    const [, upd, del] = g.dispatches();
    expect(upd.d.content).toBe("v2");
    expect(upd.d.edited_timestamp).not.toBeNull();
    expect(del.d).toEqual({ id: p.api.flakes.of(m.id), channel_id: W.w.guilds.Lab.channels.general, guild_id: W.w.guilds.Lab.id });
  });

  test("mentions in MESSAGE_CREATE and MESSAGE_UPDATE carry the mentioned member, without user, as the reference's do", async () => {
    // discord.py builds a Member from it, so a command's Member converter reads a mention
    // without the members intent (secret.py); without it, the library asks op 8, which is ignored.
    const g = await bot("PlainBot", I.GUILD_MESSAGES);
    const alice = W.w.users.alice.id;
    const carol = W.w.users.carol.id;
    const m = p.core.messages.create({
      channelId: W.channel("Lab", "general"),
      authorId: W.person("bob"),
      content: `hi <@${W.person("alice")}> and <@${W.person("carol")}>`,
    });
    p.core.messages.edit(m.id, { content: `hi again <@${W.person("alice")}>` });
    await g.sync();
    const [create, update] = g.dispatches();
    for (const d of [create.d, update.d]) {
      const mention = d.mentions.find((u: any) => u.id === alice);
      expect(mention.member).toMatchObject({ roles: [], nick: null, joined_at: expect.any(String) });
      expect(mention.member.user).toBeUndefined();
    }
    // Not a member of the server: a plain user, as on the reference.
    const outsider = create.d.mentions.find((u: any) => u.id === carol);
    if (outsider) expect(outsider.member).toBeUndefined();
  });

  test("ephemeral messages are never dispatched", async () => {
    const g = await bot("AllBot", I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const m = p.core.messages.create({
      channelId: W.channel("Lab", "general"),
      authorId: W.botUser("AllBot"),
      content: "psst",
      flags: 64,
      ephemeralUserId: W.person("bob"),
    });
    p.core.messages.edit(m.id, { content: "psst2" });
    p.core.messages.delete(m.id);
    await g.sync();
    expect(ts([g])).toEqual([[]]);
  });

  test("DM messages need DIRECT_MESSAGES and reach only the recipient bot, as an envelope", async () => {
    const dm = await bot("AllBot", I.DIRECT_MESSAGES);
    const noDm = await bot("AllBot", I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const other = await bot("PlainBot", I.DIRECT_MESSAGES | I.GUILD_MESSAGES);
    const ch = p.core.dms.open(W.person("bob"), W.botUser("AllBot"));
    p.core.messages.create({ channelId: ch.id, authorId: W.person("bob"), ciphertext: "b64:opaque" });
    p.core.messages.create({ channelId: ch.id, authorId: W.botUser("AllBot"), content: "plaintext reply" });
    await syncAll(dm, noDm, other);
    expect(ts([dm, noDm, other])).toEqual([["MESSAGE_CREATE", "MESSAGE_CREATE"], [], []]);
    const [fromPerson, fromBot] = dm.dispatches();
    expect(fromPerson.d.guild_id).toBeUndefined();
    expect(fromPerson.d.content).toBe("");
    expect(fromPerson.d.service_e2e_encrypted).toBe(true);
    // A bot's own DM is plaintext and MESSAGE_CONTENT does not gate DMs.
    expect(fromBot.d.content).toBe("plaintext reply");
  });
});

describe("reactions and typing", () => {
  const emoji = { name: "👍", id: null, animated: false };

  test("MESSAGE_REACTION_ADD (with member) and _REMOVE (without) need GUILD_MESSAGE_REACTIONS", async () => {
    const g = await bot("AllBot", I.GUILD_MESSAGE_REACTIONS);
    const none = await bot("AllBot", I.GUILD_MESSAGES);
    const m = p.core.messages.create({ channelId: W.channel("Lab", "general"), authorId: W.person("alice"), content: "x" });
    const base = {
      messageId: m.id,
      channelId: m.channel_id,
      guildId: W.guild("Lab"),
      userId: W.person("bob"),
      emoji,
      messageAuthorId: W.person("alice"),
    };
    p.core.bus.publish([
      { type: "reaction.added", ...base },
      { type: "reaction.removed", ...base },
    ]);
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([["MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE"], ["MESSAGE_CREATE"]]);
    const [add, rem] = g.dispatches();
    expect(add.d).toEqual({
      user_id: W.w.users.bob.id,
      channel_id: W.w.guilds.Lab.channels.general,
      message_id: p.api.flakes.of(m.id),
      guild_id: W.w.guilds.Lab.id,
      member: expect.objectContaining({ user: expect.objectContaining({ id: W.w.users.bob.id }) }),
      emoji: { id: null, name: "👍" },
      message_author_id: W.w.users.alice.id,
      burst: false,
      burst_colors: [],
      type: 0,
    });
    expect(rem.d).toEqual({
      user_id: W.w.users.bob.id,
      channel_id: W.w.guilds.Lab.channels.general,
      message_id: p.api.flakes.of(m.id),
      guild_id: W.w.guilds.Lab.id,
      emoji: { id: null, name: "👍" },
      burst: false,
      type: 0,
    });
  });

  test("DM reactions need DIRECT_MESSAGE_REACTIONS", async () => {
    const g = await bot("AllBot", I.DIRECT_MESSAGE_REACTIONS);
    const guildOnly = await bot("AllBot", I.GUILD_MESSAGE_REACTIONS);
    const ch = p.core.dms.open(W.person("bob"), W.botUser("AllBot"));
    const m = p.core.messages.create({ channelId: ch.id, authorId: W.botUser("AllBot"), content: "hey" });
    p.core.bus.publish([
      {
        type: "reaction.added",
        messageId: m.id,
        channelId: ch.id,
        guildId: null,
        userId: W.person("bob"),
        emoji,
        messageAuthorId: m.author_id,
      },
    ]);
    await syncAll(g, guildOnly);
    expect(ts([g, guildOnly])).toEqual([["MESSAGE_REACTION_ADD"], []]);
    expect(g.dispatches()[0].d.guild_id).toBeUndefined();
    expect(g.dispatches()[0].d.member).toBeUndefined();
  });

  test("TYPING_START: timestamp in seconds, member in guilds; gated by the typing intents", async () => {
    const g = await bot("AllBot", I.GUILD_MESSAGE_TYPING | I.DIRECT_MESSAGE_TYPING);
    const none = await bot("AllBot", I.GUILD_MESSAGES | I.DIRECT_MESSAGES);
    const ch = p.core.dms.open(W.person("bob"), W.botUser("AllBot"));
    p.core.bus.publish([
      {
        type: "typing.started",
        channelId: W.channel("Lab", "general"),
        guildId: W.guild("Lab"),
        userId: W.person("bob"),
        at: 1_800_000_123_456,
      },
      { type: "typing.started", channelId: ch.id, guildId: null, userId: W.person("bob"), at: 1_800_000_124_000 },
    ]);
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([["TYPING_START", "TYPING_START"], []]);
    const [inGuild, inDm] = g.dispatches();
    expect(inGuild.d).toEqual({
      channel_id: W.w.guilds.Lab.channels.general,
      guild_id: W.w.guilds.Lab.id,
      user_id: W.w.users.bob.id,
      timestamp: 1_800_000_123,
      member: expect.objectContaining({ user: expect.objectContaining({ id: W.w.users.bob.id }) }),
    });
    expect(inDm.d).toEqual({ channel_id: p.api.flakes.of(ch.id), user_id: W.w.users.bob.id, timestamp: 1_800_000_124 });
  });
});

describe("presence", () => {
  test("PRESENCE_UPDATE needs GUILD_PRESENCES, one per shared guild", async () => {
    p.core.apps.install(W.app("AllBot"), W.guild("Annex"), W.person("alice"));
    const g = await bot("AllBot", I.GUILD_PRESENCES);
    const none = await bot("AllBot", I.GUILDS | I.GUILD_MEMBERS);
    p.core.users.setPresence(W.person("alice"), "idle"); // alice is in Lab and Annex
    p.core.users.setPresence(W.person("carol"), "dnd"); // carol only in Annex
    await syncAll(g, none);
    expect(ts([none])).toEqual([[]]);
    const ds = g.dispatches("PRESENCE_UPDATE").map((f) => f.d);
    expect(ds.length).toBe(3);
    expect(
      ds
        .filter((d) => d.user.id === W.w.users.alice.id)
        .map((d) => d.guild_id)
        .sort(),
    ).toEqual([W.w.guilds.Lab.id, W.w.guilds.Annex.id].sort());
    expect(ds.find((d) => d.user.id === W.w.users.carol.id)).toEqual({
      user: { id: W.w.users.carol.id },
      guild_id: W.w.guilds.Annex.id,
      status: "dnd",
      activities: [],
      client_status: { web: "dnd" },
    });
  });
});

describe("guild, channels, roles", () => {
  test("CHANNEL_CREATE / UPDATE / DELETE need GUILDS", async () => {
    const g = await bot("AllBot", I.GUILDS);
    const none = await bot("AllBot", I.GUILD_MESSAGES);
    const c = p.core.guilds.createChannel({ guildId: W.guild("Lab"), name: "new-room" } as any);
    p.core.guilds.setOverwrite(c.id, W.guild("Lab"), 0, 0, 2048);
    const admin = p.core.guilds.get(W.guild("Lab"))!.owner_id;
    p.core.channels.delete(admin, c.id);
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([["CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE"], []]);
    const [cr, up, del] = g.dispatches();
    expect(cr.d).toMatchObject({ id: p.api.flakes.of(c.id), name: "new-room", guild_id: W.w.guilds.Lab.id, type: 0 });
    expect(up.d.permission_overwrites).toEqual([{ id: W.w.guilds.Lab.id, type: 0, allow: "0", deny: "2048" }]);
    expect(del.d).toMatchObject({ id: p.api.flakes.of(c.id), name: "new-room", guild_id: W.w.guilds.Lab.id });
    // the overwrites as they were: the rows are gone, the snapshot keeps them
    expect(del.d.permission_overwrites).toEqual([{ id: W.w.guilds.Lab.id, type: 0, allow: "0", deny: "2048" }]);
  });

  test("a channel made and deleted before its creation is published: only CHANNEL_DELETE, never a CHANNEL_CREATE of null", async () => {
    // As a node hearing another's commits late finds it: both events arrive after the row is gone.
    const g = await bot("AllBot", I.GUILDS);
    const admin = p.core.guilds.get(W.guild("Lab"))!.owner_id;
    const c = p.core.transaction(() => {
      const made = p.core.guilds.createChannel({ guildId: W.guild("Lab"), name: "brief" } as any);
      p.core.channels.delete(admin, made.id);
      return made;
    });
    await syncAll(g);
    expect(ts([g])).toEqual([["CHANNEL_DELETE"]]);
    expect(g.dispatches()[0].d).toMatchObject({ id: p.api.flakes.of(c.id), name: "brief" });
  });

  test("GUILD_ROLE_CREATE / UPDATE / DELETE need GUILDS", async () => {
    const g = await bot("AllBot", I.GUILDS);
    const none = await bot("PlainBot", I.GUILD_MESSAGES);
    const r = p.core.guilds.createRole(W.guild("Lab"), { name: "Helpers" });
    p.core.bus.publish([
      { type: "role.updated", guildId: W.guild("Lab"), roleId: r.id },
      { type: "role.deleted", guildId: W.guild("Lab"), roleId: r.id },
    ]);
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([["GUILD_ROLE_CREATE", "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE"], []]);
    const [cr, , del] = g.dispatches();
    expect(cr.d).toEqual({ guild_id: W.w.guilds.Lab.id, role: expect.objectContaining({ id: p.api.flakes.of(r.id), name: "Helpers" }) });
    expect(del.d).toEqual({ guild_id: W.w.guilds.Lab.id, role_id: p.api.flakes.of(r.id) });
  });

  test("GUILD_UPDATE and GUILD_DELETE reach member bots with GUILDS", async () => {
    const g = await bot("AllBot", I.GUILDS);
    const none = await bot("AllBot", I.GUILD_MESSAGES);
    p.core.guilds.update(W.guild("Lab"), { name: "Lab 2" });
    const labFlake = W.w.guilds.Lab.id;
    p.core.guilds.delete(W.guild("Lab"));
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([["GUILD_UPDATE", "GUILD_DELETE"], []]);
    expect(g.dispatches()[0].d).toMatchObject({ id: labFlake, name: "Lab 2" });
    expect(g.dispatches()[1].d).toEqual({ id: labFlake });
  });
});

describe("members", () => {
  test("another member joins, changes, leaves: GUILD_MEMBER_* with GUILD_MEMBERS only", async () => {
    const g = await bot("AllBot", I.GUILDS | I.GUILD_MEMBERS);
    const none = await bot("PlainBot", I.GUILDS);
    const lab = W.guild("Lab");
    p.core.guilds.addMember(lab, W.person("carol"));
    const role = p.core.guilds.createRole(lab, { name: "R" });
    p.core.guilds.addMemberRole(lab, W.person("carol"), role.id);
    p.core.guilds.removeMember(lab, W.person("carol"));
    await syncAll(g, none);
    expect(ts([g, none])).toEqual([
      ["GUILD_MEMBER_ADD", "GUILD_ROLE_CREATE", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"],
      ["GUILD_ROLE_CREATE"],
    ]);
    const [add, , upd, rem] = g.dispatches();
    expect(add.d).toMatchObject({ guild_id: W.w.guilds.Lab.id, user: { id: W.w.users.carol.id }, roles: [] });
    expect(upd.d).toMatchObject({ guild_id: W.w.guilds.Lab.id, user: { id: W.w.users.carol.id }, roles: [p.api.flakes.of(role.id)] });
    expect(rem.d).toEqual({ guild_id: W.w.guilds.Lab.id, user: expect.objectContaining({ id: W.w.users.carol.id }) });
  });

  test("the bot itself added: GUILD_CREATE without unavailable (a join); removed: GUILD_DELETE without unavailable", async () => {
    const plain = await bot("PlainBot", I.GUILDS);
    const watcher = await bot("AllBot", I.GUILDS | I.GUILD_MEMBERS);
    p.core.apps.install(W.app("PlainBot"), W.guild("Annex"), W.person("alice"));
    p.core.guilds.removeMember(W.guild("Lab"), W.botUser("PlainBot"));
    await syncAll(plain, watcher);
    expect(ts([plain])).toEqual([["GUILD_CREATE", "GUILD_DELETE"]]);
    const [gc, gd] = plain.dispatches();
    expect(gc.d.id).toBe(W.w.guilds.Annex.id);
    expect(gc.d.members.some((m: any) => m.user.id === W.w.applications.PlainBot.bot_user_id)).toBe(true);
    // The reference leaves `unavailable` off a join: discord.py dispatches guild_join only then.
    expect(gc.d).not.toHaveProperty("unavailable");
    expect(gd.d).toEqual({ id: W.w.guilds.Lab.id });
    // AllBot is not in Annex; in Lab it sees PlainBot leave as another member.
    expect(ts([watcher])).toEqual([["GUILD_MEMBER_REMOVE"]]);
    expect(watcher.dispatches()[0].d.user.id).toBe(W.w.applications.PlainBot.bot_user_id);
  });

  test("the bot's own member update is sent without GUILD_MEMBERS", async () => {
    const plain = await bot("PlainBot", I.GUILDS);
    const role = p.core.guilds.createRole(W.guild("Lab"), { name: "BotRole" });
    p.core.guilds.addMemberRole(W.guild("Lab"), W.botUser("PlainBot"), role.id);
    await plain.sync();
    expect(ts([plain])).toEqual([["GUILD_ROLE_CREATE", "GUILD_MEMBER_UPDATE"]]);
  });
});

describe("interactions", () => {
  /** A person (bob) runs AllBot's /ping in #general: a real interaction with a real token. */
  function storeInteraction(appId: string): string {
    p.core.commands.upsert(appId, null, { name: "ping", description: "ping", type: 1 } as never);
    const inv = p.core.interactions.runCommand(
      { userId: W.person("bob"), channelId: W.channel("Lab", "general"), applicationId: appId, name: "ping", resolveId: () => null },
      { live: () => true },
    );
    return inv.interaction.id;
  }

  test("INTERACTION_CREATE needs no intent, reaches only that application's live sessions, and is never replayed", async () => {
    const live = await bot("AllBot", 0);
    const other = await bot("PlainBot", I.GUILDS | I.GUILD_MESSAGES);
    const closedOne = await bot("AllBot", I.GUILDS);
    const closedId = p.gateway.sessionsOf(W.app("AllBot")).find((s) => s.intents === I.GUILDS)!.session_id;
    const seqBefore = p.gateway.sessionsOf(W.app("AllBot")).find((s) => s.session_id === closedId)!.seq;
    await closedOne.close();
    for (let i = 0; i < 50 && p.gateway.sessionsOf(W.app("AllBot")).find((s) => s.session_id === closedId)!.connected; i++)
      await Bun.sleep(5);

    const id = storeInteraction(W.app("AllBot")); // publishes interaction.created
    await syncAll(live, other);
    expect(ts([live, other])).toEqual([["INTERACTION_CREATE"], []]);
    expect(live.dispatches()[0].d).toMatchObject({ id: p.api.flakes.of(id), application_id: W.w.applications.AllBot.id, type: 2 });
    expect(p.gateway.sessionsOf(W.app("AllBot")).find((s) => s.session_id === closedId)!.seq).toBe(seqBefore);
  });
});

describe("MESSAGE_CONTENT and the bot's own messages", () => {
  test("a session without MESSAGE_CONTENT gets its own messages' content and those that mention it; others' stay stripped, mentions kept", async () => {
    const plain = await bot("PlainBot", I.GUILDS | I.GUILD_MESSAGES);
    const plainBotUser = p.core.apps.get(W.app("PlainBot"))!.bot_user_id;
    const ch = W.channel("Lab", "general");
    p.core.messages.create({ channelId: ch, authorId: plainBotUser, content: "from me", embeds: [{ type: "rich", title: "mine" }] });
    p.core.messages.create({ channelId: ch, authorId: W.person("bob"), content: `<@${plainBotUser}> hi` });
    p.core.messages.create({
      channelId: ch,
      authorId: W.person("bob"),
      content: `<@${W.person("alice")}> psst`,
      embeds: [{ type: "rich", title: "x" }],
    });
    await syncAll(plain);
    const [own, mention, other] = plain.dispatches().filter((f: any) => f.t === "MESSAGE_CREATE");
    expect(own.d).toMatchObject({ content: "from me", embeds: [{ title: "mine" }] });
    const flake = p.api.flakes.of(plainBotUser);
    expect(mention.d).toMatchObject({ content: `<@${flake}> hi`, mentions: [{ id: flake }] });
    expect(other.d).toMatchObject({ content: "", embeds: [], mentions: [{ id: W.w.users.alice.id }] });
  });

  test("the bot's own reply shows its text, not the replied-to message's: referenced_message follows the rule on itself", async () => {
    const plain = await bot("PlainBot", I.GUILDS | I.GUILD_MESSAGES);
    const full = await bot("AllBot", I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT);
    const plainBotUser = p.core.apps.get(W.app("PlainBot"))!.bot_user_id;
    const ch = W.channel("Lab", "general");
    const secret = p.core.messages.create({ channelId: ch, authorId: W.person("bob"), content: "not for bots" });
    p.core.messages.create({
      channelId: ch,
      authorId: plainBotUser,
      content: "noted",
      reference: { messageId: secret.id, channelId: ch, guildId: null },
    });
    await syncAll(plain, full);
    const reply = (g: Gw) => g.dispatches().filter((f: any) => f.t === "MESSAGE_CREATE")[1].d;
    expect(reply(plain)).toMatchObject({ content: "noted", referenced_message: { content: "" } });
    expect(reply(full)).toMatchObject({ content: "noted", referenced_message: { content: "not for bots" } });
  });
});
