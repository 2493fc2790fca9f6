// "Threads": start a thread in this channel (the server has none: spec 1.5).
const { MessageFlags, SlashCommandBuilder, ThreadAutoArchiveDuration } = require('discord.js');
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('thread').setDescription('Starts a thread'),
	async execute(interaction) {
		try {
			const thread = await interaction.channel.threads.create({
				name: 'food-talk',
				autoArchiveDuration: ThreadAutoArchiveDuration.OneHour,
				reason: 'Needed a separate thread for food',
			});
			await interaction.reply(`Created thread: ${thread.name}`);
		} catch (error) {
			report('thread-refused', { name: error.name, status: error.status, code: error.code });
			await interaction.reply({ content: `No thread: ${error.name} ${error.status}`, flags: MessageFlags.Ephemeral });
		}
	},
};
