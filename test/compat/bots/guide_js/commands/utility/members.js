// guild.members.fetch() (needs the privileged GuildMembers intent) and client.users.fetch().
const { SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('members')
		.setDescription('Lists the members of the server')
		.addUserOption(option => option.setName('lookup').setDescription('A user to fetch')),
	async execute(interaction) {
		await interaction.deferReply();
		let members;
		try {
			// The guide's call fetches the whole list over the gateway (op 8); the time is
			// bounded here so that the test need not wait the library's two minutes.
			members = await interaction.guild.members.fetch({ time: 5_000 });
		} catch (error) {
			// The server ignores op 8 (spec 6.1): list the members over REST instead.
			report('members-fetch-failed', { code: error.code, message: error.message });
			members = await interaction.guild.members.list({ limit: 1000 });
		}
		const names = [...members.values()].map(m => m.user.username).sort();
		const lookup = interaction.options.getUser('lookup');
		let found = '';
		if (lookup) {
			const user = await interaction.client.users.fetch(lookup.id, { force: true });
			found = `\nfetched: ${user.username} (bot: ${user.bot})`;
		}
		await interaction.editReply(`${members.size} members: ${names.join(', ')}${found}`);
	},
};
