const { Events, Listener } = require('@sapphire/framework');

class MessageDenied extends Listener {
	constructor(context, options) {
		super(context, { ...options, event: Events.MessageCommandDenied });
	}

	async run({ message: content }, { message }) {
		return message.reply({ content, allowedMentions: { users: [message.author.id], roles: [] } });
	}
}

module.exports = { MessageDenied };
