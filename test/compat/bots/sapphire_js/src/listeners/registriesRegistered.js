const { Events, Listener } = require('@sapphire/framework');
const report = require('../report.js');

// Fires once every command's registry has fetched, compared, and created or edited its commands.
class RegistriesListener extends Listener {
	constructor(context, options) {
		super(context, { ...options, once: true, event: Events.ApplicationCommandRegistriesRegistered });
	}

	run(registries) {
		report('registered', { commands: [...registries.keys()].sort() });
	}
}

module.exports = { RegistriesListener };
