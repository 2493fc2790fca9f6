// "Advanced command creation": options of every type, and subcommands in a group.
const { ChannelType, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('info')
		.setDescription('Get info about a user, a server or everything')
		.addSubcommand(subcommand =>
			subcommand
				.setName('user')
				.setDescription('Info about a user')
				.addUserOption(option => option.setName('target').setDescription('The user')),
		)
		.addSubcommand(subcommand => subcommand.setName('server').setDescription('Info about the server'))
		.addSubcommand(subcommand =>
			subcommand
				.setName('all')
				.setDescription('Every kind of option')
				.addStringOption(option =>
					option
						.setName('category')
						.setDescription('The gif category')
						.setRequired(true)
						.addChoices(
							{ name: 'Funny', value: 'gif_funny' },
							{ name: 'Meme', value: 'gif_meme' },
							{ name: 'Movie', value: 'gif_movie' },
						),
				)
				.addIntegerOption(option => option.setName('count').setDescription('How many').setMinValue(1).setMaxValue(10))
				.addNumberOption(option => option.setName('ratio').setDescription('A ratio').setMinValue(0).setMaxValue(1))
				.addBooleanOption(option => option.setName('loud').setDescription('Shout it'))
				.addUserOption(option => option.setName('user').setDescription('A user'))
				.addChannelOption(option =>
					option.setName('channel').setDescription('A text channel').addChannelTypes(ChannelType.GuildText),
				)
				.addRoleOption(option => option.setName('role').setDescription('A role'))
				.addMentionableOption(option => option.setName('mentionable').setDescription('A user or a role'))
				.addStringOption(option => option.setName('text').setDescription('Free text').setMinLength(2).setMaxLength(20)),
		)
		.addSubcommandGroup(group =>
			group
				.setName('permissions')
				.setDescription('Get or edit permissions')
				.addSubcommand(subcommand =>
					subcommand
						.setName('get')
						.setDescription('Get the permissions of a member')
						.addUserOption(option => option.setName('member').setDescription('The member').setRequired(true)),
				),
		),
	async execute(interaction) {
		const group = interaction.options.getSubcommandGroup(false);
		const sub = interaction.options.getSubcommand();
		if (group === 'permissions' && sub === 'get') {
			const member = interaction.options.getMember('member');
			const perms = member.permissions.toArray().filter(p => ['KickMembers', 'BanMembers', 'ManageRoles', 'Administrator'].includes(p));
			await interaction.reply(`${member.user.username} can: ${perms.join(', ') || 'nothing special'}`);
			return;
		}
		if (sub === 'user') {
			const user = interaction.options.getUser('target') ?? interaction.user;
			await interaction.reply(`Username: ${user.username}\nID: ${user.id}`);
			return;
		}
		if (sub === 'server') {
			await interaction.reply(`Server name: ${interaction.guild.name}\nTotal members: ${interaction.guild.memberCount}`);
			return;
		}
		const o = interaction.options;
		const mentionable = o.getMentionable('mentionable');
		const lines = [
			`category=${o.getString('category')}`,
			`count=${o.getInteger('count')}`,
			`ratio=${o.getNumber('ratio')}`,
			`loud=${o.getBoolean('loud')}`,
			`user=${o.getUser('user')?.username ?? null}`,
			`member=${o.getMember('user')?.displayName ?? null}`,
			`channel=${o.getChannel('channel')?.name ?? null}:${o.getChannel('channel')?.type ?? null}`,
			`role=${o.getRole('role')?.name ?? null}`,
			`mentionable=${mentionable ? (mentionable.name ?? mentionable.user?.username ?? mentionable.username) : null}`,
			`text=${o.getString('text')}`,
		];
		await interaction.reply(lines.join('\n'));
	},
};
