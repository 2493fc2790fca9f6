// "Component interactions": a collector on the reply's buttons, with the guide's check that
// the clicker is the one who asked, update() for each click, and an ephemeral confirm whose
// awaitMessageComponent runs out of time.
const { ActionRowBuilder, ButtonBuilder, ButtonStyle, ComponentType, MessageFlags, SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');

const row = (count, disabled = false) =>
	new ActionRowBuilder().addComponents(
		new ButtonBuilder().setCustomId('plus').setLabel(`+1 (${count})`).setStyle(ButtonStyle.Primary).setDisabled(disabled),
		new ButtonBuilder().setCustomId('stop').setLabel('Stop').setStyle(ButtonStyle.Danger).setDisabled(disabled),
	);

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('counter')
		.setDescription('Counts clicks')
		.addBooleanOption(option => option.setName('secret').setDescription('An ephemeral confirm that nobody answers')),
	async execute(interaction) {
		if (interaction.options.getBoolean('secret')) {
			const response = await interaction.reply({
				content: 'Really?',
				components: [row(0)],
				flags: MessageFlags.Ephemeral,
				withResponse: true,
			});
			report('listening', { command: 'counter', message: response.resource.message.id });
			try {
				await response.resource.message.awaitMessageComponent({ filter: i => i.user.id === interaction.user.id, time: 1_000 });
			} catch {
				await interaction.editReply({ content: 'Confirmation not received within 1 second, cancelling', components: [] });
			}
			return;
		}
		let count = 0;
		const response = await interaction.reply({ content: 'Count: 0', components: [row(count)], withResponse: true });
		const collector = response.resource.message.createMessageComponentCollector({ componentType: ComponentType.Button, time: 60_000 });
		report('listening', { command: 'counter', message: response.resource.message.id });
		collector.on('collect', async i => {
			if (i.user.id !== interaction.user.id) {
				return i.reply({ content: "These buttons aren't for you!", flags: MessageFlags.Ephemeral });
			}
			if (i.customId === 'stop') {
				collector.stop('stopped');
				await i.deferUpdate();
				return;
			}
			count++;
			await i.update({ content: `Count: ${count}`, components: [row(count)] });
		});
		collector.on('end', async (collected, reason) => {
			await interaction.editReply({ content: `Final count: ${count} (${reason}, ${collected.size} clicks)`, components: [row(count, true)] });
		});
	},
};
