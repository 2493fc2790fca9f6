const { Events, Listener } = require('@sapphire/framework');

// A plain listener next to the framework's own message-command listeners: both see the message.
class GreetingListener extends Listener {
	constructor(context, options) {
		super(context, { ...options, event: Events.MessageCreate });
	}

	async run(message) {
		if (message.author.bot || !message.inGuild()) return;
		if (message.content.toLowerCase() === 'good morning') await message.react('👋');
	}
}

module.exports = { GreetingListener };
