// user.send: a direct message from the bot.
const { MessageFlags, SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('dm')
		.setDescription('Sends someone a direct message')
		.addUserOption(option => option.setName('target').setDescription('Who').setRequired(true))
		.addStringOption(option => option.setName('text').setDescription('What').setRequired(true)),
	async execute(interaction) {
		const user = interaction.options.getUser('target');
		const sent = await user.send(interaction.options.getString('text'));
		await interaction.reply({ content: `Sent to ${user.username} in ${sent.channelId}`, flags: MessageFlags.Ephemeral });
	},
};
