// "Collectors": awaitMessages for the first right answer.
const { SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');
const quiz = [{ question: 'What color is the sky?', answers: ['blue'] }];

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('quiz')
		.setDescription('Ask a question')
		.addIntegerOption(option => option.setName('seconds').setDescription('How long to wait').setMinValue(1).setMaxValue(60)),
	async execute(interaction) {
		const item = quiz[Math.floor(Math.random() * quiz.length)];
		const time = (interaction.options.getInteger('seconds') ?? 30) * 1_000;
		const collectorFilter = response => item.answers.some(answer => answer.toLowerCase() === response.content.toLowerCase());

		await interaction.reply({ content: item.question, withResponse: true });
		try {
			const waiting = interaction.channel.awaitMessages({ filter: collectorFilter, max: 1, time, errors: ['time'] });
			// Not in the guide: tell the test the collector listens.
			report('listening', { command: 'quiz' });
			const collected = await waiting;
			await interaction.followUp(`${collected.first().author} got the correct answer!`);
		} catch {
			await interaction.followUp('Looks like nobody got the answer this time.');
		}
	},
};
