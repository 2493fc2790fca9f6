/**
 * The compatibility matrix, seyfert 5 column: a real seyfert bot per scenario, written as
 * a seyfert user writes one (a Client with its cache, events made with createEvent,
 * Command classes uploaded with uploadCommands, the client's REST shorthands), in this
 * process against a real Parley on a free port; people are played through the harness
 * (src/testing). One server and one FullBot are shared; scenarios that end sessions or
 * need other rate limits get their own server.
 *
 * Under Bun seyfert uses the native WebSocket, so a plain ws:// Parley works as is (its
 * own Node socket always speaks TLS on 443; docs/compatibility.md). Seyfert found two
 * Parley bugs: `created_at` on channel objects made it throw on every channel it built,
 * and HELLO sharing the 101's TCP segment left its Node socket waiting for ever.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { EventEmitter } from "node:events";
import { ApiHandler, Client, Command, Declare, Logger, Options, createEvent, createStringOption, type CommandContext } from "seyfert";
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
import { next } from "./support";
import { faultCells } from "./fault-cells";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "seyfert";
const EVENTS = [
  "botReady",
  "guildCreate",
  "guildDelete",
  "messageCreate",
  "messageUpdate",
  "messageDelete",
  "messageReactionAdd",
  "messageReactionRemove",
  "typingStart",
  "channelCreate",
  "channelUpdate",
  "interactionCreate",
  "resumed",
  "shardDisconnect",
] as const;

interface Bot {
  client: Client;
  /** Every event the bot registered, re-emitted for the tests to wait on. */
  on: EventEmitter;
  stop(): Promise<void>;
}

let m: MatrixServer;
let full: Bot;
const bots: Bot[] = [];
const servers: MatrixServer[] = [];

function newBot(s: MatrixServer, app: string, intents: number, commands: Command[] = []): Bot {
  const token = s.sdk.tokenOf(app);
  const applicationId = s.sdk.world.applications[app].id;
  const on = new EventEmitter();
  const client = new Client({
    getRC: () => ({ token, intents, applicationId, locations: { base: "." } }) as any,
    logger: { active: false },
  } as any);
  client.setServices({ rest: new ApiHandler({ token, domain: s.sdk.baseUrl, baseUrl: "api/v10" }) });
  client.events.set(
    EVENTS.map((name) => createEvent({ data: { name, once: false }, run: (...a: unknown[]) => void on.emit(name, ...a) } as any)) as any,
  );
  client.commands.set(commands);
  const b: Bot = {
    client,
    on,
    stop: async () => {
      (client.gateway as any)?.disconnectAll();
    },
  };
  bots.push(b);
  return b;
}

async function connect(b: Bot): Promise<Bot> {
  const ready = next(b.on, "botReady", () => true, 10_000);
  await b.client.start();
  await ready;
  return b;
}

async function server(config = {}): Promise<MatrixServer> {
  const s = await startMatrix(config);
  servers.push(s);
  return s;
}

const W = () => m.sdk.world;
const ch = (name: string) => m.sdk.channelId(name);
const c = () => full.client;

// Slash commands as seyfert users declare them.
const Hello = Declare({ name: "hello", description: "Greets" })(
  Options({ who: createStringOption({ description: "who", required: true }) })(
    class extends Command {
      async run(ctx: CommandContext<any>) {
        await ctx.write({ content: `hello ${ctx.options.who}` });
      }
    },
  ),
);
const Slow = Declare({ name: "slow", description: "Deferred" })(
  class extends Command {
    async run(ctx: CommandContext) {
      await ctx.deferReply();
      await ctx.editOrReply({ content: "slow done" });
    }
  },
);
const Multi = Declare({ name: "multi", description: "Reply, follow up, edit" })(
  class extends Command {
    async run(ctx: CommandContext) {
      await ctx.write({ content: "first" });
      await ctx.followup({ content: "second" });
      await ctx.editResponse({ content: "first, edited" });
    }
  },
);

