/**
 * The compatibility matrix, @discordjs/core 2.x column (with @discordjs/rest and
 * @discordjs/ws): the low-level style, where the bot answers raw dispatches through
 * `api.*` and keeps whatever state it wants itself. In this process against a real
 * Parley on a free port; people are played through the harness (src/testing). One
 * server and one FullBot are shared; scenarios that end sessions or need other rate
 * limits get their own server.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import {
  ButtonStyle,
  Client,
  ComponentType,
  GatewayDispatchEvents as E,
  InteractionType,
  type APIGuildChannel,
  type APIMessage,
  type GatewayGuildCreateDispatchData,
  type GatewayReadyDispatchData,
} from "@discordjs/core";
import { DiscordAPIError, HTTPError, REST } from "@discordjs/rest";
import { WebSocketManager, WebSocketShardEvents, type SessionInfo } from "@discordjs/ws";
import { scenario } from "./matrix";
import { call, recordEvents, refusal } from "../helpers";
import {
  BURST,
  exhaustMessageBucket,
  expireAfterClose,
  FULL_INTENTS,
  liveSessions,
  type MatrixServer,
  MESSAGE_CONTENT_BIT,
  personTypes,
  PLAIN_INTENTS,
  setInstalled,
  smallBucketLimits,
  smallGlobalLimits,
  startMatrix,
  until,
  WELCOME,
} from "./bots/js-world";
import { next } from "./support";
import { faultCells } from "./fault-cells";
import { DiscordSnowflake } from "@sapphire/snowflake";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "@discordjs/core";

interface Bot {
  rest: REST;
  ws: WebSocketManager;
  client: Client;
  ready: GatewayReadyDispatchData;
  guilds: Map<string, GatewayGuildCreateDispatchData>;
  /** Every 429 the REST manager met, by scope (it retries them itself). */
  limited: string[];
  stop(): Promise<void>;
}

const bots: Bot[] = [];
const servers: MatrixServer[] = [];
let m: MatrixServer;
let bot: Bot;

/** A bot as @discordjs/core's README builds one: REST, a WebSocketManager, a Client; state kept from GUILD_CREATE. */
function makeBot(s: MatrixServer, token: string, intents: number): Bot {
  const rest = new REST({ api: s.sdk.apiBase }).setToken(token);
  // @discordjs/ws keeps session info in one process-wide store by default; several bots
  // share this test process, so each gets its own (as the library's options allow).
  const sessions = new Map<number, SessionInfo>();
  const ws = new WebSocketManager({
    token,
    intents,
    rest,
    retrieveSessionInfo: (shard) => sessions.get(shard) ?? null,
    updateSessionInfo: (shard, info) => void (info ? sessions.set(shard, info) : sessions.delete(shard)),
  });
  const client = new Client({ rest, gateway: ws });
  const guilds = new Map<string, GatewayGuildCreateDispatchData>();
  const limited: string[] = [];
  client.on(E.GuildCreate, ({ data }) => void guilds.set(data.id, data));
  rest.on("response", (_req, res) => {
    if (res.status === 429) limited.push(res.headers.get("x-ratelimit-scope") ?? "");
  });
  const b: Bot = {
    rest,
    ws,
    client,
    guilds,
    limited,
    ready: undefined as never,
    stop: () => Promise.race([ws.destroy(), Bun.sleep(2000)]).then(() => {}),
  };
  bots.push(b);
  return b;
}

async function connect(b: Bot, guildCount = 1): Promise<Bot> {
  const ready = next<[{ data: GatewayReadyDispatchData }]>(b.client, E.Ready);
  await b.ws.connect();
  b.ready = (await ready)[0].data;
  await until("GUILD_CREATE for every guild", () => b.guilds.size === guildCount);
  return b;
}

async function server(config = {}): Promise<MatrixServer> {
  const s = await startMatrix(config);
  servers.push(s);
  return s;
}

const W = () => m.sdk.world;
const ch = (name: string) => m.sdk.channelId(name);

/**
 * The creation times a bot reads from the raw ids @discordjs/core hands it (a person's
 * message, a click on the bot's button) with DiscordSnowflake, against the server's.
 */
