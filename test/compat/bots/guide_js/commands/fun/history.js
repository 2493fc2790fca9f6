// channel.messages.fetch with its options: limit, before, after, around.
const { SlashCommandBuilder } = require('discord.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('history')
		.setDescription('Reads the channel around a message')
		.addStringOption(option => option.setName('message').setDescription('A message id').setRequired(true)),
	async execute(interaction) {
		const id = interaction.options.getString('message');
		const text = c => [...c.values()].map(m => m.content).join(',');
		const last = await interaction.channel.messages.fetch({ limit: 3, cache: false });
		const before = await interaction.channel.messages.fetch({ before: id, limit: 2 });
		const after = await interaction.channel.messages.fetch({ after: id, limit: 2 });
		const around = await interaction.channel.messages.fetch({ around: id, limit: 3 });
		await interaction.reply(`last: ${text(last)}\nbefore: ${text(before)}\nafter: ${text(after)}\naround: ${text(around)}`);
	},
};
