// "Autocomplete": the guide's own example.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('guide')
		.setDescription('Search discordjs.guide!')
		.addStringOption(option => option.setName('query').setDescription('Phrase to search for').setAutocomplete(true)),
	async autocomplete(interaction) {
		const focusedValue = interaction.options.getFocused();
		const choices = [
			'Popular Topics: Threads',
			'Sharding: Getting started',
			'Library: Voice Connections',
			'Interactions: Replying to slash commands',
			'Popular Topics: Embed preview',
		];
		const filtered = choices.filter(choice => choice.startsWith(focusedValue));
		await interaction.respond(filtered.map(choice => ({ name: choice, value: choice })));
	},
	async execute(interaction) {
		await interaction.reply(`You searched for: ${interaction.options.getString('query')}`);
	},
};
