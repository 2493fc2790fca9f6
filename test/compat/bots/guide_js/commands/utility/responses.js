// "Command response methods": every way the guide answers an interaction.
const { MessageFlags, SlashCommandBuilder } = require('discord.js');
const wait = require('node:timers/promises').setTimeout;
const report = require('../../report.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('responses')
		.setDescription('Shows the ways to respond')
		.addSubcommand(sub => sub.setName('ephemeral').setDescription('An ephemeral reply'))
		.addSubcommand(sub => sub.setName('edit').setDescription('Reply, then edit it'))
		.addSubcommand(sub => sub.setName('defer').setDescription('Think, then answer'))
		.addSubcommand(sub => sub.setName('followup').setDescription('Reply and follow up'))
		.addSubcommand(sub => sub.setName('delete').setDescription('Reply, then delete it'))
		.addSubcommand(sub => sub.setName('fetch').setDescription('Reply and fetch the reply')),
	async execute(interaction) {
		switch (interaction.options.getSubcommand()) {
			case 'ephemeral':
				await interaction.reply({ content: 'Secret Pong!', flags: MessageFlags.Ephemeral });
				break;
			case 'edit':
				await interaction.reply('Pong!');
				await wait(200);
				await interaction.editReply('Pong again!');
				break;
			case 'defer':
				await interaction.deferReply({ flags: MessageFlags.Ephemeral });
				await wait(200);
				await interaction.editReply('Pong after thinking!');
				break;
			case 'followup':
				await interaction.reply('Pong!');
				await interaction.followUp('Pong again!');
				await interaction.followUp({ content: 'Pong, but only for you!', flags: MessageFlags.Ephemeral });
				break;
			case 'delete': {
				await interaction.reply('Pong!');
				await interaction.deleteReply();
				report('deleted-reply');
				break;
			}
			case 'fetch': {
				const response = await interaction.reply({ content: 'Pong!', withResponse: true });
				const fetched = await interaction.fetchReply();
				report('fetched-reply', {
					resource: response.resource.message.id,
					fetched: fetched.id,
					content: fetched.content,
				});
				await interaction.editReply(`Pong! (message ${fetched.id})`);
				break;
			}
		}
	},
};
