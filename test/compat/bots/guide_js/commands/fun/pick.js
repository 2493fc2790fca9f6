// "Select menus": the auto-populated user and role selects.
const { ActionRowBuilder, RoleSelectMenuBuilder, SlashCommandBuilder, UserSelectMenuBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('pick').setDescription('Pick users and roles'),
	async execute(interaction) {
		const users = new UserSelectMenuBuilder().setCustomId('users').setPlaceholder('Select multiple users.').setMinValues(1).setMaxValues(10);
		const roles = new RoleSelectMenuBuilder().setCustomId('roles').setPlaceholder('Select a role.');
		await interaction.reply({
			content: 'Select users and a role:',
			components: [new ActionRowBuilder().addComponents(users), new ActionRowBuilder().addComponents(roles)],
		});
	},
};
