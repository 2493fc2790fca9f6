// "Reactions": unicode emoji in order, and a custom emoji of the server when it has one.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('fruits').setDescription('Reacts with fruits'),
	async execute(interaction) {
		const response = await interaction.reply({ content: 'Reacting with fruits!', withResponse: true });
		const message = response.resource.message;
		try {
			await message.react('🍎');
			await message.react('🍊');
			await message.react('🍇');
			const emoji = interaction.guild.emojis.cache.find(e => e.name === 'blobreach');
			if (emoji) await message.react(emoji);
			// "Removing reactions": the bot takes its 🍊 back.
			await message.reactions.cache.get('🍊').users.remove(interaction.client.user.id);
			const users = await message.reactions.cache.get('🍎').users.fetch();
			await interaction.followUp(`Reacted; 🍎 by ${[...users.values()].map(u => u.username).join(', ')}`);
		} catch (error) {
			console.error('One of the emojis failed to react:', error);
			await interaction.followUp(`A reaction failed: ${error.code}`);
		}
	},
};
