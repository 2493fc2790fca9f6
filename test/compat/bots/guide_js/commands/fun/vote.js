// "Reactions": react in order, then awaitReactions from the person who asked, and a
// reaction collector counting everyone's 👍.
const { SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('vote').setDescription('Thumbs up or down?'),
	async execute(interaction) {
		const response = await interaction.reply({ content: 'Awaiting your vote!', withResponse: true });
		const message = response.resource.message;
		await message.react('👍');
		await message.react('👎');

		const counted = [];
		const collector = message.createReactionCollector({
			filter: (reaction, user) => reaction.emoji.name === '👍' && !user.bot,
			time: 60_000,
		});
		collector.on('collect', (reaction, user) => counted.push(user.username));

		const collectorFilter = (reaction, user) => ['👍', '👎'].includes(reaction.emoji.name) && user.id === interaction.user.id;
		try {
			const waiting = message.awaitReactions({ filter: collectorFilter, max: 1, time: 60_000, errors: ['time'] });
			// Not in the guide: tell the test the collectors listen.
			report('listening', { command: 'vote' });
			const collected = await waiting;
			const reaction = collected.first();
			collector.stop();
			if (reaction.emoji.name === '👍') {
				await message.reply(`You reacted with a thumbs up. Thumbs up so far: ${counted.join(', ')}`);
			} else {
				await message.reply(`You reacted with a thumbs down. Thumbs up so far: ${counted.join(', ')}`);
			}
		} catch {
			await message.reply('You reacted with neither a thumbs up, nor a thumbs down.');
		}
	},
};
