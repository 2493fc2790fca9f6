// The guide's /prune: channel.bulkDelete of the last messages.
const { MessageFlags, PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('prune')
		.setDescription('Prune up to 99 messages.')
		.addIntegerOption(option => option.setName('amount').setDescription('Number of messages to prune').setRequired(true))
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageMessages),
	async execute(interaction) {
		const amount = interaction.options.getInteger('amount');
		if (amount < 1 || amount > 99) {
			return interaction.reply({ content: 'You need to input a number between 1 and 99.', flags: MessageFlags.Ephemeral });
		}
		const deleted = await interaction.channel.bulkDelete(amount, true);
		return interaction.reply({ content: `Successfully pruned \`${deleted.size}\` messages.`, flags: MessageFlags.Ephemeral });
	},
};
