// "Reactions: listening for reactions on old messages": a partial reaction is fetched first.
const { Events } = require('discord.js');

module.exports = {
	name: Events.MessageReactionAdd,
	async execute(reaction, user) {
		if (reaction.partial) {
			try {
				await reaction.fetch();
			} catch (error) {
				console.error('Something went wrong when fetching the message:', error);
				return;
			}
		}
		if (reaction.message.channel.name !== 'general') return;
		const log = reaction.message.guild.channels.cache.find(channel => channel.name === 'mod-log');
		await log.send(
			`${user.username} reacted ${reaction.emoji.name} to ${reaction.message.author.username}'s message "${reaction.message.content}" (${reaction.count} so far)`,
		);
	},
};
