/**
 * The compatibility matrix, discord.js 14 column: one real discord.js bot per scenario,
 * written as a discord.js user would, in this process against a real Parley on a free
 * port, with the people around it played through the harness (src/testing).
 * One server and one logged-in FullBot are shared; scenarios that end sessions or need
 * other rate limits get their own server. Where a cell also shows what the bot's own
 * calls did on the server, it reads the domain events they published (eventsDuring).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import {
  ActionRowBuilder,
  AuditLogEvent,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  EmbedBuilder,
  Events,
  GatewayIntentBits as I,
  DiscordAPIError,
  HTTPError,
  MessageFlags,
  Partials,
  Routes,
  SlashCommandBuilder,
  SnowflakeUtil,
  StringSelectMenuBuilder,
  WebhookClient,
  type ButtonInteraction,
  type Guild,
  type Message,
  type TextChannel,
} from "discord.js";
import { scenario } from "./matrix";
import { call, recordEvents, refusal } from "../helpers";
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
import { eventsDuring, next } from "./support";
import { faultCells } from "./fault-cells";
import { expectLibraryTime, expectServerTime, runShim, serverTimestamp } from "./epoch";

const LIB = "discord.js";
const FULL = [I.Guilds, I.GuildMembers, I.GuildMessages, I.MessageContent, I.DirectMessages, I.GuildMessageReactions, I.GuildMessageTyping];
const PLAIN = [I.Guilds, I.GuildMessages];

let m: MatrixServer;
let bot: Client;
const clients: Client[] = [];
const servers: MatrixServer[] = [];

function newClient(m: MatrixServer, intents: number[], extra: { partials?: Partials[] } = {}): Client {
  const c = new Client({ intents, partials: extra.partials ?? [], rest: { api: m.sdk.apiBase } });
  clients.push(c);
  return c;
}

async function login(c: Client, token: string): Promise<void> {
  const ready = next(c, Events.ClientReady);
  await c.login(token);
  await ready;
}

async function server(config = {}): Promise<MatrixServer> {
  const s = await startMatrix(config);
  servers.push(s);
  return s;
}

const W = () => m.sdk.world;

/** The scopes of the 429s discord.js's REST manager met (it retries them itself). */
function rateLimitedResponses(c: Client): string[] {
  const scopes: string[] = [];
  c.rest.on("response", (_req, res) => {
    if (res.status === 429) scopes.push(res.headers.get("x-ratelimit-scope") ?? "");
  });
  return scopes;
}
const general = () => bot.channels.cache.get(m.sdk.channelId("general")) as TextChannel;
const ops = () => bot.channels.cache.get(m.sdk.channelId("ops")) as TextChannel;

/**
 * The creation times discord.js reads from ids (a person's message, a click on the bot's
 * button) against the server's, and what bulkDelete(…, true), whose 14-day filter reads
 * them too, does with two of the bot's fresh messages.
 */
async function epochProbe(tag: string, shimmed: boolean): Promise<{ deleted: string[]; left: string[] }> {
  const got = next<[Message]>(bot, Events.MessageCreate, (msg) => msg.content === `epoch ${tag}`);
  const said = await m.sdk.as("bob").say("ops", `epoch ${tag}`);
  const [msg] = await got;
  expectLibraryTime(msg.createdTimestamp, msg.id, shimmed);
  expectServerTime(msg.id, await serverTimestamp(m.sdk, "ops", said.id));

  const custom = `djs-epoch-${tag}`;
  const panel = await ops().send({
    content: "when?",
    components: [
      new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId(custom).setLabel("When").setStyle(ButtonStyle.Primary),
      ),
    ],
  });
  const clicked = next<[ButtonInteraction]>(bot, Events.InteractionCreate, (i) => i.isButton() && i.customId === custom);
  const from = m.p.clock.now();
  await m.sdk.as("bob").interact({ channel_id: "ops", message_id: panel.id, custom_id: custom });
  const to = m.p.clock.now();
  const [click] = await clicked;
  await click.deferUpdate();
  expectLibraryTime(click.createdTimestamp, click.id, shimmed);
  expectServerTime(click.id, { from, to });

  const fresh = [await ops().send(`tidy ${tag} 1`), await ops().send(`tidy ${tag} 2`)].map((x) => x.id);
  const deleted = [...(await ops().bulkDelete(fresh, true)).keys()];
  const stored = new Set((await m.sdk.messages("ops", { as: "alice", limit: 10 })).map((x) => x.id));
  return { deleted, left: fresh.filter((id) => stored.has(id)) };
}

