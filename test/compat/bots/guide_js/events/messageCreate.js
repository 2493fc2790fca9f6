// A prefix command, as the guide's early pages have them: message.reply, edit and delete.
const { Events } = require('discord.js');
const wait = require('node:timers/promises').setTimeout;

module.exports = {
	name: Events.MessageCreate,
	async execute(message) {
		if (message.author.bot) return;
		if (message.content === '!ping') {
			const reply = await message.reply('Pong!');
			await wait(100);
			await reply.edit('Pong! (edited)');
		} else if (message.content === '!oops') {
			const reply = await message.reply('This will be gone soon.');
			await wait(100);
			await reply.delete();
			await message.channel.send('Deleted my reply.');
		}
	},
};