async function epochProbe(tag: string, shimmed: boolean): Promise<void> {
  const got = next<[{ data: APIMessage }]>(bot.client, E.MessageCreate, ({ data }) => data.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [{ data: msg }] = await got;
  expectLibraryTime(DiscordSnowflake.timestampFrom(msg.id), msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `core-epoch-${tag}`;
  const panel = await bot.client.api.channels.createMessage(ch("ops"), {
    content: "when?",
    components: [
      {
        type: ComponentType.ActionRow,
        components: [{ type: ComponentType.Button, custom_id: custom, label: "When", style: ButtonStyle.Primary }],
      },
    ],
  });
  const clicked = next<[{ data: any; api: any }]>(
    bot.client,
    E.InteractionCreate,
    ({ data }) => data.type === InteractionType.MessageComponent && data.data.custom_id === custom,
  );
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [{ data: click, api }] = await clicked;
  await api.interactions.deferMessageUpdate(click.id, click.token);
  expectLibraryTime(DiscordSnowflake.timestampFrom(click.id), click.id, shimmed);
  expectServerTime(click.id, { from, to });
}

beforeAll(async () => {
  m = await server();
  bot = await connect(makeBot(m, m.sdk.tokenOf("FullBot"), FULL_INTENTS));
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  for (const s of servers) await s.sdk.stop();
});

describe("@discordjs/core matrix", () => {
  scenario(LIB, "login", "READY, then GUILD_CREATE carrying the guild's channels and members", async () => {
    expect(bot.ready.user.id).toBe(W().applications.FullBot.bot_user_id);
    expect(bot.ready.guilds).toEqual([{ id: W().guilds.Lab.id, unavailable: true }]);
    const g = bot.guilds.get(W().guilds.Lab.id)!;
    expect(g.name).toBe("Lab");
    expect(g.channels.map((c) => (c as APIGuildChannel).name).sort()).toEqual(["general", "ops", "spam"]);
    const members = new Set(g.members.map((mm) => mm.user!.id));
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(members.has(W().users[who].id)).toBe(true);
    expect(g.members.length).toBe(g.member_count);
    expect(g.members.find((mm) => mm.user!.id === bot.ready.user.id)?.roles).toContain(W().guilds.Lab.roles.BotRole);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while connected: a GUILD_CREATE for a server READY did not list, without `unavailable` (a join); the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      // A bot in this style tells a join from a server becoming available by READY's list,
      // or (as discord.py does) by `unavailable`, which only the latter carries.
      expect(bot.ready.guilds.map((g) => g.id)).not.toContain(annex);
      expect(bot.guilds.get(W().guilds.Lab.id)!.unavailable).toBe(false);
      const joined = next<[{ data: GatewayGuildCreateDispatchData; api: Client["api"] }]>(
        bot.client,
        E.GuildCreate,
        ({ data }) => data.id === annex,
      );
      await setInstalled(m, "FullBot", "Annex", true);
      const [{ data, api }] = await joined;
      expect(data.unavailable).toBeUndefined();
      expect(data.name).toBe("Annex");
      expect(data.channels.map((c) => (c as APIGuildChannel).name)).toEqual(["lobby"]);
      expect(data.members.map((mm) => mm.user!.id).sort()).toEqual([W().users.alice.id, W().users.bob.id, bot.ready.user.id].sort());
      // The handler, as join handlers go: a welcome post in the first text channel.
      const welcome = await api.channels.createMessage(data.channels[0].id, { content: WELCOME(data.name) });
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[{ data: { id: string } }]>(bot.client, E.GuildDelete, ({ data: d }) => d.id === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
      bot.guilds.delete(annex);
    },
  );

  scenario(LIB, "message-content", "MESSAGE_CREATE with content; the bot's reply is edited and deleted", async () => {
    const got = next<[{ data: APIMessage }]>(bot.client, E.MessageCreate, ({ data }) => data.content === "hello core");
    const said = await m.sdk.as("bob").say("general", "hello core");
    const [{ data: msg, api }] = (await got) as any;
    expect(msg.id).toBe(said.id);
    expect(msg.author.id).toBe(W().users.bob.id);
    const reply = await api.channels.createMessage(msg.channel_id, { content: "hi bob", message_reference: { message_id: msg.id } });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" });
    expect(seen.message_reference?.message_id).toBe(said.id);

    const updated = next<[{ data: any }]>(bot.client, E.MessageUpdate, ({ data }) => data.id === reply.id);
    await bot.client.api.channels.editMessage(reply.channel_id, reply.id, { content: "hi bob, edited" });
    expect((await updated)[0].data.content).toBe("hi bob, edited");
    const deleted = next<[{ data: any }]>(bot.client, E.MessageDelete, ({ data }) => data.id === reply.id);
    await bot.client.api.channels.deleteMessage(reply.channel_id, reply.id);
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the dispatch and the history carry empty content", async () => {
    const plain = await connect(makeBot(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS));
    const got = next<[{ data: APIMessage }]>(plain.client, E.MessageCreate, ({ data }) => data.author.id === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [{ data }] = await got;
    expect(data.id).toBe(said.id);
    expect(data.content).toBe("");
    const history = await plain.client.api.channels.getMessages(ch("ops"), { limit: 5 });
    expect(history.find((x) => x.id === said.id)?.content).toBe("");
    await plain.stop();
  });

  scenario(LIB, "embeds-components", "createMessage with an embed and components; a person's embed arrives", async () => {
    const sent = await bot.client.api.channels.createMessage(ch("general"), {
      content: "report",
      embeds: [{ title: "Status", description: "all good", color: 0x00ff00, fields: [{ name: "cpu", value: "3%" }] }],
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, custom_id: "ok", label: "OK", style: ButtonStyle.Primary },
            { type: ComponentType.Button, url: "https://example.com", label: "Docs", style: ButtonStyle.Link },
          ],
        },
      ],
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({ title: "Status", fields: [{ name: "cpu", value: "3%" }] });
    expect(seen.components[0].components.map((c: any) => c.style)).toEqual([1, 5]);
    const got = next<[{ data: APIMessage }]>(
      bot.client,
      E.MessageCreate,
      ({ data }) => data.author.id === W().users.alice.id && data.embeds.length > 0,
    );
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice" }] });
    expect((await got)[0].data.embeds[0].title).toBe("From alice");
  });

  scenario(LIB, "reactions", "addMessageReaction; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await bot.client.api.channels.addMessageReaction(ch("general"), said.id, "👍");
    const added = next<[{ data: any }]>(bot.client, E.MessageReactionAdd, ({ data }) => data.user_id === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    expect((await added)[0].data).toMatchObject({ message_id: said.id, emoji: { name: "🎉" }, guild_id: W().guilds.Lab.id });
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((r: any) => r.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[{ data: any }]>(bot.client, E.MessageReactionRemove, ({ data }) => data.user_id === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[0].data.emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as TYPING_START; showTyping is accepted", async () => {
    const got = next<[{ data: any }]>(bot.client, E.TypingStart, ({ data }) => data.user_id === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect((await got)[0].data.channel_id).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await bot.client.api.channels.showTyping(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(bot.ready.user.id)]);
    ev.stop();
  });

  scenario(LIB, "channels", "guilds.createChannel and channels.editPermissionOverwrite, enforced for people", async () => {
    const created = next<[{ data: any }]>(bot.client, E.ChannelCreate, ({ data }) => data.name === "made-by-core");
    const c = await bot.client.api.guilds.createChannel(W().guilds.Lab.id, { name: "made-by-core", topic: "a bot made this" });
    expect((await created)[0].data.id).toBe(c.id);
    const updated = next<[{ data: any }]>(bot.client, E.ChannelUpdate, ({ data }) => data.id === c.id);
    await bot.client.api.channels.editPermissionOverwrite(c.id, W().users.bob.id, { type: 1, allow: "0", deny: String(1 << 11) });
    expect((await updated)[0].data.permission_overwrites).toEqual([{ id: W().users.bob.id, type: 1, allow: "0", deny: "2048" }]);
    const refused = await m.sdk
      .as("bob")
      .say(c.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "addRoleToMember, removeMember and banUser with reasons, then getAuditLogs", async () => {
    const gid = W().guilds.Lab.id;
    const api = bot.client.api;
    await api.guilds.addRoleToMember(gid, W().users.erin.id, W().guilds.Lab.roles.Helper, { reason: "helping out" });
    expect((await api.guilds.getMember(gid, W().users.erin.id)).roles).toContain(W().guilds.Lab.roles.Helper);
    await api.guilds.removeMember(gid, W().users.carol.id, { reason: "kicked by core" });
    await api.guilds.banUser(gid, W().users.dave.id, {}, { reason: "banned by core" });
    expect((await api.guilds.getMemberBan(gid, W().users.dave.id)).reason).toBe("banned by core");
    const kicks = await api.guilds.getAuditLogs(gid, { action_type: 20 });
    expect(kicks.audit_log_entries[0]).toMatchObject({
      reason: "kicked by core",
      target_id: W().users.carol.id,
      user_id: bot.ready.user.id,
    });
    const bans = await api.guilds.getAuditLogs(gid, { action_type: 22 });
    expect(bans.audit_log_entries[0]).toMatchObject({ reason: "banned by core", target_id: W().users.dave.id });
  });

  scenario(LIB, "webhooks", "channels.createWebhook and webhooks.execute; people see the message", async () => {
    const hook = await bot.client.api.channels.createWebhook(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await bot.client.api.webhooks.execute(hook.id, hook.token!, { content: "from a webhook", username: "Alarm", wait: true });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: hook.id });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[{ data: APIMessage }]>(
      bot.client,
      E.MessageCreate,
      ({ data }) => data.author.id === W().users.alice.id && !("guild_id" in data && data.guild_id),
    );
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [{ data }] = await got;
    expect(data).toMatchObject({ id: sent.id, channel_id: sent.channel_id, content: "" });
    const dm = await bot.client.api.users.createDM(W().users.alice.id);
    expect(dm.id).toBe(sent.channel_id);
    const reply = await bot.client.api.channels.createMessage(dm.id, { content: "got your envelope" });
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" })).content).toBe("got your envelope");
  });

  scenario(LIB, "slash-commands", "bulkOverwriteGlobalCommands, reply, defer + editReply, followUp", async () => {
    const appId = bot.ready.application.id;
    bot.client.on(E.InteractionCreate, async ({ data: i, api }) => {
      if (i.type !== InteractionType.ApplicationCommand) return;
      const name = (i.data as any).name;
      if (name === "hello") await api.interactions.reply(i.id, i.token, { content: `hello ${(i.data as any).options[0].value}` });
      if (name === "slow") {
        await api.interactions.defer(i.id, i.token);
        await api.interactions.editReply(i.application_id, i.token, { content: "slow done" });
      }
      if (name === "multi") {
        await api.interactions.reply(i.id, i.token, { content: "first" });
        await api.interactions.followUp(i.application_id, i.token, { content: "second" });
        await api.interactions.editReply(i.application_id, i.token, { content: "first, edited" });
      }
    });
    const set = await bot.client.api.applicationCommands.bulkOverwriteGlobalCommands(appId, [
      { name: "hello", description: "Greets", options: [{ type: 3, name: "who", description: "who", required: true }] },
      { name: "slow", description: "Deferred" },
      { name: "multi", description: "Reply, follow up, edit" },
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

  scenario(LIB, "components", "a button click updates its message; a select answers with the values", async () => {
    bot.client.on(E.InteractionCreate, async ({ data: i, api }) => {
      if (i.type !== InteractionType.MessageComponent) return;
      const d = i.data as any;
      if (d.custom_id === "core-yes") await api.interactions.updateMessage(i.id, i.token, { content: "clicked yes", components: [] });
      if (d.custom_id === "core-colour") await api.interactions.reply(i.id, i.token, { content: `picked ${d.values.join(",")}` });
    });
    const panel = await bot.client.api.channels.createMessage(ch("general"), {
      content: "choose",
      components: [
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.Button, custom_id: "core-yes", label: "Yes", style: ButtonStyle.Success }],
        },
        {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.StringSelect,
              custom_id: "core-colour",
              min_values: 1,
              max_values: 2,
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
    const pick = await m.sdk
      .as("bob")
      .interact({ channel_id: "general", message_id: panel.id, custom_id: "core-colour", values: ["r", "b"] });
    expect((await state(pick.id)).response.content).toBe("picked r,b");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "core-yes" });
    expect((await state(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });
  });

  scenario(
    LIB,
    "disallowed-intents",
    "connect with an unapproved MESSAGE_CONTENT: the shard closes with 4014 and reports 'Used disallowed intents'",
    async () => {
      const bad = makeBot(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS | MESSAGE_CONTENT_BIT);
      const closed = next<[number]>(bad.ws, WebSocketShardEvents.Closed);
      const failed = next<[Error]>(bad.ws, WebSocketShardEvents.Error);
      void bad.ws.connect().catch(() => {});
      expect((await closed)[0]).toBe(4014);
      expect((await failed)[0].message).toBe("Used disallowed intents");
      expect(liveSessions(m, "PlainBot")).toEqual([]);
    },
  );

  scenario(LIB, "resume", "after a server-side 4000 close the shard resumes and gets the message it missed", async () => {
    const [session] = liveSessions(m, "FullBot");
    const resumed = next(bot.ws, WebSocketShardEvents.Resumed);
    const missed = next<[{ data: APIMessage }]>(bot.client, E.MessageCreate, ({ data }) => data.content === "missed while away");
    expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    await m.sdk.as("bob").say("general", "missed while away");
    await resumed;
    expect((await missed)[0].data.author.id).toBe(W().users.bob.id);
    expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
  });

  scenario(LIB, "invalid-session", "a RESUME of an expired session gets op 9; the shard identifies afresh", async () => {
    const lone = await server();
    const b = await connect(makeBot(lone, lone.sdk.tokenOf("CycleBot"), PLAIN_INTENTS));
    const [old] = liveSessions(lone, "CycleBot");
    // @discordjs/ws spaces IDENTIFYs 5 s apart (its identify throttle), hence the wider bound.
    const readyAgain = next<[{ data: GatewayReadyDispatchData }]>(b.client, E.Ready, () => true, 10_000);
    expireAfterClose(lone, old.session_id);
    const [{ data }] = await readyAgain;
    expect(data.session_id).not.toBe(old.session_id);
    expect(liveSessions(lone, "CycleBot").map((s) => s.session_id)).toEqual([data.session_id]);
    const got = next<[{ data: APIMessage }]>(b.client, E.MessageCreate, ({ data }) => data.author.id === lone.sdk.world.users.bob.id);
    const said = await lone.sdk.as("bob").say("general", "after the new session");
    expect((await got)[0].data.id).toBe(said.id);
  });

  scenario(LIB, "token-rotation", "rotation ends the live session; the old token's REST calls raise DiscordAPIError 401", async () => {
    const b = await connect(makeBot(m, m.sdk.tokenOf("RotBot"), PLAIN_INTENTS));
    expect(liveSessions(m, "RotBot")).toHaveLength(1);
    await m.sdk.rotate("RotBot");
    await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
    const err = await b.client.api.users.getCurrent().catch((e) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect(err.status).toBe(401);
    expect(err.code).toBe(0);
    await Bun.sleep(300);
    expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
    await b.stop();
  });

  scenario(
    LIB,
    "bucket-429",
    "createMessage meets a 429 (bucket 2 per 1 s on this server); @discordjs/rest waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const b = makeBot(rl, rl.sdk.tokenOf("FullBot"), FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const sent = await Promise.all([1, 2, 3].map((n) => b.client.api.channels.createMessage(spam, { content: `queued ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      expect(b.limited.length).toBeGreaterThanOrEqual(1);
      expect(b.limited.every((s) => s === "user")).toBe(true);
      const seen = await rl.sdk.messages("spam", { as: "alice" });
      expect(seen.filter((x) => x.content.startsWith("queued ")).length).toBe(3);
    },
  );

  scenario(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); @discordjs/rest waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const b = makeBot(rl, rl.sdk.tokenOf("FullBot"), FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      const sent = await Promise.all(BURST.map((n) => b.client.api.channels.createMessage(spam, { content: `burst ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      expect(b.limited.length).toBeGreaterThanOrEqual(1);
      expect(b.limited.every((s) => s === "global")).toBe(true);
      expect((await rl.sdk.messages("spam", { as: "alice" })).filter((x) => x.content.startsWith("burst ")).length).toBe(BURST.length);
    },
  );

  scenario(LIB, "not-implemented", "stickers.get (no stickers in Parley) rejects with the 501", async () => {
    const err = await bot.client.api.stickers.get("1234567890123456789").catch((e) => e);
    expect(err).toBeInstanceOf(HTTPError);
    expect(err.status).toBe(501);
    // HTTPError keeps no body; the same request in-process shows the spec's code.
    expect(refusal(await call(m.p, "GET", "/stickers/1234567890123456789", { token: m.sdk.tokenOf("FullBot") }))).toEqual([501, 0]);
  });

  scenario(
    LIB,
    "epoch",
    "with the DiscordSnowflake shim, timestampFrom of a message's and an interaction's id is the server's time",
    async () => {
      const undo = runShim(LIB, { DiscordSnowflake }, [[DiscordSnowflake, "timestampFrom"]]);
      try {
        await epochProbe("shim", true);
      } finally {
        undo();
      }
    },
  );

  scenario(LIB, "epoch-unshimmed", "DiscordSnowflake.timestampFrom reads a message's and an interaction's id ten years early", async () => {
    await epochProbe("plain", false);
  });
});

faultCells({
  lib: LIB,
  async start(s) {
    const b = makeBot(s, s.sdk.tokenOf("FullBot"), FULL_INTENTS);
    const errors: unknown[] = [];
    b.client.on(E.MessageCreate, ({ data, api }) => {
      if (data.content.startsWith("!echo "))
        api.channels.createMessage(data.channel_id, { content: data.content.slice(6) }).catch((e) => errors.push(e));
    });
    await connect(b);
    return { errors, stop: b.stop };
  },
});
