// "Permissions": check the member's permissions with PermissionsBitField before acting.
const { PermissionsBitField, PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('kick')
		.setDescription('Kick a member')
		.addUserOption(option => option.setName('target').setDescription('The member to kick').setRequired(true))
		.setDefaultMemberPermissions(PermissionFlagsBits.KickMembers)
		.setDMPermission(false),
	async execute(interaction) {
		if (!interaction.member.permissions.has(PermissionsBitField.Flags.KickMembers)) {
			await interaction.reply('You cannot kick members.');
			return;
		}
		const member = interaction.options.getMember('target');
		if (!member.kickable) {
			await interaction.reply(`I cannot kick ${member.user.username}.`);
			return;
		}
		await member.kick('Kicked by command');
		await interaction.reply(`Kicked ${member.user.username}.`);
	},
};
