/**
 * The compatibility matrix, detritus-client 0.16 column (unmaintained since 2021, API
 * v9): a real detritus ShardClient bot per scenario, written as its users wrote one (a
 * ShardClient with its cache, its events, client.rest calls, interaction structures), in
 * this process (it runs under Bun on the `ws` package) against a real Parley on a free
 * port, except where it must retry a request: its retry re-sends a node-fetch Request
 * whose body Bun's node-fetch has consumed, so those sends run under Node
 * (bots/dt_rest.cjs); people are played through the harness (src/testing). One server and one FullBot
 * are shared; scenarios that end sessions or need other rate limits get their own server.
 *
 * What a detritus user pointing it at Parley sets (docs/compatibility.md): the REST base
 * (its default is discord.com/api/v9), `gateway.compress: false` (it asks for zlib-stream
 * by default and Parley sends JSON text only, spec 6.1), and the applications cache off
 * (else READY fetches GET /applications/detectable, a user-client route Parley answers
 * 501, which detritus only warns about).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { ShardClient } from "detritus-client";
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
import { Constants } from "detritus-utils";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "detritus-client";

let m: MatrixServer;
let bot: ShardClient;
const clients: ShardClient[] = [];
const servers: MatrixServer[] = [];

function newClient(s: MatrixServer, token: string, intents: number): ShardClient {
  const c = new ShardClient(token, {
    isBot: true,
    cache: { applications: { enabled: false } },
    rest: { baseUrl: s.sdk.restBase },
    gateway: { compress: false, intents },
  } as any);
  // detritus reports what it cannot do as warnings; nothing here should throw out of it.
  c.on("warn", () => {});
  clients.push(c);
  return c;
}

async function connect(c: ShardClient): Promise<ShardClient> {
  const ready = next(c, "gatewayReady");
  await c.run();
  await ready;
  return c;
}

async function server(config = {}): Promise<MatrixServer> {
  const s = await startMatrix(config);
  servers.push(s);
  return s;
}

/**
 * Sends through detritus's REST run by Node (bots/dt_rest.cjs): under Bun its 429 retry
 * re-sends a node-fetch Request whose body Bun's node-fetch has already consumed, and
 * fails. One result per content: { ok, content } or { ok: false, status }.
 */
async function nodeSends(s: MatrixServer, token: string, channelId: string, contents: string[]): Promise<any[]> {
  const node = Bun.which("node");
  if (!node) throw new Error("node is missing: the detritus rate-limit cells run its REST under Node");
  const proc = Bun.spawn([node, join(BOTS, "dt_rest.cjs"), s.sdk.restBase, token, channelId, ...contents], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill(), 20_000);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  clearTimeout(timer);
  const lines = out.trim().split("\n").filter(Boolean);
  if (lines.length !== contents.length) throw new Error(`dt_rest.cjs printed ${lines.length} results: ${out} ${err}`);
  return lines.map((l) => JSON.parse(l));
}

const W = () => m.sdk.world;
const ch = (name: string) => m.sdk.channelId(name);
const appId = () => W().applications.FullBot.id;

/**
 * The createdAtUnix detritus reads from ids (a person's message, a click on the bot's
 * button) against the server's time, and what `interaction.deleted` (an expiry check
 * over createdAtUnix) says of the fresh click, and does to the client's cache.
 */
