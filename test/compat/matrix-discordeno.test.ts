/**
 * The compatibility matrix, discordeno 21 column: a real discordeno bot per scenario,
 * built as its README builds one (createBot with events and desired properties, the
 * bot.helpers REST calls), in this process (discordeno runs under Bun unchanged, on
 * Bun's native WebSocket) against a real Parley on a free port; people are played
 * through the harness (src/testing). One server and one FullBot are shared; scenarios
 * that end sessions or need other rate limits get their own server.
 *
 * Two settings a discordeno user pointing it at Parley needs (docs/compatibility.md):
 * `applicationId`, since Parley's application id is not the bot user id the token
 * carries; and `rest.isProxied = false`, since discordeno takes any base URL but
 * discord.com for a REST proxy and then leaves rate limits to it.
 * discordeno keeps no cache; like its users, the tests keep what GUILD_CREATE brought.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import { baseMessage, createBot, createDesiredPropertiesObject, ShardState } from "discordeno";
import { scenario } from "./matrix";
import { recordEvents } from "../helpers";
import {
  BITS,
  BURST,
  exhaustMessageBucket,
  expireAfterClose,
  FULL_INTENTS,
  interactionStates,
  limitedSince,
  liveSessions,
  type MatrixServer,
  personTypes,
  setInstalled,
  PLAIN_INTENTS,
  smallBucketLimits,
  smallGlobalLimits,
  startMatrix,
  until,
  WELCOME,
} from "./bots/js-world";
import { join } from "node:path";
import { BOTS, next } from "./support";
import { faultCells } from "./fault-cells";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "discordeno";
const EVENTS = [
  "ready",
  "guildCreate",
  "guildDelete",
  "messageCreate",
  "messageUpdate",
  "messageDelete",
  "reactionAdd",
  "reactionRemove",
  "typingStart",
  "channelCreate",
  "channelUpdate",
  "interactionCreate",
] as const;
const QUIET = { debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

interface Bot {
  bot: any;
  /** Every bot event, re-emitted for the tests to wait on. */
  on: EventEmitter;
  guilds: Map<string, any>;
  /** Sockets the shards opened (discordeno's "connecting" gateway event). */
  connects: () => number;
  stop(): Promise<void>;
}

let m: MatrixServer;
let full: Bot;
const bots: Bot[] = [];
const servers: MatrixServer[] = [];

function newBot(s: MatrixServer, app: string, intents: number): Bot {
  const token = s.sdk.tokenOf(app);
  const applicationId = s.sdk.world.applications[app].id;
  const on = new EventEmitter();
  const guilds = new Map<string, any>();
  const events: Record<string, (...a: unknown[]) => void> = Object.fromEntries(
    EVENTS.map((n) => [n, (...a: unknown[]) => void on.emit(n, ...a)]),
  );
  let connects = 0;
  const bot: any = createBot({
    token,
    intents,
    applicationId,
    desiredProperties: createDesiredPropertiesObject({}, true) as any,
    events,
    rest: { token, applicationId, proxy: { baseUrl: s.sdk.apiBase } },
    gateway: {
      token,
      events: {
        resumed: () => void on.emit("resumed"),
        disconnected: () => void on.emit("disconnected"),
        connecting: () => void (connects++, on.emit("connecting")),
      },
      // discordeno spaces IDENTIFYs 5.3 s apart for the reference's identify limit; Parley has
      // none (spec 8.1 rule 6), and the wait would only slow every (re-)identify down.
      spawnShardDelay: 0,
    } as any,
    loggerFactory: () => QUIET,
  });
  // Parley is not a REST proxy: let discordeno keep its own buckets and retry 429s.
  bot.rest.isProxied = false;
  on.on("guildCreate", (g: any) => void guilds.set(String(g.id), g));
  const b: Bot = { bot, on, guilds, connects: () => connects, stop: () => stopBot(bot) };
  bots.push(b);
  return b;
}

