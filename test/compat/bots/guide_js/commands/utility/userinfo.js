// "Context menus": a user command.
const { ApplicationCommandType, ContextMenuCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new ContextMenuCommandBuilder().setName('User Information').setType(ApplicationCommandType.User),
	async execute(interaction) {
		const { username } = interaction.targetUser;
		await interaction.reply(`${username} is ${interaction.targetMember?.displayName ?? username} here.`);
	},
};