beforeAll(async () => {
  m = await server();
  bot = newClient(m, FULL, { partials: [Partials.Channel] });
  await login(bot, m.sdk.tokenOf("FullBot"));
});

afterAll(async () => {
  // destroy waits on sockets that may be gone already: bound it.
  for (const c of clients) await Promise.race([c.destroy(), Bun.sleep(2000)]);
  for (const s of servers) await s.sdk.stop();
});

describe("discord.js 14 matrix", () => {
  scenario(LIB, "login", "clientReady with the guild, its channels and every member cached", async () => {
    expect(bot.user!.id).toBe(W().applications.FullBot.bot_user_id);
    const guild = bot.guilds.cache.get(W().guilds.Lab.id)!;
    expect(guild.available).toBe(true);
    expect(guild.name).toBe("Lab");
    expect([...guild.channels.cache.values()].map((c) => c.name).sort()).toEqual(["general", "ops", "spam"]);
    expect(general().type).toBe(ChannelType.GuildText);
    expect(general().isTextBased()).toBe(true);
    for (const who of ["alice", "bob", "carol", "dave", "erin"]) expect(guild.members.cache.has(W().users[who].id)).toBe(true);
    expect(guild.members.cache.size).toBe(guild.memberCount);
    expect(guild.members.me!.id).toBe(W().applications.FullBot.bot_user_id);
    expect(guild.members.me!.roles.cache.has(W().guilds.Lab.roles.BotRole)).toBe(true);
    // The two REST answers login rests on, read through the client's own REST manager.
    expect(((await bot.rest.get(Routes.gatewayBot())) as any).url).toBe(m.p.api.urls.gateway);
    expect(((await bot.rest.get(Routes.user())) as any).id).toBe(W().applications.FullBot.bot_user_id);
  });

  scenario(
    LIB,
    "join-after-ready",
    "installed into another server while ready: guildCreate with the server cached, not guildAvailable; the handler's welcome post lands",
    async () => {
      const annex = W().guilds.Annex.id;
      const available: string[] = [];
      const onAvailable = (g: Guild) => void available.push(g.id);
      bot.on(Events.GuildAvailable, onAvailable);
      const joined = next<[Guild]>(bot, Events.GuildCreate, (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", true);
      const [guild] = await joined;
      // The handler, as join handlers go: a welcome post in the first text channel.
      const lobby = guild.channels.cache.find((c) => c.type === ChannelType.GuildText) as TextChannel;
      const welcome = await lobby.send(WELCOME(guild.name));
      bot.off(Events.GuildAvailable, onAvailable);
      expect(guild.available).toBe(true);
      expect(guild.name).toBe("Annex");
      expect([...guild.channels.cache.values()].map((c) => c.name)).toEqual(["lobby"]);
      for (const who of ["alice", "bob"]) expect(guild.members.cache.has(W().users[who].id)).toBe(true);
      expect(guild.members.me!.id).toBe(W().applications.FullBot.bot_user_id);
      expect(available).toEqual([]);
      expect((await m.sdk.waitForMessage("Annex/lobby", (x) => x.id === welcome.id)).content).toBe(WELCOME("Annex"));
      const left = next<[Guild]>(bot, Events.GuildDelete, (g) => g.id === annex);
      await setInstalled(m, "FullBot", "Annex", false);
      await left;
    },
  );

  scenario(LIB, "message-content", "a person's message arrives with content; the bot's reply is edited and deleted", async () => {
    const got = next<[Message]>(bot, Events.MessageCreate, (msg) => msg.content === "hello bot");
    const said = await m.sdk.as("bob").say("general", "hello bot");
    const [msg] = await got;
    expect(msg.id).toBe(said.id);
    expect(msg.author.id).toBe(W().users.bob.id);
    expect(msg.guildId).toBe(W().guilds.Lab.id);
    expect(msg.channelId).toBe(m.sdk.channelId("general"));

    const reply = await msg.reply("hi bob");
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === reply.id, { as: "bob" });
    expect(seen.content).toBe("hi bob");
    expect(seen.message_reference?.message_id).toBe(said.id);

    const updated = next<[Message, Message]>(bot, Events.MessageUpdate, (_o, n) => n.id === reply.id);
    await reply.edit("hi bob, edited");
    expect((await updated)[1].content).toBe("hi bob, edited");
    expect((await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === reply.id)?.content).toBe("hi bob, edited");

    const deleted = next<[Message]>(bot, Events.MessageDelete, (d) => d.id === reply.id);
    expect(await eventsDuring(m.p, () => reply.delete())).toEqual(["message.deleted"]);
    await deleted;
    expect((await m.sdk.messages("general", { as: "bob" })).some((x) => x.id === reply.id)).toBe(false);
    expect(m.p.core.messages.get(m.uuid(reply.id))).toBeNull();

    // No scenario is about refusals: an empty message surfaces as a DiscordAPIError with
    // the spec's code, and nothing happens on the server.
    let err: any;
    const refused = await eventsDuring(m.p, async () => {
      err = await bot.rest.post(Routes.channelMessages(general().id), { body: { content: "" } }).catch((e: unknown) => e);
    });
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect(err.code).toBe(50035);
    expect(err.status).toBe(400);
    expect(refused).toEqual([]);
  });

  scenario(
    LIB,
    "message-no-content",
    "without MESSAGE_CONTENT the event arrives with empty content, and history withholds it",
    async () => {
      const plain = newClient(m, PLAIN);
      await login(plain, m.sdk.tokenOf("PlainBot"));
      const got = next<[Message]>(plain, Events.MessageCreate, (msg) => msg.author.id === W().users.bob.id);
      const said = await m.sdk.as("bob").say("ops", "secret words");
      const [msg] = await got;
      expect(msg.id).toBe(said.id);
      expect(msg.content).toBe("");
      const history = await (plain.channels.cache.get(m.sdk.channelId("ops")) as TextChannel).messages.fetch({ limit: 5 });
      expect(history.get(said.id)?.content).toBe("");
      await plain.destroy();
    },
  );

  scenario(LIB, "embeds-components", "the bot sends an embed and components; a person's embed reaches the bot", async () => {
    const embed = new EmbedBuilder()
      .setTitle("Status")
      .setDescription("all good")
      .addFields({ name: "cpu", value: "3%" })
      .setColor(0x00ff00);
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId("ok").setLabel("OK").setStyle(ButtonStyle.Primary),
      new ButtonBuilder().setURL("https://example.com").setLabel("Docs").setStyle(ButtonStyle.Link),
    );
    let sent!: Message;
    expect(
      await eventsDuring(m.p, async () => (sent = await general().send({ content: "report", embeds: [embed], components: [row] }))),
    ).toEqual(["message.created"]);
    expect(sent.content).toBe("report");
    expect(sent.embeds[0].fields).toEqual([{ name: "cpu", value: "3%", inline: false }]);
    expect((sent.components[0].toJSON() as { components: unknown[] }).components).toHaveLength(2);
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "alice" });
    expect(seen.embeds[0]).toMatchObject({
      title: "Status",
      description: "all good",
      color: 0x00ff00,
      fields: [{ name: "cpu", value: "3%" }],
    });
    expect(seen.components[0].components.map((c: any) => c.style)).toEqual([1, 5]);

    // A content-only edit keeps the embed.
    let edited!: Message;
    expect(await eventsDuring(m.p, async () => (edited = await sent.edit({ content: "report, edited" })))).toEqual(["message.updated"]);
    expect(edited.content).toBe("report, edited");
    expect(edited.embeds).toHaveLength(1);
    expect(edited.editedTimestamp).not.toBeNull();

    const got = next<[Message]>(bot, Events.MessageCreate, (msg) => msg.author.id === W().users.alice.id && msg.embeds.length > 0);
    await m.sdk.as("alice").say("general", "look", { embeds: [{ title: "From alice", description: "an embed" }] });
    const [msg] = await got;
    expect(msg.embeds[0].title).toBe("From alice");
  });

  scenario(LIB, "reactions", "the bot reacts; a person's reaction add and remove arrive", async () => {
    const said = await m.sdk.as("bob").say("general", "react to me");
    const msg = await until("the message in the cache", () => general().messages.cache.get(said.id));
    expect(await eventsDuring(m.p, () => msg.react("👍"))).toEqual(["reaction.added"]);
    // History, newest first, shows the bot's own reaction as `me`.
    const history = await general().messages.fetch({ limit: 10 });
    expect(history.first()!.id).toBe(said.id);
    expect(history.first()!.content).toBe("react to me");
    expect([...history.first()!.reactions.cache.values()].map((r) => ({ emoji: r.emoji.name, count: r.count, me: r.me }))).toEqual([
      { emoji: "👍", count: 1, me: true },
    ]);
    const added = next<[any, any]>(bot, Events.MessageReactionAdd, (r, u) => u.id === W().users.bob.id);
    await m.sdk.as("bob").react("general", said.id, "🎉");
    const [reaction] = await added;
    expect(reaction.emoji.name).toBe("🎉");
    expect(reaction.message.id).toBe(said.id);
    const shown = (await m.sdk.messages("general", { as: "bob" })).find((x) => x.id === said.id) as any;
    expect(shown.reactions.map((r: any) => [r.emoji.name, r.count]).sort()).toEqual([
      ["🎉", 1],
      ["👍", 1],
    ]);
    const removed = next<[any, any]>(bot, Events.MessageReactionRemove, (r, u) => u.id === W().users.bob.id);
    await m.sdk.as("bob").unreact("general", said.id, "🎉");
    expect((await removed)[0].emoji.name).toBe("🎉");
  });

  scenario(LIB, "typing", "a person's typing arrives as typingStart; the bot's sendTyping is accepted", async () => {
    const got = next<[any]>(bot, Events.TypingStart, (t) => t.user.id === W().users.bob.id);
    await personTypes(m, "bob", m.sdk.channelId("general"));
    const [typing] = await got;
    expect(typing.channel.id).toBe(m.sdk.channelId("general"));
    const ev = recordEvents(m.p);
    await general().sendTyping();
    expect(ev.of("typing.started").map((e: any) => e.userId)).toEqual([m.uuid(W().applications.FullBot.bot_user_id)]);
    ev.stop();
  });

  scenario(LIB, "channels", "guild.channels.create and permissionOverwrites.create, enforced for people", async () => {
    const guild = bot.guilds.cache.get(W().guilds.Lab.id)!;
    const created = next<[any]>(bot, Events.ChannelCreate, (c) => c.name === "made-by-djs");
    let ch!: TextChannel;
    expect(
      await eventsDuring(m.p, async () => (ch = await guild.channels.create({ name: "made-by-djs", topic: "a bot made this" }))),
    ).toEqual(["channel.created"]);
    expect((await created)[0].id).toBe(ch.id);
    expect(ch.name).toBe("made-by-djs");
    expect(ch.type).toBe(ChannelType.GuildText);
    await m.sdk.as("bob").say(ch.id, "before the overwrite");
    const updated = next<[any, any]>(bot, Events.ChannelUpdate, (_o, n) => n.id === ch.id);
    expect(await eventsDuring(m.p, () => ch.permissionOverwrites.create(W().users.bob.id, { SendMessages: false }))).toEqual([
      "channel.updated",
    ]);
    await updated;
    expect(m.p.core.guilds.overwrites(m.uuid(ch.id))).toEqual([
      { channel_id: m.uuid(ch.id), target_id: m.uuid(W().users.bob.id), target_type: 1, allow: 0, deny: 2048 },
    ]);
    expect(ch.permissionOverwrites.cache.get(W().users.bob.id)?.deny.has("SendMessages")).toBe(true);
    const refused = await m.sdk
      .as("bob")
      .say(ch.id, "after the overwrite")
      .catch((e) => e);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
  });

  scenario(LIB, "moderation", "roles.add, kick and ban with reasons, then the audit log shows them", async () => {
    const guild = bot.guilds.cache.get(W().guilds.Lab.id)!;
    expect((await bot.guilds.fetch({ guild: guild.id, force: true })).name).toBe("Lab");
    const erin = await guild.members.fetch(W().users.erin.id);
    await erin.roles.add(W().guilds.Lab.roles.Helper, "helping out");
    expect(m.p.core.guilds.memberRoleIds(m.uuid(guild.id), m.uuid(erin.id))).toContain(m.uuid(W().guilds.Lab.roles.Helper));

    await guild.members.kick(W().users.carol.id, "kicked by djs");
    expect(m.p.core.guilds.isMember(m.uuid(guild.id), m.uuid(W().users.carol.id))).toBe(false);
    await guild.bans.create(W().users.dave.id, { deleteMessageSeconds: 3600, reason: "banned by djs" });
    expect((await guild.bans.fetch(W().users.dave.id)).reason).toBe("banned by djs");
    expect(m.p.core.moderation.isBanned(m.uuid(guild.id), m.uuid(W().users.dave.id))).toBe(true);
    expect(m.p.core.guilds.isMember(m.uuid(guild.id), m.uuid(W().users.dave.id))).toBe(false);

    // A new role goes in at position 1, just above @everyone.
    const role = await guild.roles.create({ name: "Created", colors: { primaryColor: 0x00ff00 }, reason: "new role" });
    expect(role.position).toBe(1);
    expect(role.color).toBe(0x00ff00);

    const kicks = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberKick });
    expect(kicks.entries.first()).toMatchObject({ reason: "kicked by djs", targetId: W().users.carol.id, executorId: bot.user!.id });
    const bans = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberBanAdd });
    expect(bans.entries.first()).toMatchObject({ reason: "banned by djs", targetId: W().users.dave.id });
    const roles = await guild.fetchAuditLogs({ type: AuditLogEvent.MemberRoleUpdate });
    expect(roles.entries.first()?.targetId).toBe(W().users.erin.id);
    // Role update, kick, ban and role create at least.
    expect((await guild.fetchAuditLogs()).entries.size).toBeGreaterThanOrEqual(4);
  });

  scenario(LIB, "webhooks", "createWebhook and webhook.send; people see the webhook's message", async () => {
    const hook = await general().createWebhook({ name: "Reporter", reason: "alerts" });
    expect(hook.token).toBeTruthy();
    const got = next<[Message]>(bot, Events.MessageCreate, (msg) => msg.webhookId === hook.id);
    const sent = await hook.send({ content: "from a webhook", username: "Alarm" });
    const [msg] = await got;
    expect(msg.id).toBe(sent.id);
    const seen = await m.sdk.waitForMessage("general", (x) => x.id === sent.id, { as: "bob" });
    expect(seen).toMatchObject({ content: "from a webhook", author: { username: "Alarm" } });
    expect((await general().fetchWebhooks()).has(hook.id)).toBe(true);

    // discord.js's token-only WebhookClient (no bot token at all) posts as the webhook too.
    const wc = new WebhookClient({ id: hook.id, token: hook.token! }, { rest: { api: m.sdk.apiBase } });
    try {
      const viaClient = await wc.send({ content: "from a webhook client", username: "Alarm" });
      expect(viaClient.content).toBe("from a webhook client");
    } finally {
      wc.destroy();
    }
    const stored = m.p.core.messages.list(m.uuid(general().id), { limit: 5 }, null);
    expect(stored[0]).toMatchObject({ content: "from a webhook client", webhook_name: "Alarm" });
  });

  scenario(LIB, "dms", "a person's DM arrives as an envelope (content empty); the bot's plain reply reaches them", async () => {
    const got = next<[Message]>(
      bot,
      Events.MessageCreate,
      (msg) => msg.author.id === W().users.alice.id && msg.channel.type === ChannelType.DM,
    );
    const sent = await m.sdk.as("alice").dm("FullBot", "hello in private");
    const [msg] = await got;
    expect(msg.id).toBe(sent.id);
    expect(msg.channelId).toBe(sent.channel_id);
    expect(msg.content).toBe("");
    if (!msg.channel.isDMBased() || !msg.channel.isSendable()) throw new Error("not a sendable DM channel");
    const reply = await msg.channel.send("got your envelope");
    const seen = await m.sdk.waitForMessage(sent.channel_id, (x) => x.id === reply.id, { as: "alice" });
    expect(seen.content).toBe("got your envelope");
  });

  scenario(LIB, "slash-commands", "commands.set, reply, deferReply + editReply, followUp and editReply", async () => {
    // Deployment as the discord.js guide does it: builders, then REST with Routes.
    const app = W().applications.FullBot.id;
    const lab = W().guilds.Lab.id;
    const echo = new SlashCommandBuilder()
      .setName("echo")
      .setDescription("Echo back")
      .addStringOption((o) => o.setName("text").setDescription("What").setRequired(true).setMaxLength(100))
      .addIntegerOption((o) => o.setName("times").setDescription("How often").setMinValue(1).setMaxValue(5))
      .addChannelOption((o) => o.setName("where").setDescription("Where").addChannelTypes(ChannelType.GuildText))
      .addStringOption((o) => o.setName("mood").setDescription("Mood").addChoices({ name: "Happy", value: "happy" }));
    const tools = new SlashCommandBuilder()
      .setName("tools")
      .setDescription("Tools")
      .addSubcommand((s) => s.setName("ping").setDescription("Ping"))
      .addSubcommandGroup((g) =>
        g
          .setName("user")
          .setDescription("User")
          .addSubcommand((s) =>
            s
              .setName("info")
              .setDescription("Info")
              .addUserOption((o) => o.setName("who").setDescription("Who")),
          ),
      );
    const put = (await bot.rest.put(Routes.applicationCommands(app), { body: [echo.toJSON(), tools.toJSON()] })) as any[];
    expect(put.map((c) => c.name)).toEqual(["echo", "tools"]);
    expect(put[0].options[0]).toMatchObject({ type: 3, name: "text", required: true, max_length: 100 });
    expect(put[1].options[1].options[0].options[0]).toMatchObject({ type: 6, name: "who" });
    const local = (await bot.rest.post(Routes.applicationGuildCommands(app, lab), {
      body: { name: "local", description: "Guild only" },
    })) as any;
    expect(local.guild_id).toBe(lab);
    const listed = (await bot.rest.get(Routes.applicationCommands(app))) as any[];
    expect(listed.map((c) => c.id).sort()).toEqual(put.map((c) => c.id).sort());
    const patched = (await bot.rest.patch(Routes.applicationCommand(app, put[0].id), { body: { description: "Echo!" } })) as any;
    expect(patched.description).toBe("Echo!");
    await bot.rest.delete(Routes.applicationGuildCommand(app, lab, local.id));
    expect(await bot.rest.get(Routes.applicationGuildCommands(app, lab))).toEqual([]);
    const bad: any = await bot.rest
      .post(Routes.applicationCommands(app), { body: { name: "Bad Name", description: "x" } })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(DiscordAPIError);
    expect(bad.status).toBe(400);
    expect(bad.code).toBe(50035);

    const seen: { loading?: boolean | null; fetched?: string; errors: string[] } = { errors: [] };
    bot.on(Events.InteractionCreate, async (i) => {
      if (!i.isChatInputCommand()) return;
      try {
        if (i.commandName === "hello") await i.reply(`hello ${i.options.getString("who")}`);
        if (i.commandName === "slow") {
          await i.deferReply();
          await i.editReply("slow done");
        }
        if (i.commandName === "multi") {
          await i.reply("first");
          await i.followUp("second");
          await i.editReply("first, edited");
        }
        if (i.commandName === "secret") await i.reply({ content: "shh", flags: MessageFlags.Ephemeral });
        if (i.commandName === "withresp") {
          const r = await i.deferReply({ withResponse: true });
          seen.loading = r.interaction.responseMessageLoading;
          await i.editReply("filled");
        }
        if (i.commandName === "fetch") {
          await i.reply(`hi ${i.options.getString("text")}`);
          seen.fetched = (await i.fetchReply()).content;
        }
      } catch (e) {
        seen.errors.push(String(e));
      }
    });
    const set = await bot.application!.commands.set([
      { name: "hello", description: "Greets", options: [{ type: 3, name: "who", description: "who", required: true }] },
      { name: "slow", description: "Deferred" },
      { name: "multi", description: "Reply, follow up, edit" },
      { name: "secret", description: "Ephemeral" },
      { name: "withresp", description: "Deferred with response" },
      { name: "fetch", description: "Fetch the reply", options: [{ type: 3, name: "text", description: "t", required: true }] },
    ]);
    expect(set.size).toBe(6);
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
    const responded = (s: any) => s.state === "responded";
    const hello = await state(await run("hello", [{ name: "who", value: "alice" }]), responded);
    expect(hello.response.content).toBe("hello alice");
    const slow = await state(await run("slow"), responded);
    expect(slow.response.content).toBe("slow done");
    // The edit that fills a deferral drops the "thinking" flag (LOADING, 128).
    expect(slow.response.flags & 128).toBe(0);
    const multi = await state(await run("multi"), (s) => s.followups.length === 1 && s.response?.content === "first, edited");
    expect(multi.followups[0].content).toBe("second");
    expect((await state(await run("secret"), responded)).response).toMatchObject({ content: "shh", flags: 64 });
    expect((await state(await run("withresp"), responded)).response.content).toBe("filled");
    expect(seen.loading).toBe(true);
    await state(await run("fetch", [{ name: "text", value: "there" }]), responded);
    expect(await until("fetchReply", () => seen.fetched)).toBe("hi there");
    expect(seen.errors).toEqual([]);
  });

  scenario(LIB, "components", "a button updates its message; a select answers with the values", async () => {
    const errors: string[] = [];
    bot.on(Events.InteractionCreate, async (i) => {
      try {
        if (i.isButton() && i.customId === "djs-yes") await i.update({ content: "clicked yes", components: [] });
        if (i.isButton() && i.customId === "djs-later") {
          await i.deferUpdate();
          await i.editReply({ content: "later" });
        }
        if (i.isStringSelectMenu() && i.customId === "djs-colour") await i.reply(`picked ${i.values.join(",")}`);
        if (i.isChatInputCommand() && i.commandName === "panel") {
          const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
            new ButtonBuilder().setCustomId("djs-later").setLabel("Later").setStyle(ButtonStyle.Secondary),
            new ButtonBuilder().setCustomId("djs-collect").setLabel("Collect").setStyle(ButtonStyle.Success),
          );
          const r = await i.reply({ content: "Pick", components: [buttons], withResponse: true });
          r.resource!.message!.createMessageComponentCollector({ filter: (b) => b.customId === "djs-collect", max: 1 }).on(
            "collect",
            async (b) => {
              await b.update({ content: "collected" }).catch((e) => errors.push(String(e)));
            },
          );
        }
      } catch (e) {
        errors.push(String(e));
      }
    });
    const panel = await general().send({
      content: "choose",
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId("djs-yes").setLabel("Yes").setStyle(ButtonStyle.Success),
        ),
        new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
          new StringSelectMenuBuilder().setCustomId("djs-colour").addOptions({ label: "Red", value: "r" }, { label: "Blue", value: "b" }),
        ),
      ],
    });
    const state = async (id: string) =>
      m.sdk.waitFor(async () => {
        const s = await m.sdk.harness("GET", `/interactions/${id}`);
        return s.state === "responded" ? s : null;
      });
    const pick = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "djs-colour", values: ["b"] });
    expect((await state(pick.id)).response.content).toBe("picked b");
    const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "djs-yes" });
    expect((await state(click.id)).response).toMatchObject({ id: panel.id, content: "clicked yes", components: [] });

    // Buttons on a command's reply: deferUpdate + editReply, and a component collector.
    await bot.application!.commands.create({ name: "panel", description: "Components" });
    const run = await m.sdk.as("alice").interact({ channel_id: "general", application_id: "FullBot", name: "panel" });
    expect(run.delivered).toBe(true);
    const reply = (await state(run.id)).response;
    const press = async (custom_id: string) => {
      const r = await m.sdk.as("bob").interact({ channel_id: "general", message_id: reply.id, custom_id });
      expect(r.delivered).toBe(true);
      return (await state(r.id)).response;
    };
    expect(await press("djs-later")).toMatchObject({ id: reply.id, content: "later" });
    expect(await press("djs-collect")).toMatchObject({ id: reply.id, content: "collected" });
    expect(errors).toEqual([]);
  });

  scenario(LIB, "disallowed-intents", "login with an unapproved MESSAGE_CONTENT rejects with 'Used disallowed intents'", async () => {
    const bad = newClient(m, [...PLAIN, I.MessageContent]);
    await expect(bad.login(m.sdk.tokenOf("PlainBot"))).rejects.toThrow("Used disallowed intents");
    expect(liveSessions(m, "PlainBot")).toEqual([]);
  });

  scenario(LIB, "resume", "after a server-side 4000 close the client resumes and gets the message it missed", async () => {
    const [session] = liveSessions(m, "FullBot");
    const resumed = next(bot, Events.ShardResume);
    const missed = next<[Message]>(bot, Events.MessageCreate, (msg) => msg.content === "missed while away");
    expect(m.p.gateway.disconnect(session.session_id, 4000)).toBe(true);
    await m.sdk.as("bob").say("general", "missed while away");
    await resumed;
    expect((await missed)[0].author.id).toBe(W().users.bob.id);
    expect(liveSessions(m, "FullBot").map((s) => s.session_id)).toEqual([session.session_id]);
    // The very same session, and no second one beside it.
    expect(m.p.gateway.sessionsOf(m.uuid(W().applications.FullBot.id))).toEqual([
      expect.objectContaining({ session_id: session.session_id, connected: true }),
    ]);
  });

  scenario(LIB, "invalid-session", "a RESUME of an expired session gets op 9; the client identifies afresh", async () => {
    const lone = await server();
    const c = newClient(lone, PLAIN);
    await login(c, lone.sdk.tokenOf("CycleBot"));
    const [old] = liveSessions(lone, "CycleBot");
    // discord.js spaces IDENTIFYs 5 s apart (its identify throttle), hence the wider bound.
    const readyAgain = next(c, Events.ShardReady, () => true, 10_000);
    expireAfterClose(lone, old.session_id);
    await readyAgain;
    const now = await until("a fresh session", () => {
      const s = liveSessions(lone, "CycleBot");
      return s.length === 1 && s[0].session_id !== old.session_id ? s : null;
    });
    expect(now).toHaveLength(1);
    const got = next<[Message]>(c, Events.MessageCreate, (msg) => msg.author.id === lone.sdk.world.users.bob.id);
    const said = await lone.sdk.as("bob").say("general", "after the new session");
    expect((await got)[0].id).toBe(said.id);
  });

  scenario(LIB, "token-rotation", "rotation ends the live session and the old token's REST calls fail with 401", async () => {
    const c = newClient(m, PLAIN);
    await login(c, m.sdk.tokenOf("RotBot"));
    expect(liveSessions(m, "RotBot")).toHaveLength(1);
    const fresh = await m.sdk.rotate("RotBot");
    await until("the live session to end", () => liveSessions(m, "RotBot").length === 0);
    const err: any = await c.guilds.fetch({ guild: W().guilds.Lab.id, force: true }).catch((e) => e);
    expect(err.status).toBe(401);
    expect(err.code).toBe(0);
    // The library may try IDENTIFY again with the old token; it never gets a session.
    await Bun.sleep(300);
    expect(m.p.gateway.sessionsOf(m.uuid(W().applications.RotBot.id))).toEqual([]);
    await Promise.race([c.destroy(), Bun.sleep(2000)]);
    const again = newClient(m, PLAIN);
    await login(again, fresh);
    expect(liveSessions(m, "RotBot")).toHaveLength(1);
    await again.destroy();
  });

  scenario(
    LIB,
    "bucket-429",
    "POST messages meets a 429 (bucket 2 per 1 s on this server); discord.js waits and every send lands",
    async () => {
      const rl = await server(smallBucketLimits());
      const c = newClient(rl, FULL);
      await login(c, rl.sdk.tokenOf("FullBot"));
      const limited = rateLimitedResponses(c);
      const ch = c.channels.cache.get(rl.sdk.channelId("spam")) as TextChannel;
      // Another client of the same bot spends the bucket first, so discord.js cannot see it coming.
      await exhaustMessageBucket(rl.sdk, rl.sdk.tokenOf("FullBot"), ch.id);
      const sent = await Promise.all([1, 2, 3].map((n) => ch.send(`queued ${n}`)));
      expect(sent.map((s) => s.content)).toEqual(["queued 1", "queued 2", "queued 3"]);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((scope) => scope === "user")).toBe(true);
      const seen = await rl.sdk.messages("spam", { as: "alice" });
      expect(
        seen
          .filter((x) => x.content.startsWith("queued "))
          .map((x) => x.content)
          .sort(),
      ).toEqual(["queued 1", "queued 2", "queued 3"]);
    },
  );

  scenario(
    LIB,
    "global-429",
    "a burst meets the global window (5 per 1 s on this server); discord.js waits and every send lands",
    async () => {
      const rl = await server(smallGlobalLimits());
      const c = newClient(rl, FULL);
      await login(c, rl.sdk.tokenOf("FullBot"));
      const limited = rateLimitedResponses(c);
      const ch = c.channels.cache.get(rl.sdk.channelId("spam")) as TextChannel;
      const sent = await Promise.all(BURST.map((n) => ch.send(`burst ${n}`)));
      expect(sent.map((s) => s.content)).toEqual(BURST.map((n) => `burst ${n}`));
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited.every((scope) => scope === "global")).toBe(true);
      const seen = await rl.sdk.messages("spam", { as: "alice" });
      expect(seen.filter((x) => x.content.startsWith("burst ")).length).toBe(BURST.length);
    },
  );

  scenario(LIB, "not-implemented", "fetching a sticker (no stickers in Parley) rejects with the 501", async () => {
    const err: any = await bot.fetchSticker("1234567890123456789").catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    // discord.js surfaces every 5xx as HTTPError (it keeps DiscordAPIError for 4xx bodies).
    expect(err).toBeInstanceOf(HTTPError);
    expect(err.status).toBe(501);
    // HTTPError keeps no body; the same request in-process shows the spec's code.
    expect(refusal(await call(m.p, "GET", "/stickers/1234567890123456789", { token: m.sdk.tokenOf("FullBot") }))).toEqual([501, 0]);
  });

  scenario(
    LIB,
    "epoch",
    "with the SnowflakeUtil shim createdTimestamp of a message and an interaction is the server's time; bulkDelete(…, true) deletes",
    async () => {
      const undo = runShim(LIB, { SnowflakeUtil }, [[SnowflakeUtil, "timestampFrom"]]);
      try {
        const { deleted, left } = await epochProbe("shim", true);
        expect(deleted).toHaveLength(2);
        expect(left).toEqual([]);
      } finally {
        undo();
      }
    },
  );

  scenario(
    LIB,
    "epoch-unshimmed",
    "createdTimestamp is ten years early; bulkDelete(…, true) takes fresh messages for older than 14 days and deletes none",
    async () => {
      const { deleted, left } = await epochProbe("plain", false);
      expect(deleted).toEqual([]);
      expect(left).toHaveLength(2);
    },
  );
});

faultCells({
  lib: LIB,
  async start(s) {
    const c = new Client({ intents: FULL, rest: { api: s.sdk.apiBase } });
    const errors: unknown[] = [];
    c.on(Events.MessageCreate, (msg) => {
      if (msg.content.startsWith("!echo ")) msg.channel.isSendable() && msg.channel.send(msg.content.slice(6)).catch((e) => errors.push(e));
    });
    await login(c, s.sdk.tokenOf("FullBot"));
    return { errors, stop: () => Promise.race([c.destroy(), Bun.sleep(2000)]) };
  },
});
