const { Listener } = require('@sapphire/framework');
const report = require('../report.js');

class ReadyListener extends Listener {
	constructor(context, options) {
		super(context, { ...options, once: true, event: 'clientReady' });
	}

	run(client) {
		this.container.logger.info(`Successfully logged in as ${client.user.username} (${client.user.id})`);
		report('ready', { user: client.user.id, guilds: [...client.guilds.cache.keys()] });
	}
}

module.exports = { ReadyListener };
