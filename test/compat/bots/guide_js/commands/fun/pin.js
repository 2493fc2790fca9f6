// message.pin(), the channel's pins, and channel.messages.fetch with its options.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('pin')
		.setDescription('Pins the message before this one, and lists the pins')
		.addStringOption(option => option.setName('message').setDescription('The id of the message to pin').setRequired(true)),
	async execute(interaction) {
		const message = await interaction.channel.messages.fetch(interaction.options.getString('message'));
		await message.pin();
		const pins = await interaction.channel.messages.fetchPins();
		await interaction.reply(`Pinned "${message.content}". Pins: ${pins.items.map(p => p.message.content).join(' | ')}`);
	},
};