async function epochProbe(tag: string, shimmed: boolean): Promise<{ deleted: boolean; cached: boolean }> {
  const got = next<[any]>(bot, "messageCreate", ({ message }) => message.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [{ message }] = await got;
  expectLibraryTime(message.createdAtUnix, message.id, shimmed);
  expectServerTime(message.id, await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `dt-epoch-${tag}`;
  const panel = await bot.rest.createMessage(ch("ops"), {
    content: "when?",
    components: [{ type: 1, components: [{ type: 2, customId: custom, label: "When", style: 1 }] }],
  } as any);
  const clicked = next<[any]>(
    bot,
    "interactionCreate",
    ({ interaction }) => interaction.type === 3 && interaction.data.customId === custom,
  );
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [{ interaction }] = await clicked;
  expectLibraryTime(interaction.createdAtUnix, interaction.id, shimmed);
  expectServerTime(interaction.id, { from, to });
  const deleted = interaction.deleted;
  const cached = bot.interactions.has(interaction.id);
  await interaction.respond(6);
  return { deleted, cached };
}

beforeAll(async () => {
  m = await server();
  bot = await connect(newClient(m, m.sdk.tokenOf("FullBot"), FULL_INTENTS));
});

afterAll(async () => {
  for (const c of clients) c.kill();
  for (const s of servers) await s.sdk.stop();
});

describe("detritus-client matrix", () => {
  scenario(LIB, "login", "gatewayReady with the guild, its channels and every member cached", async () => {
    expect(bot.userId).toBe(W().applications.FullBot.bot_user_id);
    const guild = bot.guilds.get(W().guilds.Lab.id)!;
    expect(guild.name).toBe("Lab");
    expect(guild.channels.map((c) => c.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(guild.channels.get(ch("general"))?.type).toBe(0);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(guild.members.has(W().users[who].id)).toBe(true);
    expect(guild.members.length).toBe(guild.memberCount);
    expect(guild.members.get(bot.userId)!.roles.has(W().guilds.Lab.roles.BotRole)).toBe(true);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while ready: guildCreate with fromUnavailable false (a join) and the server cached; the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      const joined = next<[any]>(bot, "guildCreate", ({ guild }) => guild.id === annex);
      await setInstalled(m, "FullBot", "Annex", true);
      const [{ fromUnavailable, guild }] = await joined;
      expect(fromUnavailable).toBe(false);
      expect(guild.name).toBe("Annex");
      expect(guild.channels.map((x: any) => x.name)).toEqual(["lobby"]);
      for (const who of ["alice", "bob"]) expect(guild.members.has(W().users[who].id)).toBe(true);
      expect(guild.members.has(bot.userId)).toBe(true);
      // The handler, as join handlers go: a welcome post in the first text channel.
      const welcome = await bot.rest.createMessage(guild.channels.find((x: any) => x.type === 0).id, { content: WELCOME(guild.name) });
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[any]>(bot, "guildDelete", ({ guildId }) => guildId === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
    },
  );

  scenario(LIB, "message-content", "messageCreate with content; the bot's reply is edited and deleted", async () => {
    const got = next<[any]>(bot, "messageCreate", ({ message }) => message.content === "hello detritus");
    const said = await m.sdk.as("bob").say("general", "hello detritus");
    const [{ message }] = await got;
    expect(message.id).toBe(said.id);
    expect(message.author.id).toBe(W().users.bob.id);
    const reply = await message.reply({ content: "hi bob", messageReference: { messageId: message.id } });
    expect((await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" })).message_reference?.message_id).toBe(said.id);

    const updated = next<[any]>(bot, "messageUpdate", ({ messageId }) => messageId === reply.id);
    await bot.rest.editMessage(reply.channelId, reply.id, { content: "hi bob, edited" });
    expect((await updated)[0].message.content).toBe("hi bob, edited");
    const deleted = next<[any]>(bot, "messageDelete", ({ messageId }) => messageId === reply.id);
    await bot.rest.deleteMessage(reply.channelId, reply.id);
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the event and the history carry empty content", async () => {
    const plain = await connect(newClient(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS));
    const got = next<[any]>(plain, "messageCreate", ({ message }) => message.author.id === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [{ message }] = await got;
    expect(message.id).toBe(said.id);
    expect(message.content).toBe("");
    const history = await plain.rest.fetchMessages(ch("ops"), { limit: 5 });
    expect(history.find((x: any) => x.id === said.id)?.content).toBe("");
    plain.kill();
  });

  scenario(LIB, "embeds-components", "createMessage with an embed and components; a person's embed arrives", async () => {
    const sent = await bot.rest.createMessage(ch("general"), {
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
    } as any);
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({ title: "Status", fields: [{ name: "cpu", value: "3%" }] });
    expect(seen.components[0].components).toEqual([
      expect.objectContaining({ type: 2, custom_id: "ok", style: 1 }),
      expect.objectContaining({ type: 2, url: "https://example.com", style: 5 }),
    ]);
    const got = next<[any]>(bot, "messageCreate", ({ message }) => message.author.id === W().users.alice.id && message.embeds.length > 0);
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice" }] });
    expect((await got)[0].message.embeds.first().title).toBe("From alice");
  });

  scenario(LIB, "reactions", "createReaction; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await bot.rest.createReaction(ch("general"), said.id, "👍");
    const added = next<[any]>(bot, "messageReactionAdd", ({ userId }) => userId === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [r] = await added;
    expect(r.messageId).toBe(said.id);
    expect(r.reaction.emoji.name).toBe("🎉");
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((x: any) => x.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[any]>(bot, "messageReactionRemove", ({ userId }) => userId === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[0].reaction.emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; triggerTyping is accepted", async () => {
    const got = next<[any]>(bot, "typingStart", ({ userId }) => userId === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect((await got)[0].channelId).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await bot.rest.triggerTyping(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(bot.userId)]);
    ev.stop();
  });

  scenario(LIB, "channels", "createGuildChannel and editChannelOverwrite, enforced for people", async () => {
    const created = next<[any]>(bot, "channelCreate", ({ channel }) => channel.name === "made-by-detritus");
    const c = await bot.rest.createGuildChannel(W().guilds.Lab.id, { name: "made-by-detritus", type: 0, topic: "a bot made this" });
    expect((await created)[0].channel.id).toBe(c.id);
    const updated = next<[any]>(bot, "channelUpdate", ({ channel }) => channel.id === c.id);
    await bot.rest.editChannelOverwrite(c.id, W().users.bob.id, { type: 1, allow: 0, deny: 2048 } as any);
    await updated;
    expect(String(bot.channels.get(c.id)!.permissionOverwrites.get(W().users.bob.id)!.deny)).toBe("2048");
    const refused = await m.sdk
      .as("bob")
      .say(c.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(
    LIB,
    "moderation",
    "addGuildMemberRole and removeGuildMember with reasons, createGuildBan, then fetchGuildAuditLogs",
    async () => {
      const g = W().guilds.Lab.id;
      await bot.rest.addGuildMemberRole(g, W().users.erin.id, W().guilds.Lab.roles.Helper, { reason: "helping out" });
      expect((await bot.rest.fetchGuildMember(g, W().users.erin.id)).roles.has(W().guilds.Lab.roles.Helper)).toBe(true);
      await bot.rest.removeGuildMember(g, W().users.carol.id, { reason: "kicked by detritus" });
      // detritus sends a ban's reason as the old `?reason=` query parameter, which v10 (and
      // Parley) ignore: the ban lands, without its reason (docs/compatibility.md).
      await bot.rest.createGuildBan(g, W().users.dave.id, { reason: "banned by detritus" });
      expect((await bot.rest.fetchGuildBans(g)).find((b: any) => b.user.id === W().users.dave.id)).toBeTruthy();
      const kicks = await bot.rest.fetchGuildAuditLogs(g, { actionType: 20 });
      expect(kicks.first()).toMatchObject({ reason: "kicked by detritus", targetId: W().users.carol.id, userId: bot.userId });
      const bans = await bot.rest.fetchGuildAuditLogs(g, { actionType: 22 });
      expect(bans.first()).toMatchObject({ targetId: W().users.dave.id, userId: bot.userId });
    },
  );

  scenario(LIB, "webhooks", "createWebhook and executeWebhook; people see the message", async () => {
    const hook = await bot.rest.createWebhook(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await bot.rest.executeWebhook(hook.id, hook.token!, { content: "from a webhook", username: "Alarm", wait: true });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent?.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: hook.id });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[any]>(bot, "messageCreate", ({ message }) => message.author.id === W().users.alice.id && !message.guildId);
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [{ message }] = await got;
    expect(message.id).toBe(sent.id);
    expect(message.channelId).toBe(sent.channel_id);
    expect(message.content).toBe("");
    const dm = await bot.rest.createDm({ recipientId: W().users.alice.id });
    expect(dm.id).toBe(sent.channel_id);
    const reply = await bot.rest.createMessage(dm.id, { content: "got your envelope" });
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" })).content).toBe("got your envelope");
  });

  scenario(
    LIB,
    "slash-commands",
    "bulkOverwriteApplicationCommands, respond, defer + editResponse, createMessage (follow-up)",
    async () => {
      bot.on("interactionCreate", async ({ interaction }: any) => {
        if (interaction.type !== 2) return;
        const name = interaction.data.name;
        if (name === "hello") await interaction.respond(4, { content: `hello ${interaction.data.options.first().value}` });
        if (name === "slow") {
          await interaction.respond(5);
          await interaction.editResponse({ content: "slow done" });
        }
        if (name === "multi") {
          await interaction.respond(4, { content: "first" });
          await interaction.createMessage({ content: "second" });
          await interaction.editResponse({ content: "first, edited" });
        }
      });
      const set = await bot.rest.bulkOverwriteApplicationCommands(appId(), [
        { type: 1, name: "hello", description: "Greets", options: [{ type: 3, name: "who", description: "who", required: true }] },
        { type: 1, name: "slow", description: "Deferred" },
        { type: 1, name: "multi", description: "Reply, follow up, edit" },
      ] as any);
      expect(set.map((x: any) => x.name)).toEqual(["hello", "slow", "multi"]);
      const state = interactionStates(m);
      expect((await state("hello", [{ name: "who", value: "alice" }], (s) => s.state === "responded")).response.content).toBe(
        "hello alice",
      );
      expect((await state("slow", undefined, (s) => s.state === "responded")).response.content).toBe("slow done");
      const multi = await state("multi", undefined, (s) => s.followups.length === 1 && s.response?.content === "first, edited");
      expect(multi.followups[0].content).toBe("second");
    },
  );

  scenario(LIB, "components", "a button click updates its message (type 7); a select answers with the values", async () => {
    bot.on("interactionCreate", async ({ interaction }: any) => {
      if (interaction.type !== 3) return;
      if (interaction.data.customId === "dt-yes") await interaction.respond(7, { content: "clicked yes", components: [] });
      if (interaction.data.customId === "dt-colour")
        await interaction.respond(4, { content: `picked ${interaction.data.values.join(",")}` });
    });
    const panel = await bot.rest.createMessage(ch("general"), {
      content: "choose",
      components: [
        { type: 1, components: [{ type: 2, customId: "dt-yes", label: "Yes", style: 3 }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              customId: "dt-colour",
              options: [
                { label: "Red", value: "r" },
                { label: "Blue", value: "b" },
              ],
            },
          ],
        },
      ],
    } as any);
    const responded = (id: string) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return s.state === "responded" ? s : null;
      });
    const pick = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "dt-colour", values: ["r"] });
    expect((await responded(pick.id)).response.content).toBe("picked r");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "dt-yes" });
    expect((await responded(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });
  });

  scenario(LIB, "disallowed-intents", "run with an unapproved MESSAGE_CONTENT: the gateway is killed with the 4014 error", async () => {
    const bad = newClient(m, m.sdk.tokenOf("PlainBot"), PLAIN_INTENTS | BITS.MESSAGE_CONTENT);
    const killed = next<[any]>(bad.gateway, "killed");
    await bad.run({ wait: false } as any);
    const [{ error }] = await killed;
    expect(error.code).toBe(4014);
    expect(String(error.reason ?? error.message)).toMatch(/disallowed intent/i);
    expect(liveSessions(m, "PlainBot")).toEqual([]);
  });

  scenario.concurrent(
    LIB,
    "resume",
    "after a server-side 4000 close the gateway resumes (after its 5 s reconnect delay) and gets the message it missed",
    async () => {
      const [session] = liveSessions(m, "FullBot");
      // detritus reconnects reconnectDelay (5 s by default) after a close.
      const resumed = next(bot, "gatewayResumed", () => true, 12_000);
      const missed = next<[any]>(bot, "messageCreate", ({ message }) => message.content === "missed while away", 12_000);
      expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
      await m.sdk.as("bob").say("general", "missed while away");
      await resumed;
      expect((await missed)[0].message.author.id).toBe(W().users.bob.id);
      expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
    },
  );

  scenario.concurrent(
    LIB,
    "invalid-session",
    "a RESUME of an expired session gets op 9; the gateway identifies afresh (after its 1 to 5 s wait)",
    async () => {
      const lone = await server();
      const c = await connect(newClient(lone, lone.sdk.tokenOf("CycleBot"), PLAIN_INTENTS));
      const [old] = liveSessions(lone, "CycleBot");
      expireAfterClose(lone, old.session_id);
      const now = await until(
        "a fresh session",
        () => {
          const s = liveSessions(lone, "CycleBot");
          return s.length === 1 && s[0].session_id !== old.session_id ? s : null;
        },
        15_000,
      );
      expect(now).toHaveLength(1);
      const got = next<[any]>(c, "messageCreate", ({ message }) => message.author.id === lone.sdk.world.users.bob.id);
      const said = await lone.sdk.as("bob").say("general", "after the new session");
      expect((await got)[0].message.id).toBe(said.id);
    },
    25_000,
  );

  scenario.concurrent(
    LIB,
    "token-rotation",
    "rotation ends the live session; the old token's REST calls reject with HTTPError 401",
    async () => {
      const c = await connect(newClient(m, m.sdk.tokenOf("RotBot"), PLAIN_INTENTS));
      expect(liveSessions(m, "RotBot")).toHaveLength(1);
      await m.sdk.rotate("RotBot");
      await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
      const err = await c.rest.fetchUser(W().users.bob.id).catch((e: any) => e);
      expect(err.response.statusCode).toBe(401);
      expect(err.code).toBe(0);
      // detritus would identify again with the old token after every op 9: the bot stops.
      c.kill();
      expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
    },
  );

  scenario.concurrent(
    LIB,
    "bucket-429",
    "createMessage (under Node) meets a 429 (bucket 2 per 1 s on this server); detritus waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const { cursor } = await rl.sdk.transcript("FullBot");
      const sent = await nodeSends(rl, rl.sdk.tokenOf("FullBot"), spam, ["queued 1", "queued 2", "queued 3"]);
      expect(sent).toEqual(["queued 1", "queued 2", "queued 3"].map((content) => ({ ok: true, content })));
      const limited = await limitedSince(rl, "FullBot", cursor);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === false)).toBe(true);
    },
  );

  scenario.concurrent(
    LIB,
    "global-429",
    "a burst (under Node) meets the global window (5 per 1 s on this server); detritus waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const spam = rl.sdk.channelId("spam");
      const sent = await nodeSends(
        rl,
        rl.sdk.tokenOf("FullBot"),
        spam,
        BURST.map((n) => `burst ${n}`),
      );
      expect(sent).toEqual(BURST.map((n) => ({ ok: true, content: `burst ${n}` })));
      const limited = await limitedSince(rl, "FullBot", "0");
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === true)).toBe(true);
    },
  );

  scenario(LIB, "not-implemented", "fetchGuildTemplates (no templates in Parley) rejects with the 501", async () => {
    const err = await bot.rest.fetchGuildTemplates(W().guilds.Lab.id).catch((e: any) => e);
    expect(err.response.statusCode).toBe(501);
    expect(err.code).toBe(0);
  });

  scenario(
    LIB,
    "epoch",
    "with the DISCORD_SNOWFLAKE_EPOCH shim, createdAtUnix of a message and an interaction is the server's time; a fresh interaction is not deleted",
    async () => {
      const undo = runShim(LIB, { Constants }, [[Constants, "DISCORD_SNOWFLAKE_EPOCH"]]);
      try {
        expect(await epochProbe("shim", true)).toEqual({ deleted: false, cached: true });
      } finally {
        undo();
      }
    },
  );

  scenario(
    LIB,
    "epoch-unshimmed",
    "createdAtUnix is ten years early; every fresh interaction reads as deleted (timed out), which drops it from the cache",
    async () => {
      expect(await epochProbe("plain", false)).toEqual({ deleted: true, cached: false });
    },
  );
});

faultCells({
  lib: LIB,
  async start(s) {
    const c = await connect(newClient(s, s.sdk.tokenOf("FullBot"), FULL_INTENTS));
    const errors: unknown[] = [];
    c.on("messageCreate", ({ message }: any) => {
      if (message.content.startsWith("!echo "))
        c.rest.createMessage(message.channelId, { content: message.content.slice(6) }).catch((e: unknown) => errors.push(e));
    });
    return { errors, stop: async () => c.kill() };
  },
  // Its REST retries (429s) work under Node only, so the REST fault cells send from there.
  send: async (s, channelId, content) => ({ ok: (await nodeSends(s, s.sdk.tokenOf("FullBot"), channelId, [content]))[0].ok }),
});
