const { PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('nick')
		.setDescription("Change a member's nickname")
		.addUserOption(option => option.setName('target').setDescription('The member').setRequired(true))
		.addStringOption(option => option.setName('nickname').setDescription('The new nickname (empty to reset)'))
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageNicknames),
	async execute(interaction) {
		const member = interaction.options.getMember('target');
		const updated = await member.setNickname(interaction.options.getString('nickname'), 'Renamed by command');
		await interaction.reply(`${updated.user.username} is now shown as ${updated.displayName}.`);
	},
};
