const { Events } = require('discord.js');
const report = require('../report.js');

module.exports = {
	name: Events.ClientReady,
	once: true,
	execute(client) {
		console.log(`Ready! Logged in as ${client.user.tag}`);
		report('ready', { user: client.user.id, guilds: [...client.guilds.cache.keys()] });
	},
};
