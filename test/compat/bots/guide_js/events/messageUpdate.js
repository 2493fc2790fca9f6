// A message log ("Partial structures"): an edit of a message the bot never cached arrives
// partial, and the guide fetches it before reading it.
const { Events } = require('discord.js');

module.exports = {
	name: Events.MessageUpdate,
	async execute(oldMessage, newMessage) {
		if (newMessage.partial) {
			try {
				await newMessage.fetch();
			} catch (error) {
				console.error('Something went wrong when fetching the message:', error);
				return;
			}
		}
		if (newMessage.author?.bot || newMessage.author?.id === newMessage.client.user.id) return;
		const log = newMessage.guild?.channels.cache.find(channel => channel.name === 'mod-log');
		if (!log) return;
		const before = oldMessage.partial ? '(not cached)' : oldMessage.content;
		await log.send(`${newMessage.author.username} edited a message: ${before} -> ${newMessage.content}`);
	},
};
