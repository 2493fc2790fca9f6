const { Command } = require('@sapphire/framework');

// A custom precondition (src/preconditions/OwnerOnly.js) on both kinds of command.
class VaultCommand extends Command {
	constructor(context, options) {
		super(context, { ...options, name: 'vault', description: 'Open the vault', preconditions: ['OwnerOnly'] });
	}

	registerApplicationCommands(registry) {
		registry.registerChatInputCommand((b) => b.setName(this.name).setDescription(this.description), {
			guildIds: [process.env.GUILD_ID],
		});
	}

	async messageRun(message) {
		return message.reply('The vault is open.');
	}

	async chatInputRun(interaction) {
		return interaction.reply({ content: 'The vault is open.', ephemeral: true });
	}
}

module.exports = { VaultCommand };
