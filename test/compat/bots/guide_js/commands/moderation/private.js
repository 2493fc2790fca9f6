// "Permissions": a channel only the one who asked (and the bot) can see, made with
// permissionOverwrites at creation; a role made with permissions; the checks the page shows.
const { ChannelType, PermissionFlagsBits, PermissionsBitField, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('private')
		.setDescription('Makes a private channel and a role for it')
		.addStringOption(option => option.setName('name').setDescription('The channel name').setRequired(true))
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageChannels),
	async execute(interaction) {
		const { guild } = interaction;
		const role = await guild.roles.create({
			name: `${interaction.options.getString('name')}-keepers`,
			permissions: [PermissionsBitField.Flags.SendMessages, PermissionsBitField.Flags.KickMembers],
			reason: 'for a private channel',
		});
		const channel = await guild.channels.create({
			name: interaction.options.getString('name'),
			type: ChannelType.GuildText,
			permissionOverwrites: [
				{ id: guild.id, deny: [PermissionFlagsBits.ViewChannel] },
				{ id: interaction.user.id, allow: [PermissionFlagsBits.ViewChannel] },
				{ id: interaction.client.user.id, allow: [PermissionFlagsBits.ViewChannel] },
				{ id: role.id, allow: [PermissionFlagsBits.ViewChannel] },
			],
		});
		await channel.send(`Welcome to your channel, ${interaction.user}!`);
		const member = interaction.member;
		const everyone = guild.roles.everyone;
		const checks = [
			`role: ${role.permissions.toArray().join(', ')}`,
			`you: ${member.permissionsIn(channel).has(PermissionFlagsBits.ViewChannel)}`,
			`everyone: ${channel.permissionsFor(everyone).has(PermissionFlagsBits.ViewChannel)}`,
			`overwrites: ${channel.permissionOverwrites.cache.size}`,
		];
		await interaction.reply(`Made ${channel} (${checks.join('; ')})`);
	},
};
