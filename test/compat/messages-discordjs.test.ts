/**
 * A real discord.js 14 bot (REST side: the gateway is built separately) drives the
 * message, reaction and channel routes; the people's side (p.core) sees every result.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { REST } from "@discordjs/rest";
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, Routes } from "discord.js";
import { BASIC_WORLD, makeUnlimitedParley, recordEvents } from "../helpers";
import type { Parley } from "../../src/app";
import type { SeedAnswer } from "../../src/harness/seed";

let p: Parley;
let w: SeedAnswer;
let rest: REST;
const uuid = (f: string) => p.api.flakes.uuid(f)!;

beforeAll(() => {
  p = makeUnlimitedParley();
  p.listen();
  const world = structuredClone(BASIC_WORLD) as any;
  world.guilds[0].roles.push({ name: "BotAdmin", permissions: ["MANAGE_CHANNELS", "MANAGE_ROLES", "MANAGE_MESSAGES"], members: ["EchoBot"] });
  w = p.seed(world);
  rest = new REST({ api: `${p.api.urls.base}/api`, retries: 0 }).setToken(w.applications.EchoBot.token);
});

afterAll(async () => {
  await p.stop();
});

test("discord.js: send with embed and buttons, edit, react, history, channel, overwrite, delete", async () => {
  const ev = recordEvents(p);
  const general = w.guilds.Lab.channels.general;
  const embed = new EmbedBuilder().setTitle("Status").setDescription("all good").addFields({ name: "cpu", value: "3%" }).setColor(0x00ff00).setTimestamp();
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId("ok").setLabel("OK").setStyle(ButtonStyle.Primary),
    new ButtonBuilder().setURL("https://example.com").setLabel("Docs").setStyle(ButtonStyle.Link),
  );
  const sent = (await rest.post(Routes.channelMessages(general), { body: { content: "hello", embeds: [embed.toJSON()], components: [row.toJSON()] } })) as any;
  expect(sent.content).toBe("hello");
  expect(sent.embeds[0].fields).toEqual([{ name: "cpu", value: "3%", inline: false }]);
  expect(sent.components[0].components).toHaveLength(2);

  const edited = (await rest.patch(Routes.channelMessage(general, sent.id), { body: { content: "hello again" } })) as any;
  expect(edited.embeds).toHaveLength(1);
  expect(edited.edited_timestamp).not.toBeNull();

  await rest.put(Routes.channelMessageOwnReaction(general, sent.id, encodeURIComponent("👍")));
  const history = (await rest.get(Routes.channelMessages(general), { query: new URLSearchParams({ limit: "10" }) })) as any[];
  expect(history[0]).toMatchObject({ id: sent.id, content: "hello again", reactions: [{ emoji: { name: "👍" }, count: 1, me: true }] });

  const created = (await rest.post(Routes.guildChannels(w.guilds.Lab.id), { body: { name: "from-djs", topic: "made by a bot" } })) as any;
  expect(created).toMatchObject({ name: "from-djs", type: 0 });
  await rest.put(Routes.channelPermission(created.id, w.users.bob.id), { body: { type: 1, allow: "0", deny: "2048" } });
  expect(p.core.guilds.overwrites(uuid(created.id))).toEqual([{ channel_id: uuid(created.id), target_id: uuid(w.users.bob.id), target_type: 1, allow: 0, deny: 2048 }]);

  await rest.delete(Routes.channelMessage(general, sent.id));
  expect(p.core.messages.get(uuid(sent.id))).toBeNull();

  // The refusal surfaces as a DiscordAPIError with the spec's code.
  const err: any = await rest.post(Routes.channelMessages(general), { body: { content: "" } }).catch((e: unknown) => e);
  expect(err.code).toBe(50035);
  expect(err.status).toBe(400);

  expect(ev.events.map((e) => e.type)).toEqual(["message.created", "message.updated", "reaction.added", "channel.created", "channel.updated", "message.deleted"]);
});
