/**
 * The compatibility matrix, eris 0.18 column: a real eris bot per scenario, written as an
 * eris user writes one (a Client with cached guilds, events, the client's REST methods),
 * in this process (eris runs under Bun unchanged) against a real Parley on a free port;
 * people are played through the harness (src/testing). One server and one FullBot are
 * shared; scenarios that end sessions or need other rate limits get their own server.
 *
 * Eris's REST is `https.request({ host: rest.domain, path: rest.baseURL + route })`: TLS
 * on port 443, no protocol or port option. Its `rest.agent` option is the way in: an
 * https.Agent whose sockets are plain TCP to Parley (docs/compatibility.md).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { Agent, type RequestOptions } from "node:https";
import type { Duplex } from "node:stream";
import { connect as tcp } from "node:net";
import { Base, Client, CommandInteraction, ComponentInteraction, DiscordHTTPError, type Guild, type Message, type TextChannel } from "eris";
import { scenario } from "./matrix";
import { recordEvents } from "../helpers";
import {
  BITS,
  BURST,
  exhaustMessageBucket,
  expireAfterClose,
  FULL_INTENTS,
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
import { next } from "./support";
import { faultCells } from "./fault-cells";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "eris";

/** An https.Agent whose connections are plain TCP to the server (eris speaks TLS on 443 otherwise). */
class PlainAgent extends Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: true });
  }
  createConnection(_opts: RequestOptions, cb?: (err: Error | null, s: Duplex) => void): Duplex {
    const s = tcp(this.port, "127.0.0.1");
    if (cb) s.once("connect", () => cb(null, s));
    return s;
  }
}

let m: MatrixServer;
let bot: Client;
const clients: Client[] = [];
const servers: MatrixServer[] = [];

