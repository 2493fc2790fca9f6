// discordx's starter template (src/main.ts), run by Bun straight from TypeScript with the
// legacy decorators of this folder's tsconfig. The template imports every file of commands/
// and events/ through @discordx/importer; a glob does the same here. `rest: { api }` is the
// one line that points it at Parley instead of the reference.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IntentsBitField, type Interaction, type Message } from "discord.js";
import { Client } from "discordx";
import { report } from "./report.js";

export const bot = new Client({
  intents: [
    IntentsBitField.Flags.Guilds,
    IntentsBitField.Flags.GuildMembers,
    IntentsBitField.Flags.GuildMessages,
    IntentsBitField.Flags.GuildMessageReactions,
    IntentsBitField.Flags.MessageContent,
  ],
  // Print the commands it adds, updates, skips and deletes at every start.
  silent: false,
  simpleCommand: { prefix: "!" },
  rest: { api: process.env.PARLEY_API! },
});

bot.once("clientReady", async () => {
  // Fetch the server's and the global commands, diff them, and create, edit or delete.
  await bot.initApplicationCommands();
  const guild = await bot.guilds.fetch(process.env.GUILD_ID!);
  report("ready", { user: bot.user!.id, guild: guild.name });
});

bot.on("interactionCreate", (interaction: Interaction) => {
  bot.executeInteraction(interaction);
});

bot.on("messageCreate", (message: Message) => {
  void bot.executeCommand(message);
});

const here = dirname(fileURLToPath(import.meta.url));
for (const file of new Bun.Glob("{commands,events}/**/*.ts").scanSync(here)) await import(join(here, file));
await bot.login(process.env.DISCORD_TOKEN!);