/** The createdTimestamp seyfert reads from ids (a person's message, a click on the bot's button) against the server's time. */
async function epochProbe(tag: string, shimmed: boolean): Promise<void> {
  const got = next<[any]>(full.on, "messageCreate", (msg) => msg.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [msg] = await got;
  expectLibraryTime(msg.createdTimestamp, msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `sy-epoch-${tag}`;
  const panel = await c().messages.write(ch("ops"), {
    content: "when?",
    components: [{ type: 1, components: [{ type: 2, custom_id: custom, label: "When", style: 1 }] }] as any,
  });
  const clicked = next<[any]>(full.on, "interactionCreate", (i) => i.isButton?.() && i.customId === custom);
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [click] = await clicked;
  await click.deferUpdate();
  expectLibraryTime(click.createdTimestamp, click.id, shimmed);
  expectServerTime(click.id, { from, to });
}

/** Seyfert's loggers print every shard close; a test run reads what the tests say instead. */
let loud: () => void;

beforeAll(async () => {
  loud = Logger.customize(() => undefined);
  m = await server();
  full = await connect(newBot(m, "FullBot", FULL_INTENTS, [new Hello(), new Slow(), new Multi()] as Command[]));
}, 15_000);

afterAll(async () => {
  for (const b of bots) await b.stop();
  for (const s of servers) await s.sdk.stop();
  loud();
});

describe("seyfert matrix", () => {
  scenario(LIB, "login", "botReady with the guild, its channels and every member cached", async () => {
    expect(c().botId).toBe(W().applications.FullBot.bot_user_id);
    expect(c().applicationId).toBe(W().applications.FullBot.id);
    const guild: any = await c().cache.guilds?.get(W().guilds.Lab.id);
    expect(guild.name).toBe("Lab");
    const channels: any[] = await c().cache.channels!.values(W().guilds.Lab.id);
    expect(channels.map((x) => x.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(channels.find((x) => x.id === ch("general")).type).toBe(0);
    const members: any[] = await c().cache.members!.values(W().guilds.Lab.id);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(members.some((x) => x.id === W().users[who].id)).toBe(true);
    expect(members.length).toBe(guild.memberCount);
    expect(members.find((x) => x.id === c().botId).roles.keys).toContain(W().guilds.Lab.roles.BotRole);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while ready: guildCreate (start-up's servers come as rawGuildCreate) with the server cached; the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      const joined = next<[any]>(full.on, "guildCreate", (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", true);
      const [guild] = await joined;
      expect(guild.name).toBe("Annex");
      const channels: any[] = await c().cache.channels!.values(annex);
      expect(channels.map((x) => x.name)).toEqual(["lobby"]);
      const members: any[] = await c().cache.members!.values(annex);
      expect(members.map((x) => x.id).sort()).toEqual([W().users.alice.id, W().users.bob.id, c().botId].sort());
      // The handler, as join handlers go: a welcome post in the first text channel.
      const welcome = await c().messages.write(channels.find((x) => x.type === 0).id, { content: WELCOME(guild.name) });
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[any]>(full.on, "guildDelete", (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
    },
  );

  scenario(LIB, "message-content", "messageCreate with content; the bot's reply is edited and deleted", async () => {
    const got = next<[any]>(full.on, "messageCreate", (msg) => msg.content === "hello seyfert");
    const said = await m.sdk.as("bob").say("general", "hello seyfert");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.author.id).toBe(W().users.bob.id);
    const reply = await msg.reply({ content: "hi bob" });
    expect((await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" })).message_reference?.message_id).toBe(said.id);

    const updated = next<[any]>(full.on, "messageUpdate", ([n]) => n.id === reply.id);
    await c().messages.edit(reply.id, reply.channelId, { content: "hi bob, edited" });
    expect((await updated)[0][0].content).toBe("hi bob, edited");
    const deleted = next<[any]>(full.on, "messageDelete", (d) => d.id === reply.id);
    await c().messages.delete(reply.id, reply.channelId);
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
  });

  scenario(LIB, "message-no-content", "without MESSAGE_CONTENT the event and the history carry empty content", async () => {
    const plain = await connect(newBot(m, "PlainBot", PLAIN_INTENTS));
    const got = next<[any]>(plain.on, "messageCreate", (msg) => msg.author.id === W().users.bob.id);
    const said = await m.sdk.as("bob").say("ops", "secret words");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.content).toBe("");
    const history = await plain.client.messages.list(ch("ops"), { limit: 5 });
    expect(history.find((x) => x.id === said.id)?.content).toBe("");
    await plain.stop();
  });

  scenario(LIB, "embeds-components", "messages.write with an embed and components; a person's embed arrives", async () => {
    const sent = await c().messages.write(ch("general"), {
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
      ] as any,
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({ title: "Status", fields: [{ name: "cpu", value: "3%" }] });
    expect(seen.components[0].components).toEqual([
      expect.objectContaining({ type: 2, custom_id: "ok", style: 1 }),
      expect.objectContaining({ type: 2, url: "https://example.com", style: 5 }),
    ]);
    const got = next<[any]>(full.on, "messageCreate", (msg) => msg.author.id === W().users.alice.id && msg.embeds.length > 0);
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice" }] });
    expect((await got)[0].embeds[0].title).toBe("From alice");
  });

  scenario(LIB, "reactions", "reactions.add; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    await c().reactions.add(said.id, ch("general"), "👍");
    const added = next<[any]>(full.on, "messageReactionAdd", (r) => r.userId === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [r] = await added;
    expect(r.messageId).toBe(said.id);
    expect(r.emoji.name).toBe("🎉");
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((x: any) => x.emoji.name).sort()).toEqual(["🎉", "👍"]);
    const removed = next<[any]>(full.on, "messageReactionRemove", (x) => x.userId === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[0].emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; channels.typing is accepted", async () => {
    const got = next<[any]>(full.on, "typingStart", (t) => t.userId === W().users.bob.id);
    await personTypes(m, "bob", ch("general"));
    expect((await got)[0].channelId).toBe(ch("general"));
    const ev = recordEvents(m.p);
    await c().channels.typing(ch("general"));
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(c().botId)]);
    ev.stop();
  });

  scenario(LIB, "channels", "guilds.channels.create and channels.editOverwrite, enforced for people", async () => {
    const created = next<[any]>(full.on, "channelCreate", (x) => x.name === "made-by-seyfert");
    const made: any = await c().guilds.channels.create(W().guilds.Lab.id, {
      name: "made-by-seyfert",
      type: 0,
      topic: "a bot made this",
    } as any);
    expect((await created)[0].id).toBe(made.id);
    const updated = next<[any]>(full.on, "channelUpdate", ([n]) => n.id === made.id);
    await c().channels.editOverwrite(made.id, W().users.bob.id, { type: 1, deny: ["SendMessages"] });
    await updated;
    const raw: any = await c().channels.raw(made.id, true);
    expect(raw.permission_overwrites).toEqual([{ id: W().users.bob.id, type: 1, allow: "0", deny: "2048" }]);
    const refused = await m.sdk
      .as("bob")
      .say(made.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "members.addRole, members.kick and bans.create with reasons, then the audit log", async () => {
    const g = W().guilds.Lab.id;
    await c().members.addRole(g, W().users.erin.id, W().guilds.Lab.roles.Helper);
    expect((await c().members.fetch(g, W().users.erin.id, true)).roles.keys).toContain(W().guilds.Lab.roles.Helper);
    await c().members.kick(g, W().users.carol.id, "kicked by seyfert");
    await c().bans.create(g, W().users.dave.id, { reason: "banned by seyfert" });
    expect((await c().bans.fetch(g, W().users.dave.id, true)).reason).toBe("banned by seyfert");
    const log = (type: number) => (c().proxy.guilds(g) as any)["audit-logs"].get({ query: { action_type: type } });
    const kicks = await log(20);
    expect(kicks.audit_log_entries[0]).toMatchObject({ reason: "kicked by seyfert", target_id: W().users.carol.id, user_id: c().botId });
    const bans = await log(22);
    expect(bans.audit_log_entries[0]).toMatchObject({ reason: "banned by seyfert", target_id: W().users.dave.id });
  });

  scenario(LIB, "webhooks", "webhooks.create and webhooks.writeMessage; people see the message", async () => {
    const hook = await c().webhooks.create(ch("general"), { name: "Reporter" });
    expect(hook.token).toBeTruthy();
    const sent = await c().webhooks.writeMessage(hook.id, hook.token!, {
      body: { content: "from a webhook", username: "Alarm" },
      query: { wait: true },
    });
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" }, webhook_id: hook.id });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[any]>(full.on, "messageCreate", (msg) => msg.author.id === W().users.alice.id && !msg.guildId);
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [msg] = await got;
    expect(msg.id).toBe(sent.id);
    expect(msg.channelId).toBe(sent.channel_id);
    expect(msg.content).toBe("");
    const dm = await c().users.createDM(W().users.alice.id, true);
    expect(dm.id).toBe(sent.channel_id);
    const reply = await c().messages.write(dm.id, { content: "got your envelope" });
    expect((await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" })).content).toBe("got your envelope");
  });

  scenario(
    LIB,
    "slash-commands",
    "Command classes and uploadCommands; write, deferReply + editOrReply, followup, editResponse",
    async () => {
      await c().uploadCommands();
      const listed = await (c().proxy.applications(c().applicationId) as any).commands.get();
      expect(listed.map((x: any) => x.name).sort()).toEqual(["hello", "multi", "slow"]);
      expect(listed.find((x: any) => x.name === "hello").options[0]).toMatchObject({ name: "who", type: 3, required: true });
      const state = interactionStates(m);
      expect((await state("hello", [{ name: "who", value: "alice" }], (s) => s.state === "responded")).response.content).toBe(
        "hello alice",
      );
      expect((await state("slow", undefined, (s) => s.state === "responded")).response.content).toBe("slow done");
      const multi = await state("multi", undefined, (s) => s.followups.length === 1 && s.response?.content === "first, edited");
      expect(multi.followups[0].content).toBe("second");
    },
  );

  scenario(LIB, "components", "a button click updates its message; a select answers with the values", async () => {
    full.on.on("interactionCreate", async (i: any) => {
      if (i.isButton?.() && i.customId === "sy-yes") await i.update({ content: "clicked yes", components: [] });
      if (i.isStringSelectMenu?.() && i.customId === "sy-colour") await i.write({ content: `picked ${i.values.join(",")}` });
    });
    const panel = await c().messages.write(ch("general"), {
      content: "choose",
      components: [
        { type: 1, components: [{ type: 2, custom_id: "sy-yes", label: "Yes", style: 3 }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: "sy-colour",
              options: [
                { label: "Red", value: "r" },
                { label: "Blue", value: "b" },
              ],
            },
          ],
        },
      ] as any,
    });
    const responded = (id: string) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return s.state === "responded" ? s : null;
      });
    const pick = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "sy-colour", values: ["r"] });
    expect((await responded(pick.id)).response.content).toBe("picked r");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "sy-yes" });
    expect((await responded(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });
  });

  scenario(
    LIB,
    "disallowed-intents",
    "start with an unapproved MESSAGE_CONTENT: shardDisconnect with code 4014, no reconnect",
    async () => {
      const bad = newBot(m, "PlainBot", PLAIN_INTENTS | BITS.MESSAGE_CONTENT);
      const down = next<[any]>(bad.on, "shardDisconnect");
      void bad.client.start();
      const [d] = await down;
      expect(d.code).toBe(4014);
      expect(d.reason).toMatch(/disallowed intent/i);
      expect(liveSessions(m, "PlainBot")).toEqual([]);
      await bad.stop();
    },
  );

  scenario.concurrent(
    LIB,
    "resume",
    "after a server-side 4000 close the shard resumes (after its 10 s reconnect wait) and gets the message it missed",
    async () => {
      const [session] = liveSessions(m, "FullBot");
      // Seyfert waits reconnectTimeout (10 s, not a Client option) before it reconnects.
      const resumed = next(full.on, "resumed", () => true, 15_000);
      const missed = next<[any]>(full.on, "messageCreate", (msg) => msg.content === "missed while away", 15_000);
      expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
      await m.sdk.as("bob").say("general", "missed while away");
      await resumed;
      expect((await missed)[0].author.id).toBe(W().users.bob.id);
      expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
    },
  );

  scenario.concurrent(
    LIB,
    "invalid-session",
    "a RESUME of an expired session (after the 10 s reconnect wait) gets op 9; the shard identifies afresh",
    async () => {
      const lone = await server();
      const b = await connect(newBot(lone, "CycleBot", PLAIN_INTENTS));
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
      const got = next<[any]>(b.on, "messageCreate", (msg) => msg.author.id === lone.sdk.world.users.bob.id);
      const said = await lone.sdk.as("bob").say("general", "after the new session");
      expect((await got)[0].id).toBe(said.id);
    },
  );

  scenario.concurrent(LIB, "token-rotation", "rotation ends the live session; the old token's REST calls reject with 401", async () => {
    const b = await connect(newBot(m, "RotBot", PLAIN_INTENTS));
    expect(liveSessions(m, "RotBot")).toHaveLength(1);
    await m.sdk.rotate("RotBot");
    await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
    const err = await b.client.users.fetch(W().users.bob.id, true).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toMatch(/401/);
    // seyfert would identify again with the old token after every op 9: the bot stops.
    await b.stop();
    expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
  });

  scenario.concurrent(
    LIB,
    "bucket-429",
    "messages.write meets a 429 (bucket 2 per 1 s on this server); seyfert waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const b = newBot(rl, "FullBot", FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      // Another client of the same bot spends the bucket first, so the library cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), spam);
      const { cursor } = await rl.sdk.transcript("FullBot");
      const sent = await Promise.all([1, 2, 3].map((n) => b.client.messages.write(spam, { content: `queued ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      const limited = await limitedSince(rl, "FullBot", cursor);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === false)).toBe(true);
    },
  );

  scenario.concurrent(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); seyfert waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const b = newBot(rl, "FullBot", FULL_INTENTS);
      const spam = rl.sdk.channelId("spam");
      const sent = await Promise.all(BURST.map((n) => b.client.messages.write(spam, { content: `burst ${n}` })));
      expect(sent.map((s) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      const limited = await limitedSince(rl, "FullBot", "0");
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((g) => g === true)).toBe(true);
    },
  );

  scenario(LIB, "not-implemented", "templates.list (no templates in Parley) rejects with the 501", async () => {
    const err = await c()
      .templates.list(W().guilds.Lab.id)
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toMatch(/501/);
  });

  scenario(LIB, "epoch", "with the DiscordEpoch shim, createdTimestamp of a message and an interaction is the server's time", async () => {
    const constants = require("seyfert/lib/common/it/constants");
    const undo = runShim(LIB, { require }, [[constants, "DiscordEpoch"]]);
    try {
      await epochProbe("shim", true);
    } finally {
      undo();
    }
  });

  scenario(LIB, "epoch-unshimmed", "createdTimestamp of a message and an interaction is ten years early", async () => {
    await epochProbe("plain", false);
  });
});

faultCells({
  lib: LIB,
  async start(s) {
    const b = newBot(s, "FullBot", FULL_INTENTS);
    const errors: unknown[] = [];
    b.on.on("messageCreate", (msg: any) => {
      if (msg.content.startsWith("!echo "))
        b.client.messages.write(msg.channelId, { content: msg.content.slice(6) }).catch((e) => errors.push(e));
    });
    await connect(b);
    return { errors, stop: b.stop };
  },
});
