const { Command } = require('@sapphire/framework');
const { ApplicationCommandType } = require('discord.js');

// A user context-menu command through the same registry.
class ProfileCommand extends Command {
	constructor(context, options) {
		super(context, { ...options, name: 'profile', description: 'Show a profile' });
	}

	registerApplicationCommands(registry) {
		registry.registerContextMenuCommand((b) => b.setName('Profile').setType(ApplicationCommandType.User), {
			guildIds: [process.env.GUILD_ID],
		});
	}

	async contextMenuRun(interaction) {
		return interaction.reply({ content: `${interaction.targetUser.username} is a member here.`, ephemeral: true });
	}
}

module.exports = { ProfileCommand };
