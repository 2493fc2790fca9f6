// A member's own overwrite: permissionOverwrites.create, then .delete.
const { PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('mute')
		.setDescription('Stop a member from speaking in this channel')
		.addUserOption(option => option.setName('target').setDescription('The member').setRequired(true))
		.addBooleanOption(option => option.setName('undo').setDescription('Let them speak again'))
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageRoles),
	async execute(interaction) {
		const member = interaction.options.getMember('target');
		if (interaction.options.getBoolean('undo')) {
			await interaction.channel.permissionOverwrites.delete(member, 'unmuted');
			await interaction.reply(`${member.user.username} may speak here again.`);
			return;
		}
		await interaction.channel.permissionOverwrites.create(member, { SendMessages: false, ViewChannel: true }, { reason: 'muted' });
		const mine = interaction.channel.permissionOverwrites.cache.get(member.id);
		const can = interaction.channel.permissionsFor(member).has(PermissionFlagsBits.SendMessages);
		await interaction.reply(`${member.user.username} is muted here (type ${mine.type}, may send: ${can}).`);
	},
};
