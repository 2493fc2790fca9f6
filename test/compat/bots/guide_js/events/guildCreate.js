const { ChannelType, Events } = require('discord.js');
const report = require('../report.js');

module.exports = {
	name: Events.GuildCreate,
	async execute(guild) {
		report('guildCreate', { guild: guild.id, name: guild.name });
		const channel = guild.channels.cache.find(c => c.type === ChannelType.GuildText);
		if (channel) await channel.send(`Thanks for adding me to ${guild.name}!`);
	},
};
