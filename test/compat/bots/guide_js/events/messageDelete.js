// "Audit logs" (the older guide's delete logger): who deleted a message, from the audit log.
const { AuditLogEvent, Events } = require('discord.js');

module.exports = {
	name: Events.MessageDelete,
	async execute(message) {
		if (!message.guild) return;
		const log = message.guild.channels.cache.find(channel => channel.name === 'mod-log');
		if (!log || message.channelId === log.id) return;
		if (message.partial) {
			await log.send(`A message (${message.id}) was deleted, but it was not cached.`);
			return;
		}
		if (message.author.id === message.client.user.id) return;
		const fetchedLogs = await message.guild.fetchAuditLogs({ limit: 1, type: AuditLogEvent.MessageDelete });
		const deletionLog = fetchedLogs.entries.first();
		if (!deletionLog || deletionLog.target?.id !== message.author.id) {
			await log.send(`A message by ${message.author.username} was deleted: ${message.content}`);
			return;
		}
		await log.send(`A message by ${message.author.username} was deleted by ${deletionLog.executor.username}: ${message.content}`);
	},
};