/**
 * Stop a bot for good. discordeno's shutdown() closes each shard's open socket, but a shard
 * caught reconnecting (its new socket still connecting) finishes the reconnect afterwards
 * and lives on; and a shard reconnects at once, with no backoff, after any close but its
 * own: once its server is gone, thousands of times a second, for as long as the process
 * runs. So after shutdown each shard is left unable to connect, and its socket, whatever
 * its state, is closed without a reconnect.
 */
async function stopBot(bot: any): Promise<void> {
  await Promise.race([bot.shutdown(), Bun.sleep(2000)]);
  for (const shard of bot.gateway.shards.values()) {
    // A reconnect already under way waits here for ever, with no socket.
    shard.connect = () => new Promise(() => {});
    shard.handleClose = async (close: unknown) => {
      shard.socket = undefined;
      shard.stopHeartbeating();
      shard.resolveAfterClose?.(close);
    };
    shard.stopHeartbeating();
    shard.state = ShardState.Offline;
    shard.socket?.close(1000);
  }
}

async function connect(b: Bot, guildCount = 1): Promise<Bot> {
  const ready = next(b.on, "ready");
  await b.bot.start();
  await ready;
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
const h = () => full.bot.helpers;

/**
 * The one creation time discordeno reads from an id, a message's `timestamp` (it never
 * reads the payload's field), against the server's; interactions carry none.
 */
async function epochProbe(tag: string, shimmed: boolean): Promise<void> {
  const got = next<[any]>(full.on, "messageCreate", (msg) => msg.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [msg] = await got;
  expectLibraryTime(msg.timestamp, msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));
}

beforeAll(async () => {
  m = await server();
  full = await connect(newBot(m, "FullBot", FULL_INTENTS));
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  for (const s of servers) await s.sdk.stop();
});

describe("discordeno matrix", () => {
  scenario(LIB, "login", "ready, then GUILD_CREATE with the guild, its channels and every member", async () => {
    expect(String(full.bot.id)).toBe(W().applications.FullBot.bot_user_id);
    const guild = full.guilds.get(W().guilds.Lab.id)!;
    expect(guild.name).toBe("Lab");
    expect([...guild.channels.values()].map((c: any) => c.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(guild.channels.get(BigInt(ch("general")))?.type).toBe(0);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(guild.members.has(BigInt(W().users[who].id))).toBe(true);
    expect(guild.members.size).toBe(guild.memberCount);
    const me = guild.members.get(full.bot.id);
    expect(me.roles.map(String)).toContain(W().guilds.Lab.roles.BotRole);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while connected: guildCreate (its one event for joins and start-up) fires after ready with the server; the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      const joined = next<[any]>(full.on, "guildCreate", (g) => String(g.id) === annex);
      await setInstalled(m, "FullBot", "Annex", true);
      const [guild] = await joined;
      // The handler, as join handlers go: a welcome post in the first text channel.
      const lobby = [...guild.channels.values()].find((x: any) => x.type === 0);
      const welcome = await h().sendMessage(lobby.id, { content: WELCOME(guild.name) });
      expect(guild.name).toBe("Annex");
      expect([...guild.channels.values()].map((x: any) => x.name)).toEqual(["lobby"]);
      for (const who of ["alice", "bob"]) expect(guild.members.has(BigInt(W().users[who].id))).toBe(true);
      expect(guild.members.has(full.bot.id)).toBe(true);
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === String(welcome.id))).content).toBe(WELCOME("Annex"));
      const left = next<[bigint]>(full.on, "guildDelete", (id) => String(id) === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
      full.guilds.delete(annex);
    },
  );

  scenario(LIB, "message-content", "messageCreate with content; the bot's reply is edited and deleted", async () => {
    const got = next<[any]>(full.on, "messageCreate", (msg) => msg.content === "hello discordeno");
    const said = await m.sdk.as("bob").say("general", "hello discordeno");
    const [msg] = await got;
    expect(String(msg.id)).toBe(said.id);
    expect(String(msg.author.id)).toBe(W().users.bob.id);
    const reply = await h().sendMessage(msg.channelId, {
      content: "hi bob",
      messageReference: { messageId: msg.id, failIfNotExists: true },
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === String(reply.id), { as: "bob" });
    expect(seen.message_reference?.message_id).toBe(said.id);

    const updated = next<[any]>(full.on, "messageUpdate", (n) => n.id === reply.id);
    await h().editMessage(reply.channelId, reply.id, { content: "hi bob, edited" });
    expect((await updated)[0].content).toBe("hi bob, edited");
    const deleted = next<[any]>(full.on, "messageDelete", (d) => d.id === reply.id);
    await h().deleteMessage(reply.channelId, reply.id);
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === String(reply.id))).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the event and the history carry empty content", async () => {
    const plain = await connect(newBot(m, "PlainBot", PLAIN_INTENTS));
    const got = next<[any]>(plain.on, "messageCreate", (msg) => String(msg.author.id) === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [msg] = await got;
    expect(String(msg.id)).toBe(said.id);
    expect(msg.content ?? "").toBe("");
    const history = await plain.bot.helpers.getMessages(ch("ops"), { limit: 5 });
    expect(history.find((x: any) => String(x.id) === said.id)?.content ?? "").toBe("");
    await plain.stop();
  });

  scenario(LIB, "embeds-components", "sendMessage with an embed and components; a person's embed arrives", async () => {
    const sent = await h().sendMessage(ch("general"), {
      content: "report",
      embeds: [{ title: "Status", description: "all good", color: 0x00ff00, fields: [{ name: "cpu", value: "3%" }] }],
      components: [
        {
          type: 1,
          components: [
            { type: 2, customId: "ok", label: "OK", style: 1 },
            { type: 2, url: "https://example.com", label: "Docs", style: 5 },
          ],
        },
      ],
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === String(sent.id), { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({ title: "Status", fields: [{ name: "cpu", value: "3%" }] });
    expect(seen.components[0].components).toEqual([
      expect.objectContaining({ type: 2, custom_id: "ok", style: 1 }),
      expect.objectContaining({ type: 2, url: "https://example.com", style: 5 }),
    ]);
    const got = next<[any]>(full.on, "messageCreate", (msg) => String(msg.author.id) === W().users.alice.id && msg.embeds?.length > 0);
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice" }] });
    expect((await got)[0].embeds[0].title).toBe("From alice");
  });

  scenario(LIB, "reactions", "addReaction; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await h().addReaction(ch("general"), said.id, "👍");
    const added = next<[any]>(full.on, "reactionAdd", (r) => String(r.userId) === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [r] = await added;
    expect(String(r.messageId)).toBe(said.id);
    expect(r.emoji.name).toBe("🎉");
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((x: any) => x.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[any]>(full.on, "reactionRemove", (x) => String(x.userId) === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[0].emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; triggerTypingIndicator is accepted", async () => {
    const got = next<[any]>(full.on, "typingStart", (t) => String(t.userId) === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect(String((await got)[0].channelId)).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await h().triggerTypingIndicator(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(String(full.bot.id))]);
    ev.stop();
  });

  scenario(LIB, "channels", "createChannel and editChannelPermissionOverrides, enforced for people", async () => {
    const created = next<[any]>(full.on, "channelCreate", (c) => c.name === "made-by-discordeno");
    const c = await h().createChannel(W().guilds.Lab.id, { name: "made-by-discordeno", type: 0, topic: "a bot made this" });
    expect((await created)[0].id).toBe(c.id);
    const updated = next<[any]>(full.on, "channelUpdate", (n) => n.id === c.id);
    await h().editChannelPermissionOverrides(c.id, { id: W().users.bob.id, type: 1, deny: ["SEND_MESSAGES"] });
    // discordeno packs overwrites into bigints; the one it now holds is the one it sent.
    expect((await updated)[0].permissionOverwrites).toHaveLength(1);
    const refused = await m.sdk
      .as("bob")
      .say(String(c.id), "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "addRole, kickMember and banMember with reasons, then getAuditLog", async () => {
    const g = W().guilds.Lab.id;
    await h().addRole(g, W().users.erin.id, W().guilds.Lab.roles.Helper, "helping out");
    expect((await h().getMember(g, W().users.erin.id)).roles.map(String)).toContain(W().guilds.Lab.roles.Helper);
    await h().kickMember(g, W().users.carol.id, "kicked by discordeno");
    await h().banMember(g, W().users.dave.id, {}, "banned by discordeno");
    expect((await h().getBan(g, W().users.dave.id)).reason).toBe("banned by discordeno");
    const kicks = await h().getAuditLog(g, { actionType: 20 });
    expect(kicks.auditLogEntries[0]).toMatchObject({
      reason: "kicked by discordeno",
      targetId: W().users.carol.id,
      userId: String(full.bot.id),
    });
    const bans = await h().getAuditLog(g, { actionType: 22 });
    expect(bans.auditLogEntries[0]).toMatchObject({ reason: "banned by discordeno", targetId: W().users.dave.id });
  });

  scenario(LIB, "webhooks", "createWebhook and executeWebhook; people see the message", async () => {
    const hook = await h().createWebhook(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await h().executeWebhook(hook.id, hook.token, { content: "from a webhook", username: "Alarm", wait: true });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === String(sent.id), { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: String(hook.id) });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[any]>(full.on, "messageCreate", (msg) => String(msg.author.id) === W().users.alice.id && !msg.guildId);
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [msg] = await got;
    expect(String(msg.id)).toBe(sent.id);
    expect(String(msg.channelId)).toBe(sent.channel_id);
    expect(msg.content ?? "").toBe("");
    const dm = await h().getDmChannel(W().users.alice.id);
    expect(String(dm.id)).toBe(sent.channel_id);
    const reply = await h().sendMessage(dm.id, { content: "got your envelope" });
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === String(reply.id), { as: "alice" })).content).toBe(
      "got your envelope",
    );
  });

  scenario(LIB, "slash-commands", "upsertGlobalApplicationCommands, a reply, defer + edit, a follow-up", async () => {
    full.on.on("interactionCreate", async (i: any) => {
      if (i.type !== 2) return;
      const name = i.data.name;
      if (name === "hello")
        await h().sendInteractionResponse(i.id, i.token, { type: 4, data: { content: `hello ${i.data.options[0].value}` } });
      if (name === "slow") {
        await h().sendInteractionResponse(i.id, i.token, { type: 5 });
        await h().editOriginalInteractionResponse(i.token, { content: "slow done" });
      }
      if (name === "multi") {
        await h().sendInteractionResponse(i.id, i.token, { type: 4, data: { content: "first" } });
        await h().sendFollowupMessage(i.token, { content: "second" });
        await h().editOriginalInteractionResponse(i.token, { content: "first, edited" });
      }
    });
    const set = await h().upsertGlobalApplicationCommands([
      { type: 1, name: "hello", description: "Greets", options: [{ type: 3, name: "who", description: "who", required: true }] },
      { type: 1, name: "slow", description: "Deferred" },
      { type: 1, name: "multi", description: "Reply, follow up, edit" },
    ]);
    expect(set.map((c: any) => c.name)).toEqual(["hello", "slow", "multi"]);
    const state = interactionStates(m);
    expect((await state("hello", [{ name: "who", value: "alice" }], (s) => s.state === "responded")).response.content).toBe("hello alice");
    expect((await state("slow", undefined, (s) => s.state === "responded")).response.content).toBe("slow done");
    const multi = await state("multi", undefined, (s) => s.followups.length === 1 && s.response?.content === "first, edited");
    expect(multi.followups[0].content).toBe("second");
  });

  scenario(LIB, "components", "a button click updates its message (type 7); a select answers with the values", async () => {
    full.on.on("interactionCreate", async (i: any) => {
      if (i.type !== 3) return;
      if (i.data.customId === "dd-yes")
        await h().sendInteractionResponse(i.id, i.token, { type: 7, data: { content: "clicked yes", components: [] } });
      if (i.data.customId === "dd-colour")
        await h().sendInteractionResponse(i.id, i.token, { type: 4, data: { content: `picked ${i.data.values.join(",")}` } });
    });
    const panel = await h().sendMessage(ch("general"), {
      content: "choose",
      components: [
        { type: 1, components: [{ type: 2, customId: "dd-yes", label: "Yes", style: 3 }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              customId: "dd-colour",
              options: [
                { label: "Red", value: "r" },
                { label: "Blue", value: "b" },
              ],
            },
          ],
        },
      ],
    });
    const responded = (id: string) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return s.state === "responded" ? s : null;
      });
    const pick = await m.sdk
      .as("bob")
      .interact({ channel_id: "general", message_id: String(panel.id), custom_id: "dd-colour", values: ["r"] });
    expect((await responded(pick.id)).response.content).toBe("picked r");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: String(panel.id), custom_id: "dd-yes" });
    expect((await responded(click.id)).response).toMatchObject({ id: String(panel.id), content: "clicked yes", components: [] });
  });

  scenario(LIB, "disallowed-intents", "start with an unapproved MESSAGE_CONTENT: the shard throws the 4014 close reason", async () => {
    // discordeno throws from its socket's close handler, uncaught: a bot in a process of its own sees it.
    const proc = Bun.spawn(
      [
        process.execPath,
        join(BOTS, "dd_intents.ts"),
        m.sdk.apiBase,
        m.sdk.tokenOf("PlainBot"),
        W().applications.PlainBot.id,
        String(PLAIN_INTENTS | BITS.MESSAGE_CONTENT),
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    const timer = setTimeout(() => proc.kill(), 10_000);
    const out = await new Response(proc.stdout).text();
    clearTimeout(timer);
    expect(
      out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([{ event: expect.stringMatching(/^(uncaughtException|unhandledRejection)$/), message: "Disallowed intent(s)." }]);
    expect(liveSessions(m, "PlainBot")).toEqual([]);
  });

  scenario.concurrent(LIB, "resume", "after a server-side 4000 close the shard resumes and gets the message it missed", async () => {
    const [session] = liveSessions(m, "FullBot");
    const resumed = next(full.on, "resumed");
    const missed = next<[any]>(full.on, "messageCreate", (msg) => msg.content === "missed while away");
    expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    await m.sdk.as("bob").say("general", "missed while away");
    await resumed;
    expect(String((await missed)[0].author.id)).toBe(W().users.bob.id);
    expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
  });

  scenario.concurrent(
    LIB,
    "invalid-session",
    "a RESUME of an expired session gets op 9; the shard identifies afresh (after its 1 to 5 s wait)",
    async () => {
      const lone = await server();
      const c = await connect(newBot(lone, "CycleBot", PLAIN_INTENTS));
      const [old] = liveSessions(lone, "CycleBot");
      const readyAgain = next(c.on, "ready", () => true, 10_000);
      expireAfterClose(lone, old.session_id);
      await readyAgain;
      const now = await until("a fresh session", () => {
        const s = liveSessions(lone, "CycleBot");
        return s.length === 1 && s[0].session_id !== old.session_id ? s : null;
      });
      expect(now).toHaveLength(1);
      const got = next<[any]>(c.on, "messageCreate", (msg) => String(msg.author.id) === lone.sdk.world.users.bob.id);
      const said = await lone.sdk.as("bob").say("general", "after the new session");
      expect(String((await got)[0].id)).toBe(said.id);
    },
    20_000,
  );

  scenario.concurrent(
    LIB,
    "token-rotation",
    "rotation ends the live session; the old token's REST calls reject with status 401",
    async () => {
      const c = await connect(newBot(m, "RotBot", PLAIN_INTENTS));
      expect(liveSessions(m, "RotBot")).toHaveLength(1);
      await m.sdk.rotate("RotBot");
      await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
      const err = await c.bot.helpers.getUser(W().users.bob.id).catch((e: any) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err.cause).toMatchObject({ ok: false, status: 401 });
      expect(JSON.parse(err.cause.body).code).toBe(0);
      // discordeno would identify again with the old token after every op 9: the bot stops.
      await c.stop();
      expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
    },
  );

  scenario.concurrent(
    LIB,
    "bucket-429",
    "sendMessage meets a 429 (bucket 2 per 1 s on this server); discordeno waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const c = newBot(rl, "FullBot", FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const { cursor } = await rl.sdk.transcript("FullBot");
      const sent = await Promise.all([1, 2, 3].map((n) => c.bot.helpers.sendMessage(spam, { content: `queued ${n}` })));
      expect(sent.map((s: any) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      const limited = await limitedSince(rl, "FullBot", cursor);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === false)).toBe(true);
    },
  );

  scenario.concurrent(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); discordeno waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const c = newBot(rl, "FullBot", FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      const sent = await Promise.all(BURST.map((n) => c.bot.helpers.sendMessage(spam, { content: `burst ${n}` })));
      expect(sent.map((s: any) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      const limited = await limitedSince(rl, "FullBot", "0");
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === true)).toBe(true);
    },
  );

  scenario(LIB, "not-implemented", "getGuildTemplates (no templates in Parley) rejects with the 501", async () => {
    const err = await h()
      .getGuildTemplates(W().guilds.Lab.id)
      .catch((e: any) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.cause).toMatchObject({ ok: false, status: 501 });
    expect(JSON.parse(err.cause.body).code).toBe(0);
  });

  scenario(LIB, "epoch", "with the baseMessage shim, a message's timestamp (read from its id) is the server's time", async () => {
    const undo = runShim(LIB, { baseMessage }, [[baseMessage, "timestamp"]]);
    try {
      await epochProbe("shim", true);
    } finally {
      undo();
    }
  });

  scenario(LIB, "epoch-unshimmed", "a message's timestamp, read from its id and not from the payload, is ten years early", async () => {
    await epochProbe("plain", false);
  });
});

