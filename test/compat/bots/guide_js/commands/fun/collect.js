// "Collectors": a message collector that ends after three matches.
const { SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('collect').setDescription('Collect three messages that mention discord'),
	async execute(interaction) {
		await interaction.reply('Say something about discord!');
		const collectorFilter = m => m.content.includes('discord');
		const collector = interaction.channel.createMessageCollector({ filter: collectorFilter, max: 3, time: 60_000 });
		// Not in the guide: tell the test the collector listens, as a person would see the prompt.
		report('listening', { command: 'collect' });
		collector.on('collect', m => {
			console.log(`Collected ${m.content}`);
		});
		collector.on('end', collected => {
			interaction.followUp(`Collected ${collected.size} items: ${[...collected.values()].map(m => m.author.username).join(', ')}`);
		});
	},
};
