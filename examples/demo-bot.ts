/**
 * DemoBot: a small, real discord.js 14 bot, unchanged but for its base URL, that
 * `npm start` runs beside Parley so the first minute shows the point. Talk to it in
 * #general of the demo server:
 *
 *   !ping          it answers "pong"
 *   /roll          dice in an embed, with a "Roll again" button (the message changes in
 *                  place), a link button, a disabled one, and a colour menu that answers
 *                  only you ("Only you can see this")
 *   /think         "DemoBot is thinking…" for a moment, then an answer
 *
 * Run it against any Parley:
 *   PARLEY_API=http://127.0.0.1:7420/api PARLEY_BOT_TOKEN=<token> bun examples/demo-bot.ts
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  EmbedBuilder,
  Events,
  GatewayIntentBits,
  MessageFlags,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  type ChatInputCommandInteraction,
} from "discord.js";

export const COMMANDS = [
  new SlashCommandBuilder()
    .setName("roll")
    .setDescription("Roll some dice")
    .addIntegerOption((o) =>
      o
        .setName("sides")
        .setDescription("How many sides each die has")
        .setRequired(true)
        .addChoices({ name: "4", value: 4 }, { name: "6", value: 6 }, { name: "20", value: 20 }),
    )
    .addIntegerOption((o) => o.setName("count").setDescription("How many dice (1 to 5)").setMinValue(1).setMaxValue(5))
    .addStringOption((o) => o.setName("label").setDescription("What the roll is for").setMaxLength(100))
    .addBooleanOption((o) => o.setName("secret").setDescription("Only you see the result")),
  new SlashCommandBuilder().setName("think").setDescription("Think it over for a moment, then answer"),
].map((c) => c.toJSON());

const COLOURS: Record<string, number> = { red: 0xda373c, green: 0x23a559, blue: 0x5865f2 };

function roll(sides: number, count: number, label: string | null, n = 1) {
  const dice = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * sides));
  const total = dice.reduce((a, b) => a + b, 0);
  const embed = new EmbedBuilder()
    .setColor(0x5865f2)
    .setAuthor({ name: "DemoBot's dice" })
    .setTitle(`You rolled ${total}`)
    .setURL("https://en.wikipedia.org/wiki/Dice")
    .setDescription(`${label ? `For **${label}**: ` : ""}${count} × d${sides}, *good luck*. \`/roll\` again any time.`)
    .addFields(dice.map((d, i) => ({ name: `Die ${i + 1}`, value: String(d), inline: true })))
    .addFields({ name: "Total", value: `**${total}**` })
    .setFooter({ text: `Roll ${n} by DemoBot` })
    .setTimestamp(new Date());
  const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(`roll:${sides}:${count}:${n + 1}`).setLabel("Roll again").setStyle(ButtonStyle.Primary),
    new ButtonBuilder().setLabel("About dice").setStyle(ButtonStyle.Link).setURL("https://en.wikipedia.org/wiki/Dice"),
    new ButtonBuilder().setCustomId("loaded").setLabel("Loaded dice").setStyle(ButtonStyle.Secondary).setDisabled(true),
  );
  const menu = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
    new StringSelectMenuBuilder()
      .setCustomId("colour")
      .setPlaceholder("Pick a colour")
      .addOptions(Object.keys(COLOURS).map((c) => ({ label: c[0].toUpperCase() + c.slice(1), value: c }))),
  );
  return { embeds: [embed], components: [buttons, menu] };
}

async function onCommand(i: ChatInputCommandInteraction, thinkMs: number) {
  if (i.commandName === "roll") {
    const answer = roll(i.options.getInteger("sides", true), i.options.getInteger("count") ?? 1, i.options.getString("label"));
    await i.reply(i.options.getBoolean("secret") ? { ...answer, flags: MessageFlags.Ephemeral } : answer);
  } else if (i.commandName === "think") {
    await i.deferReply();
    await new Promise((r) => setTimeout(r, thinkMs));
    await i.editReply("I thought it over: **yes**.");
  }
}

/** The bot, not yet logged in. `api` is Parley's REST base, e.g. http://127.0.0.1:7420/api. */
export function createDemoBot(opts: { api: string; thinkMs?: number }): Client {
  const thinkMs = opts.thinkMs ?? 2000;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: opts.api },
  });
  client.once(Events.ClientReady, async (c) => {
    await c.application.commands.set(COMMANDS);
    console.log(`DemoBot is online as ${c.user.username}, with /roll and /think`);
  });
  client.on(Events.MessageCreate, async (m) => {
    // Parley, like its spec, reports bot: false on every author: compare ids instead.
    if (m.author.id === client.user?.id) return;
    if (m.content.trim() === "!ping") await m.reply("pong");
  });
  client.on(Events.InteractionCreate, async (i) => {
    try {
      if (i.isChatInputCommand()) await onCommand(i, thinkMs);
      else if (i.isButton() && i.customId.startsWith("roll:")) {
        const [, sides, count, n] = i.customId.split(":").map(Number);
        await i.update(roll(sides, count, null, n));
      } else if (i.isStringSelectMenu() && i.customId === "colour") {
        const pick = i.values[0];
        await i.reply({ content: `You picked **${pick}**. Nobody else can see this.`, flags: MessageFlags.Ephemeral });
      }
    } catch (e) {
      console.error("DemoBot could not answer:", e);
    }
  });
  return client;
}

if (import.meta.main) {
  const api = process.env.PARLEY_API ?? "http://127.0.0.1:7420/api";
  const token = process.env.PARLEY_BOT_TOKEN;
  if (!token) {
    console.error("PARLEY_BOT_TOKEN is not set (npm start passes DemoBot's token)");
    process.exit(2);
  }
  const bot = createDemoBot({ api });
  const stop = () => void bot.destroy().finally(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await bot.login(token);
}
