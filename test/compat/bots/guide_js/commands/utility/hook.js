// "Webhooks": make one, send through it with another name, edit that message, list, delete.
const { EmbedBuilder, PermissionFlagsBits, SlashCommandBuilder, WebhookClient } = require('discord.js');
const { api } = require('../../config.js');

module.exports = {
	cooldown: 0,
	data: new SlashCommandBuilder()
		.setName('hook')
		.setDescription('Speaks through a webhook')
		.setDefaultMemberPermissions(PermissionFlagsBits.ManageWebhooks),
	async execute(interaction) {
		await interaction.deferReply();
		const webhook = await interaction.channel.createWebhook({ name: 'Some-username' });
		// The guide builds the client from the webhook's URL; that URL names the reference's
		// host, so here it is built from its id and token, with the REST base the bot uses.
		const webhookClient = new WebhookClient({ id: webhook.id, token: webhook.token }, { rest: { api } });
		const embed = new EmbedBuilder().setTitle('Some Title').setColor(0x00ffff);
		const sent = await webhookClient.send({ content: 'Webhook test', username: 'some-username', embeds: [embed] });
		await webhookClient.editMessage(sent.id, { content: 'Webhook test (edited)' });
		const hooks = await interaction.channel.fetchWebhooks();
		await webhook.delete('done');
		await interaction.editReply(`Sent ${sent.id} as ${sent.author.username}; ${hooks.size} webhook(s) here, now deleted.`);
	},
};
