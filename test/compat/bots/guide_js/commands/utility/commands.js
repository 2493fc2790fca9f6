// The application's global commands, as client.application.commands.fetch() sees them.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('commands').setDescription('Lists the global commands'),
	async execute(interaction) {
		const global = await interaction.client.application.commands.fetch();
		const here = await interaction.guild.commands.fetch();
		await interaction.reply(`global: ${[...global.values()].map(c => c.name).sort().join(', ')}\nhere: ${here.size}`);
	},
};
