// Sapphire's JavaScript template (create-sapphire / examples/with-javascript): a SapphireClient
// whose stores load from the folders beside this file. `rest: { api }` is the one line that
// points it at Parley instead of the reference; the ids come from the test that starts it.
require('@sapphire/plugin-subcommands/register');
const { ApplicationCommandRegistries, LogLevel, RegisterBehavior, SapphireClient } = require('@sapphire/framework');
const { GatewayIntentBits, Partials } = require('discord.js');

// The registry guide's advice while developing: log every difference found before overwriting.
ApplicationCommandRegistries.setDefaultBehaviorWhenNotIdentical(RegisterBehavior.VerboseOverwrite);

const client = new SapphireClient({
	defaultPrefix: '!',
	caseInsensitiveCommands: true,
	loadMessageCommandListeners: true,
	logger: { level: LogLevel.Debug },
	intents: [
		GatewayIntentBits.Guilds,
		GatewayIntentBits.GuildMembers,
		GatewayIntentBits.GuildMessages,
		GatewayIntentBits.MessageContent,
		GatewayIntentBits.DirectMessages,
	],
	partials: [Partials.Channel],
	rest: { api: process.env.PARLEY_API },
});

client.login(process.env.DISCORD_TOKEN).catch((error) => {
	client.logger.fatal(error);
	client.destroy();
	process.exit(1);
});
