// "Modals": show a modal with two text inputs.
const { ActionRowBuilder, MessageFlags, ModalBuilder, SlashCommandBuilder, TextInputBuilder, TextInputStyle } = require('discord.js');
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('feedback').setDescription('Tell us what you think'),
	async execute(interaction) {
		const modal = new ModalBuilder().setCustomId('myModal').setTitle('My Modal');
		const favoriteColorInput = new TextInputBuilder()
			.setCustomId('favoriteColorInput')
			.setLabel("What's your favorite color?")
			.setStyle(TextInputStyle.Short);
		const hobbiesInput = new TextInputBuilder()
			.setCustomId('hobbiesInput')
			.setLabel("What's some of your favorite hobbies?")
			.setStyle(TextInputStyle.Paragraph);
		modal.addComponents(
			new ActionRowBuilder().addComponents(favoriteColorInput),
			new ActionRowBuilder().addComponents(hobbiesInput),
		);
		try {
			await interaction.showModal(modal);
		} catch (error) {
			// Not in the guide: the server has no modals (spec 3.1), so say what it answered.
			// @discordjs/rest retries a 5xx and then raises an HTTPError, which keeps no body.
			report('modal-refused', { name: error.name, status: error.status, code: error.code, message: error.message });
			await interaction.reply({ content: `No modal: ${error.name} ${error.status}`, flags: MessageFlags.Ephemeral });
		}
	},
};
