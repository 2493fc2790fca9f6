/**
 * The spec's limits that real bots meet, as the bot's author sees them
 * (docs/compatibility.md "Limits a bot will meet", written in scripts/compat-matrix.ts):
 * each test shows the symptom with the real library, and the workaround working, where
 * that is cheap. discord.py's side of the permission limit is in fidelity-discordpy.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits as I,
  HTTPError,
  ModalBuilder,
  PermissionFlagsBits as P,
  Routes,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type Guild,
  type Message,
  type TextChannel,
} from "discord.js";
import { DiscordAPIError as RestAPIError, REST } from "@discordjs/rest";
import { createBot, createDesiredPropertiesObject } from "discordeno";
import { FULL_INTENTS, startMatrix, until, type MatrixServer } from "./bots/js-world";
import { call, refusal } from "../helpers";
import { next } from "./support";

let m: MatrixServer;
let bot: Client;
let guild: Guild;
const W = () => m.sdk.world;
const channel = (name: string) => guild.channels.cache.get(m.sdk.channelId(name)) as TextChannel;

beforeAll(async () => {
  m = await startMatrix();
  bot = new Client({ intents: [I.Guilds, I.GuildMembers, I.GuildMessages, I.MessageContent], rest: { api: m.sdk.apiBase } });
  const ready = next(bot, Events.ClientReady);
  await bot.login(m.sdk.tokenOf("FullBot"));
  await ready;
  guild = bot.guilds.cache.get(W().guilds.Lab.id)!;
});

afterAll(async () => {
  await Promise.race([bot?.destroy(), Bun.sleep(2000)]);
  await m?.sdk.stop();
});

describe("discord.js meets the spec's limits", () => {
  test("op 8 is ignored: members.fetch() of all, of several ids or by query times out; list() and fetch(id) answer over REST", async () => {
    // `time` is discord.js's own wait for the chunks (120 s by default).
    for (const ask of [{}, { user: [W().users.bob.id, W().users.carol.id] }, { query: "bo" }]) {
      const err: any = await guild.members.fetch({ ...ask, time: 200 }).catch((e) => e);
      expect(err.code).toBe("GuildMembersTimeout");
      expect(err.message).toBe("Members didn't arrive in time.");
    }
    // GUILD_CREATE carried every member, so the cache was complete from the start.
    expect(guild.members.cache.size).toBe(guild.memberCount);
    expect((await guild.members.list({ limit: 1000 })).size).toBe(guild.memberCount);
    expect((await guild.members.fetch({ user: W().users.bob.id, force: true })).user.username).toBe("bob");
  });

  test("VIEW_CHANNEL is not honoured: an overwrite denying it is dropped, and every member reads and writes the channel", async () => {
    const staff = await guild.channels.create({
      name: "staff-only",
      type: ChannelType.GuildText,
      permissionOverwrites: [{ id: guild.roles.everyone.id, deny: [P.ViewChannel] }],
    });
    expect(staff.permissionOverwrites.cache.get(guild.roles.everyone.id)?.deny.bitfield).toBe(0n);
    await staff.send("for staff only");
    expect((await m.sdk.messages(staff.id, { as: "carol" })).map((x) => x.content)).toEqual(["for staff only"]);
    await m.sdk.as("carol").say(staff.id, "carol was here");
    // SEND_MESSAGES is honoured: denying it keeps a channel read-only.
    await staff.permissionOverwrites.edit(guild.roles.everyone.id, { SendMessages: false });
    const refused: any = await m.sdk
      .as("carol")
      .say(staff.id, "again")
      .catch((e) => e);
    expect([refused.status, refused.body.code]).toEqual([403, 50001]);
  });

  test("MODERATE_MEMBERS is never granted: member.timeout() rejects with 403 50001, and moderatable is false", async () => {
    const bob = await guild.members.fetch(W().users.bob.id);
    expect(bob.moderatable).toBe(false);
    const err: any = await bob.timeout(60_000, "quiet, please").catch((e) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect([err.status, err.code]).toEqual([403, 50001]);
    // A kick is within the 13 bits, and the bot's role holds it.
    expect(bob.kickable).toBe(true);
  });

  test("permissions carry 13 bits: has(EmbedLinks) and has(ViewChannel) are false, so viewable, editable and deletable are too", async () => {
    const me = guild.members.me!;
    expect(me.permissions.has(P.SendMessages)).toBe(true);
    expect(me.permissions.has(P.ManageMessages)).toBe(true);
    expect(me.permissions.has(P.EmbedLinks)).toBe(false);
    expect(me.permissions.has(P.ViewChannel)).toBe(false);
    const general = channel("general");
    expect(general.viewable).toBe(false);
    const mine = await general.send({ content: "an embed needs no EMBED_LINKS here", embeds: [{ title: "sent all the same" }] });
    expect(mine.embeds).toHaveLength(1);
    // discord.js asks for ViewChannel before it says a message may be edited or deleted; both work.
    expect([mine.editable, mine.deletable]).toEqual([false, false]);
    expect((await mine.edit("edited all the same")).content).toBe("edited all the same");
    await mine.delete();
  });

  test("messages say bot: false: a handler that skips author.bot answers the bot's own message, and a trigger its reply matches loops", async () => {
    const replies: string[] = [];
    const ownSeenAsBot: boolean[] = [];
    let sends = 0;
    // As many bots write it: ignore bots, answer a command with a reply that names it.
    const handler = async (msg: Message) => {
      if (msg.author.bot || !msg.content.startsWith("!ping")) return;
      if (msg.author.id === bot.user!.id) ownSeenAsBot.push(msg.author.bot);
      // The test's brake: three replies show the loop (rate limits would only slow it).
      if (sends++ < 3) replies.push((await (msg.channel as TextChannel).send("!ping pong")).id);
    };
    bot.on(Events.MessageCreate, handler);
    try {
      const said = await m.sdk.as("bob").say("spam", "!ping");
      await until("three replies", () => replies.length === 3 && ownSeenAsBot.length === 3);
      expect(ownSeenAsBot).toEqual([false, false, false]);
      const stored = await m.sdk.messages("spam", { as: "bob", limit: 10 });
      expect(
        stored
          .filter((x) => x.author.id === bot.user!.id)
          .map((x) => x.id)
          .sort(),
      ).toEqual([...replies].sort());
      expect(stored.at(-1)?.id).toBe(said.id);
    } finally {
      bot.off(Events.MessageCreate, handler);
    }
  });

  test('only /api/v10: REST({ version: "9" }) gets 404 on every route, and a client on it cannot log in', async () => {
    const rest = new REST({ version: "9", api: m.sdk.apiBase }).setToken(m.sdk.tokenOf("FullBot"));
    const err: any = await rest.get(Routes.user()).catch((e) => e);
    expect(err).toBeInstanceOf(RestAPIError);
    expect([err.status, err.code, err.message]).toEqual([404, 0, "404: Not Found"]);
    const v9 = new Client({ intents: [I.Guilds], rest: { api: m.sdk.apiBase, version: "9" } });
    try {
      const refused: any = await v9.login(m.sdk.tokenOf("FullBot")).catch((e) => e);
      expect(refused).toBeInstanceOf(DiscordAPIError);
      expect([refused.status, refused.url]).toEqual([404, `${m.sdk.apiBase}/v9/gateway/bot`]);
    } finally {
      await Promise.race([v9.destroy(), Bun.sleep(2000)]);
    }
  });

  test("a modal answers 501: showModal() rejects with HTTPError 501 after discord.js's immediate retries", async () => {
    const statuses: number[] = [];
    const onResponse = (_req: unknown, res: { status: number }) => void statuses.push(res.status);
    bot.rest.on("response", onResponse);
    try {
      const panel = await channel("general").send({
        content: "fill in the form",
        components: [
          new ActionRowBuilder<ButtonBuilder>().addComponents(
            new ButtonBuilder().setCustomId("limits-form").setLabel("Form").setStyle(ButtonStyle.Primary),
          ),
        ],
      });
      const clicked = next<[ButtonInteraction]>(bot, Events.InteractionCreate, (i) => i.isButton() && i.customId === "limits-form");
      const click = await m.sdk.as("bob").interact({ channel_id: "general", message_id: panel.id, custom_id: "limits-form" });
      const [i] = await clicked;
      const modal = new ModalBuilder()
        .setCustomId("form")
        .setTitle("Form")
        .addComponents(
          new ActionRowBuilder<TextInputBuilder>().addComponents(
            new TextInputBuilder().setCustomId("name").setLabel("Name").setStyle(TextInputStyle.Short),
          ),
        );
      const err: any = await i.showModal(modal).catch((e) => e);
      expect(err).toBeInstanceOf(HTTPError);
      expect(err.status).toBe(501);
      // A 5xx is retried at once, `retries` (3) times.
      expect(statuses.filter((s) => s === 501)).toEqual([501, 501, 501, 501]);
      expect(await m.sdk.harness("GET", `/interactions/${click.id}`)).toMatchObject({ state: "pending", response: null });
      // HTTPError keeps no body; the same callback in-process shows the spec's code.
      const again = await call(m.p, "POST", `/interactions/${i.id}/${i.token}/callback`, { body: { type: 9, data: modal.toJSON() } });
      expect(refusal(again)).toEqual([501, 50035]);
    } finally {
      bot.rest.off("response", onResponse);
    }
  });
});

describe("discordeno meets the spec's limits", () => {
  test("without applicationId it takes the bot user's id from the token, which names the application as on the reference", async () => {
    const token = m.sdk.tokenOf("FullBot");
    const quiet = { debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
    const dd: any = createBot({
      token,
      intents: FULL_INTENTS,
      desiredProperties: createDesiredPropertiesObject({}, true) as any,
      events: {},
      rest: { token, proxy: { baseUrl: m.sdk.apiBase } },
      loggerFactory: () => quiet,
    } as any);
    dd.rest.isProxied = false;
    expect(String(dd.applicationId)).toBe(W().applications.FullBot.bot_user_id);
    expect(String(dd.applicationId)).not.toBe(W().applications.FullBot.id);
    const made: any[] = await dd.helpers.upsertGlobalApplicationCommands([{ name: "hello", description: "Greets" }]);
    expect(made.map((c) => [c.name, String(c.applicationId)])).toEqual([["hello", W().applications.FullBot.id]]);
    await dd.helpers.upsertGlobalApplicationCommands([]);
  });
});