function newClient(s: MatrixServer, token: string, intents: number): Client {
  const url = new URL(s.sdk.baseUrl);
  const c = new Client(`Bot ${token}`, {
    intents,
    restMode: true,
    autoreconnect: true,
    rest: { domain: url.host, baseURL: "/api/v10", agent: new PlainAgent(Number(url.port)) as never },
  });
  // Without an error listener an emitted error would throw out of the library.
  c.on("error", () => {});
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

/**
 * The createdAt eris reads from ids (a person's message, a click on the bot's button)
 * against the server's time, and what deleteMessages() (bulk delete) makes of two of the
 * bot's fresh messages: its own 14-day check has the 2015 epoch written into it.
 */
async function epochProbe(tag: string, shimmed: boolean): Promise<{ bulk: unknown; left: number }> {
  const got = next<[Message]>(bot, "messageCreate", (msg: Message) => msg.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [msg] = await got;
  expectLibraryTime(msg.createdAt, msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `er-epoch-${tag}`;
  const panel = await bot.createMessage(ch("ops"), {
    content: "when?",
    components: [{ type: 1, components: [{ type: 2, custom_id: custom, label: "When", style: 1 }] }],
  });
  const clicked = next<[ComponentInteraction]>(
    bot,
    "interactionCreate",
    (i: any) => i instanceof ComponentInteraction && i.data.custom_id === custom,
  );
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [click] = await clicked;
  await click.deferUpdate();
  expectLibraryTime(click.createdAt, click.id, shimmed);
  expectServerTime(click.id, { from, to });

  const fresh = [await bot.createMessage(ch("ops"), `tidy ${tag} 1`), await bot.createMessage(ch("ops"), `tidy ${tag} 2`)].map((x) => x.id);
  const bulk = await bot.deleteMessages(ch("ops"), fresh).then(
    () => "deleted",
    (e: Error) => e.message,
  );
  const stored = new Set((await m.sdk.messages("ops", { as: "alice", limit: 10 })).map((x) => x.id));
  return { bulk, left: fresh.filter((id) => stored.has(id)).length };
}

beforeAll(async () => {
  m = await server();
  bot = await connect(newClient(m, m.sdk.tokenOf("FullBot"), FULL_INTENTS));
});

afterAll(async () => {
  for (const c of clients) c.disconnect({ reconnect: false });
  for (const s of servers) await s.sdk.stop();
});

describe("eris matrix", () => {
  scenario(LIB, "login", "ready with the guild, its channels and every member cached", async () => {
    expect(bot.user.id).toBe(W().applications.FullBot.bot_user_id);
    const guild = bot.guilds.get(W().guilds.Lab.id)!;
    expect(guild.name).toBe("Lab");
    expect(guild.channels.map((c) => c.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(guild.channels.get(ch("general"))?.type).toBe(0);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(guild.members.has(W().users[who].id)).toBe(true);
    expect(guild.members.size).toBe(guild.memberCount);
    expect(guild.members.get(bot.user.id)!.roles).toContain(W().guilds.Lab.roles.BotRole);
    expect(bot.application?.id).toBe(W().applications.FullBot.id);
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
      const lobby = guild.channels.find((c) => c.type === 0) as TextChannel;
      const welcome = await lobby.createMessage(WELCOME(guild.name));
      bot.off("guildAvailable", onAvailable);
      expect(guild.name).toBe("Annex");
      expect(guild.channels.map((c) => c.name)).toEqual(["lobby"]);
      for (const who of ["alice", "bob"]) expect(guild.members.has(W().users[who].id)).toBe(true);
      expect(guild.members.has(bot.user.id)).toBe(true);
      expect(available).toEqual([]);
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[{ id: string }]>(bot, "guildDelete", (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
    },
  );

  scenario(LIB, "message-content", "messageCreate with content; the bot's reply is edited and deleted", async () => {
    const got = next<[Message]>(bot, "messageCreate", (msg) => msg.content === "hello eris");
    const said = await m.sdk.as("bob").say("general", "hello eris");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.author.id).toBe(W().users.bob.id);
    const reply = await bot.createMessage(msg.channel.id, { content: "hi bob", messageReference: { messageID: msg.id } });
    expect((await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" })).message_reference?.message_id).toBe(said.id);

    const updated = next<[Message]>(bot, "messageUpdate", (n) => n.id === reply.id);
    await reply.edit("hi bob, edited");
    expect((await updated)[0].content).toBe("hi bob, edited");
    const deleted = next<[{ id: string }]>(bot, "messageDelete", (d) => d.id === reply.id);
    await reply.delete();
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the event and the history carry empty content", async () => {
    const plain = await connect(newClient(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS));
    const got = next<[Message]>(plain, "messageCreate", (msg) => msg.author.id === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.content).toBe("");
    const history = await plain.getMessages(ch("ops"), { limit: 5 });
    expect(history.find((x) => x.id === said.id)?.content).toBe("");
    plain.disconnect({ reconnect: false });
  });

  scenario(LIB, "embeds-components", "createMessage with an embed and components; a person's embed arrives", async () => {
    const sent = await bot.createMessage(ch("general"), {
      content: "report",
      embeds: [{ title: "Status", description: "all good", color: 0x00ff00, fields: [{ name: "cpu", value: "3%" }] }],
      components: [
        {
          type: 1,
          components: [
            { type: 2, custom_id: "ok", label: "OK", style: 1 },
            { type: 2, url: "https://example.com", label: "Docs", style: 5 },
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

  scenario(LIB, "reactions", "addMessageReaction; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await bot.addMessageReaction(ch("general"), said.id, "👍");
    const added = next<[any, any, any]>(bot, "messageReactionAdd", (_msg, _emoji, who) => who.id === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [msg, emoji] = await added;
    expect(msg.id).toBe(said.id);
    expect(emoji.name).toBe("🎉");
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((r: any) => r.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[any, any, string]>(bot, "messageReactionRemove", (_msg, _emoji, who) => who === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[1].name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; sendChannelTyping is accepted", async () => {
    const got = next<[any, any]>(bot, "typingStart", (_c, who) => who.id === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect((await got)[0].id).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await bot.sendChannelTyping(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(bot.user.id)]);
    ev.stop();
  });

  scenario(LIB, "channels", "createChannel and editChannelPermission, enforced for people", async () => {
    const created = next<[any]>(bot, "channelCreate", (c) => c.name === "made-by-eris");
    const c = await bot.createChannel(W().guilds.Lab.id, "made-by-eris", 0, { topic: "a bot made this" });
    expect((await created)[0].id).toBe(c.id);
    const updated = next<[any]>(bot, "channelUpdate", (n) => n.id === c.id);
    await bot.editChannelPermission(c.id, W().users.bob.id, 0n, 2048n, 1);
    await updated;
    expect((bot.getChannel(c.id) as TextChannel).permissionOverwrites.get(W().users.bob.id)?.deny).toBe(2048n);
    const refused = await m.sdk
      .as("bob")
      .say(c.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "addGuildMemberRole, kickGuildMember and banGuildMember with reasons, then getGuildAuditLog", async () => {
    const g = W().guilds.Lab.id;
    await bot.addGuildMemberRole(g, W().users.erin.id, W().guilds.Lab.roles.Helper, "helping out");
    expect((await bot.getRESTGuildMember(g, W().users.erin.id)).roles).toContain(W().guilds.Lab.roles.Helper);
    await bot.kickGuildMember(g, W().users.carol.id, "kicked by eris");
    await bot.banGuildMember(g, W().users.dave.id, { reason: "banned by eris" });
    expect((await bot.getGuildBan(g, W().users.dave.id)).reason).toBe("banned by eris");
    const kicks = await bot.getGuildAuditLog(g, { actionType: 20 });
    expect(kicks.entries[0]).toMatchObject({ reason: "kicked by eris", targetID: W().users.carol.id });
    expect(kicks.entries[0].user.id).toBe(bot.user.id);
    const bans = await bot.getGuildAuditLog(g, { actionType: 22 });
    expect(bans.entries[0]).toMatchObject({ reason: "banned by eris", targetID: W().users.dave.id });
  });

  scenario(LIB, "webhooks", "createChannelWebhook and executeWebhook; people see the message", async () => {
    const hook = await bot.createChannelWebhook(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await bot.executeWebhook(hook.id, hook.token!, { content: "from a webhook", username: "Alarm", wait: true });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: hook.id });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[Message]>(bot, "messageCreate", (msg) => msg.author.id === W().users.alice.id && !(msg as any).guildID);
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [msg] = await got;
    expect(msg.id).toBe(sent.id);
    expect(msg.channel.id).toBe(sent.channel_id);
    expect(msg.content).toBe("");
    const dm = await bot.getDMChannel(W().users.alice.id);
    expect(dm.id).toBe(sent.channel_id);
    const reply = await dm.createMessage("got your envelope");
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" })).content).toBe("got your envelope");
  });

  scenario(LIB, "slash-commands", "bulkEditCommands, createMessage, defer + editOriginalMessage, createFollowup", async () => {
    bot.on("interactionCreate", async (i: any) => {
      if (!(i instanceof CommandInteraction)) return;
      if (i.data.name === "hello") await i.createMessage(`hello ${(i.data.options?.[0] as any)?.value}`);
      if (i.data.name === "slow") {
        await i.defer();
        await i.editOriginalMessage("slow done");
      }
      if (i.data.name === "multi") {
        await i.createMessage("first");
        await i.createFollowup("second");
        await i.editOriginalMessage("first, edited");
      }
    });
    const set = await bot.bulkEditCommands([
      { type: 1, name: "hello", description: "Greets", options: [{ type: 3, name: "who", description: "who", required: true }] },
      { type: 1, name: "slow", description: "Deferred" },
      { type: 1, name: "multi", description: "Reply, follow up, edit" },
    ]);
    expect(set.map((c) => c.name)).toEqual(["hello", "slow", "multi"]);
    const state = await interactionStates(m);
    expect((await state("hello", [{ name: "who", value: "alice" }], (s) => s.state === "responded")).response.content).toBe("hello alice");
    expect((await state("slow", undefined, (s) => s.state === "responded")).response.content).toBe("slow done");
    const multi = await state("multi", undefined, (s) => s.followups.length === 1 && s.response?.content === "first, edited");
    expect(multi.followups[0].content).toBe("second");
  });

  scenario(LIB, "components", "a button click edits its message (editParent); a select answers with the values", async () => {
    bot.on("interactionCreate", async (i: any) => {
      if (!(i instanceof ComponentInteraction)) return;
      if (i.data.custom_id === "er-yes") await i.editParent({ content: "clicked yes", components: [] });
      if (i.data.custom_id === "er-colour" && i.data.component_type === 3)
        await i.createMessage(`picked ${(i.data as any).values.join(",")}`);
    });
    const panel = await bot.createMessage(ch("general"), {
      content: "choose",
      components: [
        { type: 1, components: [{ type: 2, custom_id: "er-yes", label: "Yes", style: 3 }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: "er-colour",
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
    const pick = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "er-colour", values: ["r"] });
    expect((await responded(pick.id)).response.content).toBe("picked r");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "er-yes" });
    expect((await responded(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });
  });

  scenario(LIB, "disallowed-intents", "connect with an unapproved MESSAGE_CONTENT: the shard disconnects with the 4014 error", async () => {
    const bad = newClient(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS | BITS.MESSAGE_CONTENT);
    const down = next<[Error | undefined]>(bad, "shardDisconnect", (err) => !!err);
    await bad.connect();
    const [err] = await down;
    expect(String(err)).toMatch(/disallowed intents/i);
    expect((err as any).code).toBe(4014);
    expect(liveSessions(m, "PlainBot")).toEqual([]);
    bad.disconnect({ reconnect: false });
  });

  scenario.concurrent(LIB, "resume", "after a server-side 4000 close the shard resumes and gets the message it missed", async () => {
    const [session] = liveSessions(m, "FullBot");
    const resumed = next(bot, "shardResume");
    const missed = next<[Message]>(bot, "messageCreate", (msg) => msg.content === "missed while away");
    expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    await m.sdk.as("bob").say("general", "missed while away");
    await resumed;
    expect((await missed)[0].author.id).toBe(W().users.bob.id);
    expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
  });

  scenario.concurrent(LIB, "invalid-session", "a RESUME of an expired session gets op 9; the shard identifies afresh", async () => {
    const lone = await server();
    const c = await connect(newClient(lone, lone.sdk.tokenOf("CycleBot"), PLAIN_INTENTS));
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

  scenario.concurrent(
    LIB,
    "token-rotation",
    "rotation ends the live session; the old token's REST calls raise DiscordHTTPError 401",
    async () => {
      const c = await connect(newClient(m, m.sdk.tokenOf("RotBot"), PLAIN_INTENTS));
      expect(liveSessions(m, "RotBot")).toHaveLength(1);
      // Eris would re-identify with the old token for ever: a bot stops it once REST says 401.
      c.on("shardDisconnect", () => void c.getRESTUser(W().users.bob.id).catch((e) => e.code === 0 && c.disconnect({ reconnect: false })));
      await m.sdk.rotate("RotBot");
      await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
      const err = await c.getRESTUser(W().users.bob.id).catch((e) => e);
      expect(err).toBeInstanceOf(DiscordHTTPError);
      expect(err.code).toBe(401);
      await Bun.sleep(300);
      expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
      c.disconnect({ reconnect: false });
    },
  );

  scenario.concurrent(
    LIB,
    "bucket-429",
    "createMessage meets a 429 (bucket 2 per 1 s on this server); eris waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const c = newClient(rl, rl.sdk.tokenOf("FullBot"), FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const { cursor } = await rl.sdk.transcript("FullBot");
      const sent = await Promise.all([1, 2, 3].map((n) => c.createMessage(spam, `queued ${n}`)));
      expect(sent.map((s) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      const limited = await limitedSince(rl, "FullBot", cursor);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === false)).toBe(true);
    },
  );

  scenario.concurrent(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); eris waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const c = newClient(rl, rl.sdk.tokenOf("FullBot"), FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      const sent = await Promise.all(BURST.map((n) => c.createMessage(spam, `burst ${n}`)));
      expect(sent.map((s) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      const limited = await limitedSince(rl, "FullBot", "0");
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === true)).toBe(true);
    },
  );

  scenario(LIB, "not-implemented", "getGuildTemplates (no templates in Parley) rejects with the 501", async () => {
    const err = await bot.getGuildTemplates(W().guilds.Lab.id).catch((e) => e);
    // Eris raises DiscordRESTError only for a non-zero JSON error code; code 0 is an HTTP error.
    expect(err).toBeInstanceOf(DiscordHTTPError);
    expect(err.code).toBe(501);
    expect(err.response).toEqual({ code: 0, message: expect.stringContaining("501: Not Implemented") });
  });

  scenario(
    LIB,
    "epoch",
    "with the Base.getCreatedAt shim, createdAt of a message and an interaction is the server's time; deleteMessages still refuses",
    async () => {
      const undo = runShim(LIB, { Base }, [[Base, "getCreatedAt"]]);
      try {
        const { bulk, left } = await epochProbe("shim", true);
        // deleteMessages() compares ids with a 2015-epoch snowflake of its own, shim or not.
        expect(bulk).toMatch(/^Message \d+ is more than 2 weeks old\.$/);
        expect(left).toBe(2);
      } finally {
        undo();
      }
    },
  );

  scenario(
    LIB,
    "epoch-unshimmed",
    "createdAt of a message and an interaction is ten years early; deleteMessages rejects fresh messages as over 2 weeks old",
    async () => {
      const { bulk, left } = await epochProbe("plain", false);
      expect(bulk).toMatch(/^Message \d+ is more than 2 weeks old\.$/);
      expect(left).toBe(2);
    },
  );
});

/** Run a slash command as alice and wait for the interaction's state to satisfy `ok`. */
async function interactionStates(s: MatrixServer) {
  return async (name: string, options: unknown[] | undefined, ok: (st: any) => boolean) => {
    const r = await s.sdk.as("alice").interact({ channel_id: "general", application_id: "FullBot", name, ...(options ? { options } : {}) });
    expect(r.delivered).toBe(true);
    return s.sdk.waitFor(async () => {
      const st = await s.sdk.harness("GET", `/interactions/${r.id}`);
      return ok(st) ? st : null;
    });
  };
}

faultCells({
  lib: LIB,
  async start(s) {
    const c = await connect(newClient(s, s.sdk.tokenOf("FullBot"), FULL_INTENTS));
    const errors: unknown[] = [];
    c.on("messageCreate", (msg: Message) => {
      if (msg.content.startsWith("!echo ")) c.createMessage(msg.channel.id, msg.content.slice(6)).catch((e) => errors.push(e));
    });
    return { errors, stop: async () => c.disconnect({ reconnect: false }) };
  },
});
