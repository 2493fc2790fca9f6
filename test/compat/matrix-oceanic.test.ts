/**
 * The compatibility matrix, oceanic.js 1.15 column: a real oceanic.js bot per scenario,
 * in its usual style (a Client with cached structures, events, rest.* routes), in this
 * process (oceanic runs under Bun unchanged) against a real Parley on a free port;
 * people are played through the harness (src/testing). One server and one FullBot are
 * shared; scenarios that end sessions or need other rate limits get their own server.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import {
  ApplicationCommandOptionTypes,
  Base,
  ButtonStyles,
  ChannelTypes,
  Client,
  CommandInteraction,
  ComponentInteraction,
  ComponentTypes,
  DiscordRESTError,
  OverwriteTypes,
  type Guild,
  type TextChannel,
  type Message,
} from "oceanic.js";
import { scenario } from "./matrix";
import { recordEvents } from "../helpers";
import {
  BURST,
  exhaustMessageBucket,
  expireAfterClose,
  liveSessions,
  type MatrixServer,
  personTypes,
  setInstalled,
  smallBucketLimits,
  smallGlobalLimits,
  startMatrix,
  until,
  WELCOME,
} from "./bots/js-world";
import { next } from "./support";
import { faultCells } from "./fault-cells";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "oceanic.js";
type IntentName =
  | "GUILDS"
  | "GUILD_MEMBERS"
  | "GUILD_MESSAGES"
  | "MESSAGE_CONTENT"
  | "DIRECT_MESSAGES"
  | "GUILD_MESSAGE_REACTIONS"
  | "GUILD_MESSAGE_TYPING";
const FULL: IntentName[] = [
  "GUILDS",
  "GUILD_MEMBERS",
  "GUILD_MESSAGES",
  "MESSAGE_CONTENT",
  "DIRECT_MESSAGES",
  "GUILD_MESSAGE_REACTIONS",
  "GUILD_MESSAGE_TYPING",
];
const PLAIN: IntentName[] = ["GUILDS", "GUILD_MESSAGES"];

let m: MatrixServer;
let bot: Client;
const clients: Client[] = [];
const servers: MatrixServer[] = [];

interface Tracked {
  /** The scopes of 429s oceanic's request handler met and retried (from its debug lines). */
  limited: string[];
  errors: Error[];
}
const tracking = new WeakMap<Client, Tracked>();

function newClient(s: MatrixServer, token: string, intents: IntentName[]): Client {
  const c = new Client({ auth: `Bot ${token}`, rest: { baseURL: s.sdk.restBase }, gateway: { intents } });
  const t: Tracked = { limited: [], errors: [] };
  c.on("debug", (d: unknown) => {
    const line = String(d);
    const hit = /(Global|Unexpected) RateLimit:[\s\S]*Scope (\w+)/.exec(line);
    if (hit) t.limited.push(hit[2]);
  });
  // Without an error listener an emitted error would throw out of the library.
  c.on("error", (e: unknown) => void t.errors.push(e instanceof Error ? e : new Error(String(e))));
  tracking.set(c, t);
  clients.push(c);
  return c;
}

async function connect(c: Client): Promise<Client> {
  const ready = next(c, "ready");
  await c.connect();
  await ready;
  return c;
}

async function server(config = {}): Promise<MatrixServer> {
  const s = await startMatrix(config);
  servers.push(s);
  return s;
}

const W = () => m.sdk.world;
const ch = (name: string) => m.sdk.channelId(name);

