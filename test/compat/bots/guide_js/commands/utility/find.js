// guild.members.search: members whose username or nickname starts with the text.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('find')
		.setDescription('Finds members by the start of their name')
		.addStringOption(option => option.setName('name').setDescription('The start of a name').setRequired(true)),
	async execute(interaction) {
		const found = await interaction.guild.members.search({ query: interaction.options.getString('name'), limit: 10 });
		await interaction.reply(`Found: ${[...found.values()].map(m => m.displayName).sort().join(', ') || 'nobody'}`);
	},
};
