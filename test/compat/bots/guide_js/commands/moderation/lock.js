// channel.permissionOverwrites.edit on @everyone: nobody may speak in the channel.
const { PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('lock')
		.setDescription('Lock or unlock this channel')
		.addBooleanOption(option => option.setName('unlock').setDescription('Unlock instead'))
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageChannels),
	async execute(interaction) {
		const unlock = interaction.options.getBoolean('unlock') ?? false;
		await interaction.channel.permissionOverwrites.edit(interaction.guild.roles.everyone, { SendMessages: unlock ? null : false });
		const overwrite = interaction.channel.permissionOverwrites.cache.get(interaction.guild.id);
		await interaction.reply(
			unlock ? 'Channel unlocked.' : `Channel locked (denied: ${overwrite.deny.toArray().join(', ')}).`,
		);
	},
};
