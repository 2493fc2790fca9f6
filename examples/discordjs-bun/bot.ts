/**
 * HelperBot, a small discord.js 14 bot as a bot author writes one, and the bot the tests
 * beside it test: !ping, /echo (only you see it), /poll (buttons that count), /think (a
 * deferred answer), !help in a DM, and a reminder in #general every hour.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  SnowflakeUtil,
  type Interaction,
  type Message,
} from "discord.js";

// Parley's ids count from 2025-01-01 (its README, "The snowflake epoch").
SnowflakeUtil.timestampFrom = (id) => Number(BigInt(id) >> 22n) + 1735689600000;

export const COMMANDS = [
  { name: "echo", description: "Say it back, to you only", options: [{ type: 3, name: "text", description: "What to say", required: true }] },
  { name: "poll", description: "Ask the channel", options: [{ type: 3, name: "question", description: "The question", required: true }] },
  { name: "think", description: "Take a moment, then answer" },
];

export function createBot(): Client {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
    partials: [Partials.Channel],
  });
  const votes = new Map<string, { yes: number; no: number }>();
  client.once(Events.ClientReady, async (c) => {
    await c.application.commands.set(COMMANDS);
    setInterval(() => void remind(c), 60 * 60_000);
  });
  client.on(Events.MessageCreate, (m) => void onMessage(client, m).catch((e) => client.emit(Events.Error, e)));
  client.on(Events.InteractionCreate, (i) => void onInteraction(i, votes).catch((e) => client.emit(Events.Error, e)));
  return client;
}

async function remind(client: Client<true>): Promise<void> {
  for (const guild of client.guilds.cache.values()) {
    const general = guild.channels.cache.find((c) => c.name === "general");
    if (general?.isSendable()) await general.send("Hourly reminder: drink some water");
  }
}

async function onMessage(client: Client, m: Message): Promise<void> {
  if (m.author.id === client.user?.id) return;
  if (m.content === "!ping") await m.reply("pong");
  if (m.content === "!help" && !m.guildId && m.channel.isSendable()) await m.channel.send("Commands: !ping, /echo, /poll, /think");
}

async function onInteraction(i: Interaction, votes: Map<string, { yes: number; no: number }>): Promise<void> {
  if (i.isChatInputCommand() && i.commandName === "echo") {
    await i.reply({ content: i.options.getString("text", true), flags: MessageFlags.Ephemeral });
  } else if (i.isChatInputCommand() && i.commandName === "poll") {
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId("yes").setLabel("Yes").setStyle(ButtonStyle.Success),
      new ButtonBuilder().setCustomId("no").setLabel("No").setStyle(ButtonStyle.Danger),
    );
    await i.reply({ content: `${i.options.getString("question", true)} (yes 0, no 0)`, components: [row] });
  } else if (i.isChatInputCommand() && i.commandName === "think") {
    await i.deferReply();
    await i.editReply("42");
  } else if (i.isButton() && (i.customId === "yes" || i.customId === "no")) {
    const tally = votes.get(i.message.id) ?? { yes: 0, no: 0 };
    tally[i.customId]++;
    votes.set(i.message.id, tally);
    await i.update({ content: i.message.content.replace(/\(yes \d+, no \d+\)/, `(yes ${tally.yes}, no ${tally.no})`) });
  }
}
