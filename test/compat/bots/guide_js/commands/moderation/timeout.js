const { PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('timeout')
		.setDescription('Time a member out')
		.addUserOption(option => option.setName('target').setDescription('The member').setRequired(true))
		.addIntegerOption(option => option.setName('minutes').setDescription('How long').setMinValue(0).setMaxValue(40320).setRequired(true))
		.setDefaultMemberPermissions(PermissionFlagsBits.ModerateMembers),
	async execute(interaction) {
		const member = interaction.options.getMember('target');
		const minutes = interaction.options.getInteger('minutes');
		await member.timeout(minutes === 0 ? null : minutes * 60 * 1000, 'Timed out by command');
		await interaction.reply(
			minutes === 0
				? `${member.user.username} may talk again.`
				: `${member.user.username} is timed out until ${member.communicationDisabledUntil.toISOString()}.`,
		);
	},
};
