// "Embeds: using local images" (and the canvas page's reply): a file sent with the message.
const { AttachmentBuilder, EmbedBuilder, MessageFlags, SlashCommandBuilder } = require('discord.js');
const report = require('../../report.js');

// A 1x1 PNG, where the guide reads ../assets/discordjs.png.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('card').setDescription('Sends an embed with a local image'),
	async execute(interaction) {
		const file = new AttachmentBuilder(PNG, { name: 'discordjs.png' });
		const exampleEmbed = new EmbedBuilder().setTitle('Some title').setImage('attachment://discordjs.png');
		try {
			await interaction.reply({ embeds: [exampleEmbed], files: [file] });
		} catch (error) {
			report('file-refused', { name: error.name, status: error.status, code: error.code, message: error.message });
			await interaction.reply({ content: `No file: ${error.status} ${error.code}`, flags: MessageFlags.Ephemeral });
		}
	},
};
