/**
 * A discord.js bot with something for each of the SDK's helpers to drive: a text command,
 * slash commands answered at once, after a deferral, late (when the test lets it) or
 * never, a message with a button and a menu, a context-menu command, a DM command, and a
 * command that reads a message that is not there. Tests log it in with parley.login().
 */
import {
  ActionRowBuilder,
  ApplicationCommandType,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits as I,
  MessageFlags,
  Partials,
  SnowflakeUtil,
  StringSelectMenuBuilder,
  type Interaction,
  type Message,
} from "discord.js";

export const TESTER_WORLD = {
  users: [{ name: "alice" }, { name: "bob" }],
  guilds: [{ name: "Lab", owner: "alice", members: ["bob"], channels: [{ name: "general" }, { name: "random" }] }],
  applications: [
    {
      name: "TesterBot",
      owner: "alice",
      install: ["Lab"],
      intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"],
      approved_privileged: ["MESSAGE_CONTENT"],
    },
  ],
};

export const COMMANDS = [
  { name: "ping", description: "Pong", options: [{ type: 5, name: "secret", description: "Only you see it" }] },
  { name: "slow", description: "Thinks first" },
  { name: "late", description: "Answers when the test lets it" },
  { name: "never", description: "Does not answer" },
  { name: "menu", description: "A button and a menu" },
  { name: "Profile", type: ApplicationCommandType.User },
];

export interface TesterBot {
  client: Client;
  /** Let the /late command answer now. */
  release(): void;
  /** Timer ticks counted by the bot's own setInterval (started by startTicking). */
  ticks: number;
  /** Count a tick every `everyMs` on the bot's timers, and post "tick N" in `channelId` if given. */
  startTicking(everyMs: number, channelId?: string): void;
}

export function createTesterBot(): TesterBot {
  // The README's epoch line: ids are read against Parley's epoch.
  SnowflakeUtil.timestampFrom = (id) => Number(BigInt(id) >> 22n) + 1735689600000;
  const client = new Client({ intents: [I.Guilds, I.GuildMessages, I.MessageContent, I.DirectMessages], partials: [Partials.Channel] });
  // A handler's error goes where the bot reports errors: the client's "error" event.
  const report = (e: unknown) => void client.emit(Events.Error, e as Error);
  let release = () => {};
  const gate = () => new Promise<void>((r) => (release = r));
  const bot: TesterBot = {
    client,
    release: () => release(),
    ticks: 0,
    startTicking(everyMs, channelId) {
      setInterval(() => {
        const n = ++bot.ticks;
        if (channelId) void client.rest.post(`/channels/${channelId}/messages`, { body: { content: `tick ${n}` } }).catch(report);
      }, everyMs);
    },
  };
  client.once(Events.ClientReady, () => void client.application!.commands.set(COMMANDS as never));
  client.on(Events.MessageCreate, (m) => void onMessage(client, m).catch(report));
  client.on(Events.InteractionCreate, (i) => void onInteraction(i, gate).catch(report));
  return bot;
}

async function onMessage(client: Client, m: Message): Promise<void> {
  if (m.author.id === client.user!.id) return;
  if (m.content === "!ping") await m.reply("pong");
  if (m.content === "!help" && !m.guildId && m.channel.isSendable()) await m.channel.send(`help for ${m.author.username}`);
  // A 404 the bot does not catch (its handler fails), and one it does.
  if (m.content === "!missing") await m.channel.messages.fetch("1234567890123456789");
  if (m.content === "!lookup") await m.channel.messages.fetch("1234567890123456789").catch(() => m.reply("no such message"));
}

async function onInteraction(i: Interaction, gate: () => Promise<void>): Promise<void> {
  if (i.isChatInputCommand()) {
    if (i.commandName === "ping")
      await i.reply({ content: "pong", flags: i.options.getBoolean("secret") ? MessageFlags.Ephemeral : undefined });
    if (i.commandName === "slow") {
      await i.deferReply();
      await i.editReply("thought about it");
    }
    if (i.commandName === "late") {
      await gate();
      await i.reply("sorry I am late");
    }
    if (i.commandName === "menu") {
      const row1 = new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId("more").setLabel("More").setStyle(ButtonStyle.Primary),
      );
      const row2 = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
        new StringSelectMenuBuilder().setCustomId("colour").addOptions({ label: "Red", value: "red" }, { label: "Blue", value: "blue" }),
      );
      await i.reply({ content: "pick", components: [row1, row2] });
    }
  } else if (i.isButton() && i.customId === "more") {
    await i.update({ content: "more, as asked", components: [] });
  } else if (i.isStringSelectMenu() && i.customId === "colour") {
    await i.reply({ content: `you chose ${i.values.join(", ")}`, flags: MessageFlags.Ephemeral });
  } else if (i.isUserContextMenuCommand() && i.commandName === "Profile") {
    await i.reply(`profile of ${i.targetUser.username}`);
  }
}
