// "Context menus": a message command.
const { ApplicationCommandType, ContextMenuCommandBuilder, EmbedBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new ContextMenuCommandBuilder().setName('Quote').setType(ApplicationCommandType.Message),
	async execute(interaction) {
		const message = interaction.targetMessage;
		const embed = new EmbedBuilder()
			.setAuthor({ name: message.author.username })
			.setDescription(message.content)
			.setFooter({ text: `quoted by ${interaction.user.username}` });
		await interaction.reply({ embeds: [embed] });
	},
};
