const { Command } = require('@sapphire/framework');

// The template's ping: a message command (`!ping`, `!pong`) and a global chat input command,
// with localized names and descriptions so the registry compares them.
class PingCommand extends Command {
	constructor(context, options) {
		super(context, { ...options, name: 'ping', aliases: ['pong'], description: 'Ping the bot to see if it is alive' });
	}

	registerApplicationCommands(registry) {
		registry.registerChatInputCommand(
			(builder) =>
				builder
					.setName(this.name)
					.setDescription(this.description)
					.setNameLocalizations({ fr: 'ping', de: 'ping' })
					.setDescriptionLocalizations({ fr: 'Vérifie que le bot répond' })
					.setDMPermission(false),
			{ idHints: ['1000000000000000000'] },
		);
	}

	async messageRun(message) {
		const sent = await message.channel.send('Ping?');
		return sent.edit(`Pong from ${message.author.username}! (${sent.id === message.id ? 'same' : 'new'} message)`);
	}

	async chatInputRun(interaction) {
		return interaction.reply({ content: `Pong! (locale ${interaction.locale})` });
	}
}

module.exports = { PingCommand };