/** The createdAt oceanic.js reads from ids (a person's message, a click on the bot's button) against the server's time. */
async function epochProbe(tag: string, shimmed: boolean): Promise<void> {
  const got = next<[Message]>(bot, "messageCreate", (msg) => msg.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [msg] = await got;
  expectLibraryTime(msg.createdAt.getTime(), msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));
  // The `timestamp` field comes from the payload, not the id: right either way.
  expect(msg.timestamp.getTime()).toBe(await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `oc-epoch-${tag}`;
  const panel = await bot.rest.channels.createMessage(ch("ops"), {
    content: "when?",
    components: [
      {
        type: ComponentTypes.ACTION_ROW,
        components: [{ type: ComponentTypes.BUTTON, customID: custom, label: "When", style: ButtonStyles.PRIMARY }],
      },
    ],
  });
  const clicked = next<[ComponentInteraction]>(
    bot,
    "interactionCreate",
    (i) => i instanceof ComponentInteraction && i.data.customID === custom,
  );
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [click] = await clicked;
  await click.deferUpdate();
  expectLibraryTime(click.createdAt.getTime(), click.id, shimmed);
  expectServerTime(click.id, { from, to });
}

beforeAll(async () => {
  m = await server();
  bot = await connect(newClient(m, m.sdk.tokenOf("FullBot"), FULL));
});

afterAll(async () => {
  for (const c of clients) c.disconnect(false);
  for (const s of servers) await s.sdk.stop();
});

describe("oceanic.js matrix", () => {
  scenario(LIB, "login", "ready with the guild, its channels and every member cached", async () => {
    expect(bot.user.id).toBe(W().applications.FullBot.bot_user_id);
    const guild = bot.guilds.get(W().guilds.Lab.id)!;
    expect(guild.name).toBe("Lab");
    expect([...guild.channels.values()].map((c) => c.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(guild.channels.get(ch("general"))?.type).toBe(ChannelTypes.GUILD_TEXT);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(guild.members.has(W().users[who].id)).toBe(true);
    expect(guild.members.size).toBe(guild.memberCount);
    expect(guild.clientMember.roles).toContain(W().guilds.Lab.roles.BotRole);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while ready: guildCreate with the server cached, not guildAvailable; the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      const available: string[] = [];
      const onAvailable = (g: Guild) => void available.push(g.id);
      bot.on("guildAvailable", onAvailable);
      const joined = next<[Guild]>(bot, "guildCreate", (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", true);
      const [guild] = await joined;
      // The handler, as join handlers go: a welcome post in the first text channel.
      const lobby = [...guild.channels.values()].find((c) => c.type === ChannelTypes.GUILD_TEXT) as TextChannel;
      const welcome = await lobby.createMessage({ content: WELCOME(guild.name) });
      bot.off("guildAvailable", onAvailable);
      expect(guild.name).toBe("Annex");
      expect([...guild.channels.values()].map((c) => c.name)).toEqual(["lobby"]);
      for (const who of ["alice", "bob"]) expect(guild.members.has(W().users[who].id)).toBe(true);
      expect(guild.clientMember.id).toBe(W().applications.FullBot.bot_user_id);
      expect(available).toEqual([]);
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[{ id: string }]>(bot, "guildDelete", (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
    },
  );

  scenario(LIB, "message-content", "messageCreate with content; the bot's reply is edited and deleted", async () => {
    const got = next<[Message]>(bot, "messageCreate", (msg) => msg.content === "hello oceanic");
    const said = await m.sdk.as("bob").say("general", "hello oceanic");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.author.id).toBe(W().users.bob.id);
    const reply = await msg.channel!.createMessage({ content: "hi bob", messageReference: { messageID: msg.id } });
    expect((await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" })).message_reference?.message_id).toBe(said.id);

    const updated = next<[Message]>(bot, "messageUpdate", (n) => n.id === reply.id);
    await reply.edit({ content: "hi bob, edited" });
    expect((await updated)[0].content).toBe("hi bob, edited");
    const deleted = next<[any]>(bot, "messageDelete", (d) => d.id === reply.id);
    await reply.delete();
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the event and the history carry empty content", async () => {
    const plain = await connect(newClient(m, m.sdk.tokenOf("PlainBot"), PLAIN));
    const got = next<[Message]>(plain, "messageCreate", (msg) => msg.author.id === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.content).toBe("");
    const history = await plain.rest.channels.getMessages(ch("ops"), { limit: 5 });
    expect(history.find((x) => x.id === said.id)?.content).toBe("");
    plain.disconnect(false);
  });

  scenario(LIB, "embeds-components", "createMessage with an embed and components; a person's embed arrives", async () => {
    const sent = await bot.rest.channels.createMessage(ch("general"), {
      content: "report",
      embeds: [{ title: "Status", description: "all good", color: 0x00ff00, fields: [{ name: "cpu", value: "3%" }] }],
      components: [
        {
          type: ComponentTypes.ACTION_ROW,
          components: [
            { type: ComponentTypes.BUTTON, customID: "ok", label: "OK", style: ButtonStyles.PRIMARY },
            { type: ComponentTypes.BUTTON, url: "https://example.com", label: "Docs", style: ButtonStyles.LINK },
          ],
        },
      ],
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({ title: "Status", fields: [{ name: "cpu", value: "3%" }] });
    expect(seen.components[0].components).toEqual([
      expect.objectContaining({ type: 2, custom_id: "ok", style: 1 }),
      expect.objectContaining({ type: 2, url: "https://example.com", style: 5 }),
    ]);
    const got = next<[Message]>(bot, "messageCreate", (msg) => msg.author.id === W().users.alice.id && msg.embeds.length > 0);
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice" }] });
    expect((await got)[0].embeds[0].title).toBe("From alice");
  });

  scenario(LIB, "reactions", "createReaction; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await bot.rest.channels.createReaction(ch("general"), said.id, "👍");
    const added = next<[any, any, any]>(bot, "messageReactionAdd", (_msg, who) => who.id === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [msg, , reaction] = await added;
    expect(msg.id).toBe(said.id);
    expect(reaction.emoji.name).toBe("🎉");
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((r: any) => r.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[any, any, any]>(bot, "messageReactionRemove", (_msg, who) => who.id === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[2].emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; sendTyping is accepted", async () => {
    const got = next<[any, any]>(bot, "typingStart", (_c, who) => who.id === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect((await got)[0].id).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await bot.rest.channels.sendTyping(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(bot.user.id)]);
    ev.stop();
  });

  scenario(LIB, "channels", "guild.createChannel and channel.editPermission, enforced for people", async () => {
    const guild = bot.guilds.get(W().guilds.Lab.id)!;
    const created = next<[any]>(bot, "channelCreate", (c) => c.name === "made-by-oceanic");
    const c = await guild.createChannel(ChannelTypes.GUILD_TEXT, { name: "made-by-oceanic", topic: "a bot made this" });
    expect((await created)[0].id).toBe(c.id);
    const updated = next<[any]>(bot, "channelUpdate", (n) => n.id === c.id);
    await c.editPermission(W().users.bob.id, { type: OverwriteTypes.MEMBER, deny: 2048n });
    await updated;
    expect(bot.getChannel<TextChannel>(c.id)!.permissionOverwrites.get(W().users.bob.id)?.deny).toBe(2048n);
    const refused = await m.sdk
      .as("bob")
      .say(c.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "addMemberRole, removeMember and createBan with reasons, then getAuditLog", async () => {
    const guild = bot.guilds.get(W().guilds.Lab.id)!;
    await guild.addMemberRole(W().users.erin.id, W().guilds.Lab.roles.Helper, "helping out");
    expect((await guild.getMember(W().users.erin.id)).roles).toContain(W().guilds.Lab.roles.Helper);
    await guild.removeMember(W().users.carol.id, "kicked by oceanic");
    await guild.createBan(W().users.dave.id, { reason: "banned by oceanic" });
    expect((await guild.getBan(W().users.dave.id)).reason).toBe("banned by oceanic");
    const kicks = await guild.getAuditLog({ actionType: 20 });
    expect(kicks.entries[0]).toMatchObject({ reason: "kicked by oceanic", targetID: W().users.carol.id });
    expect(kicks.entries[0].user?.id).toBe(bot.user.id);
    const bans = await guild.getAuditLog({ actionType: 22 });
    expect(bans.entries[0]).toMatchObject({ reason: "banned by oceanic", targetID: W().users.dave.id });
  });

  scenario(LIB, "webhooks", "rest.webhooks.create and execute; people see the message", async () => {
    const hook = await bot.rest.webhooks.create(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await bot.rest.webhooks.execute(hook.id, hook.token!, { content: "from a webhook", username: "Alarm", wait: true });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: hook.id });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[Message]>(bot, "messageCreate", (msg) => msg.author.id === W().users.alice.id && !msg.guildID);
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [msg] = await got;
    expect(msg.id).toBe(sent.id);
    expect(msg.channelID).toBe(sent.channel_id);
    expect(msg.content).toBe("");
    const dm = await bot.rest.channels.createDM(W().users.alice.id);
    expect(dm.id).toBe(sent.channel_id);
    const reply = await dm.createMessage({ content: "got your envelope" });
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" })).content).toBe("got your envelope");
  });

  scenario(LIB, "slash-commands", "bulkEditGlobalCommands, createMessage, defer + editOriginal, createFollowup", async () => {
    bot.on("interactionCreate", async (i) => {
      if (!(i instanceof CommandInteraction)) return;
      if (i.data.name === "hello") await i.createMessage({ content: `hello ${i.data.options.getString("who", true)}` });
      if (i.data.name === "slow") {
        await i.defer();
        await i.editOriginal({ content: "slow done" });
      }
      if (i.data.name === "multi") {
        await i.createMessage({ content: "first" });
        await i.createFollowup({ content: "second" });
        await i.editOriginal({ content: "first, edited" });
      }
    });
    const set = await bot.application.bulkEditGlobalCommands([
      {
        type: 1,
        name: "hello",
        description: "Greets",
        options: [{ type: ApplicationCommandOptionTypes.STRING, name: "who", description: "who", required: true }],
      },
      { type: 1, name: "slow", description: "Deferred" },
      { type: 1, name: "multi", description: "Reply, follow up, edit" },
    ]);
    expect(set.map((c) => c.name)).toEqual(["hello", "slow", "multi"]);
    const run = async (name: string, options?: unknown[]) => {
      const r = await m.sdk
        .as("alice")
        .interact({ channel_id: "general", application_id: "FullBot", name, ...(options ? { options } : {}) });
      expect(r.delivered).toBe(true);
      return r.id;
    };
    const state = (id: string, ok: (s: any) => boolean) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return ok(s) ? s : null;
      });
    expect((await state(await run("hello", [{ name: "who", value: "alice" }]), (s) => s.state === "responded")).response.content).toBe(
      "hello alice",
    );
    expect((await state(await run("slow"), (s) => s.state === "responded")).response.content).toBe("slow done");
    const multi = await state(await run("multi"), (s) => s.followups.length === 1 && s.response?.content === "first, edited");
    expect(multi.followups[0].content).toBe("second");
  });

  scenario(LIB, "components", "a button click edits its message (editParent); a select answers with the values", async () => {
    bot.on("interactionCreate", async (i) => {
      if (!(i instanceof ComponentInteraction)) return;
      if (i.data.customID === "oc-yes") await i.editParent({ content: "clicked yes", components: [] });
      if (i.data.customID === "oc-colour" && i.data.componentType === ComponentTypes.STRING_SELECT) {
        await i.createMessage({ content: `picked ${i.data.values.raw.join(",")}` });
      }
    });
    const panel = await bot.rest.channels.createMessage(ch("general"), {
      content: "choose",
      components: [
        {
          type: ComponentTypes.ACTION_ROW,
          components: [{ type: ComponentTypes.BUTTON, customID: "oc-yes", label: "Yes", style: ButtonStyles.SUCCESS }],
        },
        {
          type: ComponentTypes.ACTION_ROW,
          components: [
            {
              type: ComponentTypes.STRING_SELECT,
              customID: "oc-colour",
              options: [
                { label: "Red", value: "r" },
                { label: "Blue", value: "b" },
              ],
            },
          ],
        },
      ],
    });
    const state = (id: string) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return s.state === "responded" ? s : null;
      });
    const pick = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "oc-colour", values: ["r"] });
    expect((await state(pick.id)).response.content).toBe("picked r");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "oc-yes" });
    expect((await state(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });
  });

  scenario(LIB, "disallowed-intents", "connect with an unapproved MESSAGE_CONTENT: the shard disconnects with the 4014 error", async () => {
    const bad = newClient(m, m.sdk.tokenOf("PlainBot"), [...PLAIN, "MESSAGE_CONTENT"]);
    const down = next<[Error | undefined, number]>(bad, "shardDisconnect");
    await bad.connect();
    const [err] = await down;
    expect(String(err)).toMatch(/disallowed intents/i);
    expect(liveSessions(m, "PlainBot")).toEqual([]);
    bad.disconnect(false);
  });

  scenario(LIB, "resume", "after a server-side 4000 close the shard resumes and gets the message it missed", async () => {
    const [session] = liveSessions(m, "FullBot");
    const resumed = next(bot, "shardResume");
    const missed = next<[Message]>(bot, "messageCreate", (msg) => msg.content === "missed while away");
    expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    await m.sdk.as("bob").say("general", "missed while away");
    await resumed;
    expect((await missed)[0].author.id).toBe(W().users.bob.id);
    expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
  });

  scenario(LIB, "invalid-session", "a RESUME of an expired session gets op 9; the shard identifies afresh", async () => {
    const lone = await server();
    const c = await connect(newClient(lone, lone.sdk.tokenOf("CycleBot"), PLAIN));
    const [old] = liveSessions(lone, "CycleBot");
    const readyAgain = next(c, "shardReady", () => true, 10_000);
    expireAfterClose(lone, old.session_id);
    await readyAgain;
    const now = await until("a fresh session", () => {
      const s = liveSessions(lone, "CycleBot");
      return s.length === 1 && s[0].session_id !== old.session_id ? s : null;
    });
    expect(now).toHaveLength(1);
    const got = next<[Message]>(c, "messageCreate", (msg) => msg.author.id === lone.sdk.world.users.bob.id);
    const said = await lone.sdk.as("bob").say("general", "after the new session");
    expect((await got)[0].id).toBe(said.id);
  });

  scenario(LIB, "token-rotation", "rotation ends the live session; the old token's REST calls raise DiscordRESTError 401", async () => {
    const c = await connect(newClient(m, m.sdk.tokenOf("RotBot"), PLAIN));
    expect(liveSessions(m, "RotBot")).toHaveLength(1);
    await m.sdk.rotate("RotBot");
    await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
    const err = await c.rest.users.get(W().users.bob.id).catch((e) => e);
    expect(err).toBeInstanceOf(DiscordRESTError);
    expect(err.status).toBe(401);
    expect(err.code).toBe(0);
    await Bun.sleep(300);
    expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
    c.disconnect(false);
  });

  scenario(
    LIB,
    "bucket-429",
    "createMessage meets a 429 (bucket 2 per 1 s on this server); oceanic waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const c = newClient(rl, rl.sdk.tokenOf("FullBot"), FULL);
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const sent = await Promise.all([1, 2, 3].map((n) => c.rest.channels.createMessage(spam, { content: `queued ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      const limited = tracking.get(c)!.limited;
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((s) => s === "user")).toBe(true);
      expect((await rl.sdk.messages("spam", { as: "alice" })).filter((x) => x.content.startsWith("queued ")).length).toBe(3);
    },
  );

  scenario(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); oceanic waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const c = newClient(rl, rl.sdk.tokenOf("FullBot"), FULL);
      const spam = rl.sdk.channelId("spam");
      const sent = await Promise.all(BURST.map((n) => c.rest.channels.createMessage(spam, { content: `burst ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      const limited = tracking.get(c)!.limited;
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((s) => s === "global")).toBe(true);
      expect((await rl.sdk.messages("spam", { as: "alice" })).filter((x) => x.content.startsWith("burst ")).length).toBe(BURST.length);
    },
  );

  scenario(LIB, "not-implemented", "rest.misc.getSticker (no stickers in Parley) rejects with the 501", async () => {
    const err = await bot.rest.misc.getSticker("1234567890123456789").catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(501);
    expect(err.code).toBe(0);
  });

  scenario(LIB, "epoch", "with the Base.getCreatedAt shim, createdAt of a message and an interaction is the server's time", async () => {
    const undo = runShim(LIB, { Base }, [[Base, "getCreatedAt"]]);
    try {
      await epochProbe("shim", true);
    } finally {
      undo();
    }
  });

  scenario(
    LIB,
    "epoch-unshimmed",
    "createdAt of a message and an interaction is ten years early (a message's `timestamp` is right)",
    async () => {
      await epochProbe("plain", false);
    },
  );
});

faultCells({
  lib: LIB,
  async start(s) {
    const c = newClient(s, s.sdk.tokenOf("FullBot"), FULL);
    const errors: unknown[] = [];
    c.on("messageCreate", (msg) => {
      if (msg.content.startsWith("!echo "))
        c.rest.channels.createMessage(msg.channelID, { content: msg.content.slice(6) }).catch((e) => errors.push(e));
    });
    await connect(c);
    return { errors, stop: async () => c.disconnect(false) };
  },
});
