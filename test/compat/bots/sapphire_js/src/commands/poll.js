const { Command } = require('@sapphire/framework');
const { ActionRowBuilder, ButtonBuilder, ButtonStyle, StringSelectMenuBuilder } = require('discord.js');

// Components answered by src/interaction-handlers, not by this command.
class PollCommand extends Command {
	constructor(context, options) {
		super(context, { ...options, name: 'poll', description: 'Ask the channel a question' });
	}

	registerApplicationCommands(registry) {
		registry.registerChatInputCommand(
			(b) =>
				b
					.setName(this.name)
					.setDescription(this.description)
					.addStringOption((o) => o.setName('question').setDescription('What to ask').setRequired(true)),
			{ guildIds: [process.env.GUILD_ID] },
		);
	}

	async chatInputRun(interaction) {
		const buttons = new ActionRowBuilder().addComponents(
			new ButtonBuilder().setCustomId('poll:yes').setLabel('Yes').setStyle(ButtonStyle.Success),
			new ButtonBuilder().setCustomId('poll:no').setLabel('No').setStyle(ButtonStyle.Danger),
		);
		const select = new ActionRowBuilder().addComponents(
			new StringSelectMenuBuilder()
				.setCustomId('poll-colour')
				.setPlaceholder('Pick a colour')
				.addOptions({ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }),
		);
		return interaction.reply({ content: `Poll: ${interaction.options.getString('question', true)}`, components: [buttons, select] });
	}
}

module.exports = { PollCommand };
