// "Embeds": the guide's example embed with every field, then an edit of it (EmbedBuilder.from).
const { EmbedBuilder, SlashCommandBuilder } = require('discord.js');
const wait = require('node:timers/promises').setTimeout;

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder().setName('embed').setDescription('Sends an embed'),
	async execute(interaction) {
		const exampleEmbed = new EmbedBuilder()
			.setColor(0x0099ff)
			.setTitle('Some title')
			.setURL('https://discord.js.org/')
			.setAuthor({ name: 'Some name', iconURL: 'https://i.imgur.com/AfFp7pu.png', url: 'https://discord.js.org' })
			.setDescription('Some description here')
			.setThumbnail('https://i.imgur.com/AfFp7pu.png')
			.addFields(
				{ name: 'Regular field title', value: 'Some value here' },
				{ name: '\u200B', value: '\u200B' },
				{ name: 'Inline field title', value: 'Some value here', inline: true },
				{ name: 'Inline field title', value: 'Some value here', inline: true },
			)
			.addFields({ name: 'Inline field title', value: 'Some value here', inline: true })
			.setImage('https://i.imgur.com/AfFp7pu.png')
			.setTimestamp(new Date('2026-01-02T03:04:05.000Z'))
			.setFooter({ text: 'Some footer text here', iconURL: 'https://i.imgur.com/AfFp7pu.png' });

		await interaction.reply('Here it comes:');
		const message = await interaction.channel.send({ embeds: [exampleEmbed] });
		await wait(100);
		const receivedEmbed = message.embeds[0];
		const edited = EmbedBuilder.from(receivedEmbed).setTitle('New title').setColor(0xff0000);
		await message.edit({ embeds: [edited] });
	},
};
