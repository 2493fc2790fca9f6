const { Events, Listener } = require('@sapphire/framework');

// The templates' denied listeners: a refused precondition answers the person, privately.
class ChatInputDenied extends Listener {
	constructor(context, options) {
		super(context, { ...options, event: Events.ChatInputCommandDenied });
	}

	async run({ message: content }, { interaction }) {
		if (interaction.deferred || interaction.replied) return interaction.editReply({ content });
		return interaction.reply({ content, ephemeral: true });
	}
}

module.exports = { ChatInputDenied };
