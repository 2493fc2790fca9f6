// "Select menus" and "Component interactions": a string select, answered through a collector.
const {
	ActionRowBuilder,
	ComponentType,
	SlashCommandBuilder,
	StringSelectMenuBuilder,
	StringSelectMenuOptionBuilder,
} = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('pet').setDescription('Choose your starter'),
	async execute(interaction) {
		const select = new StringSelectMenuBuilder()
			.setCustomId('starter')
			.setPlaceholder('Make a selection!')
			.addOptions(
				new StringSelectMenuOptionBuilder().setLabel('Bulbasaur').setDescription('The dual-type Grass/Poison Seed Pokémon.').setValue('bulbasaur'),
				new StringSelectMenuOptionBuilder().setLabel('Charmander').setDescription('The Fire-type Lizard Pokémon.').setValue('charmander'),
				new StringSelectMenuOptionBuilder().setLabel('Squirtle').setDescription('The Water-type Tiny Turtle Pokémon.').setValue('squirtle'),
			);
		const row = new ActionRowBuilder().addComponents(select);
		const response = await interaction.reply({ content: 'Choose your starter!', components: [row], withResponse: true });

		const collector = response.resource.message.createMessageComponentCollector({
			componentType: ComponentType.StringSelect,
			time: 3_600_000,
		});
		collector.on('collect', async i => {
			const selection = i.values[0];
			if (selection === 'squirtle') {
				// "deferUpdate", then an edit of the message the menu sits on.
				await i.deferUpdate();
				await i.editReply({ content: `${i.user.username} picked Squirtle; the choice is closed.`, components: [] });
				collector.stop('chosen');
				return;
			}
			await i.reply(`${i.user} has selected ${selection}!`);
		});
	},
};
