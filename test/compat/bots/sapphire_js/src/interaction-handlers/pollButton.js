const { InteractionHandler, InteractionHandlerTypes } = require('@sapphire/framework');

// The guide's button handler: parse() picks the buttons it owns and hands run() the choice.
class PollButtonHandler extends InteractionHandler {
	constructor(context, options) {
		super(context, { ...options, interactionHandlerType: InteractionHandlerTypes.Button });
	}

	parse(interaction) {
		if (!interaction.customId.startsWith('poll:')) return this.none();
		return this.some(interaction.customId.slice('poll:'.length));
	}

	async run(interaction, choice) {
		return interaction.update({ content: `${interaction.message.content}\n${interaction.user.username} voted ${choice}`, components: [] });
	}
}

module.exports = { PollButtonHandler };
