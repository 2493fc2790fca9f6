const { InteractionHandler, InteractionHandlerTypes } = require('@sapphire/framework');

class PollColourHandler extends InteractionHandler {
	constructor(context, options) {
		super(context, { ...options, interactionHandlerType: InteractionHandlerTypes.SelectMenu });
	}

	parse(interaction) {
		return interaction.customId === 'poll-colour' ? this.some() : this.none();
	}

	async run(interaction) {
		return interaction.reply({ content: `You picked ${interaction.values.join(', ')}`, ephemeral: true });
	}
}

module.exports = { PollColourHandler };