describe("discordeno stopped", () => {
  test("stopped while a shard reconnects (its socket still connecting), it stays stopped: nothing connects once its server is gone", async () => {
    const s = await server({ heartbeatIntervalMs: 1500 });
    const b = await connect(newBot(s, "FullBot", FULL_INTENTS));
    // A zombied connection makes the shard reconnect; stop it the moment its new socket is made.
    const stopped = new Promise<void>((done) => b.on.once("connecting", () => queueMicrotask(() => void b.stop().then(done))));
    await s.sdk.faults.dropHeartbeatAcks("FullBot", 1);
    await stopped;
    await Bun.sleep(300);
    await s.sdk.stop();
    const after = b.connects();
    await Bun.sleep(500);
    expect(b.connects() - after).toBe(0);
  }, 20_000);
});

faultCells({
  lib: LIB,
  async start(s) {
    const b = newBot(s, "FullBot", FULL_INTENTS);
    const errors: unknown[] = [];
    b.on.on("messageCreate", (msg: any) => {
      if (msg.content?.startsWith("!echo "))
        b.bot.helpers.sendMessage(msg.channelId, { content: msg.content.slice(6) }).catch((e: unknown) => errors.push(e));
    });
    await connect(b);
    return { errors, stop: b.stop };
  },
});
