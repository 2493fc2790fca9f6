const { PermissionFlagsBits, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('role')
		.setDescription('Give or take a role')
		.addSubcommand(sub =>
			sub
				.setName('add')
				.setDescription('Give a role')
				.addUserOption(option => option.setName('target').setDescription('The member').setRequired(true))
				.addRoleOption(option => option.setName('role').setDescription('The role').setRequired(true)),
		)
		.addSubcommand(sub =>
			sub
				.setName('remove')
				.setDescription('Take a role')
				.addUserOption(option => option.setName('target').setDescription('The member').setRequired(true))
				.addRoleOption(option => option.setName('role').setDescription('The role').setRequired(true)),
		)
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageRoles),
	async execute(interaction) {
		const member = interaction.options.getMember('target');
		const role = interaction.options.getRole('role');
		if (interaction.options.getSubcommand() === 'add') {
			await member.roles.add(role);
			await interaction.reply(`Gave ${role.name} to ${member.user.username}; they have ${member.roles.cache.size - 1} roles.`);
		} else {
			await member.roles.remove(role);
			await interaction.reply(`Took ${role.name} from ${member.user.username}; they have ${member.roles.cache.size - 1} roles.`);
		}
	},
};
