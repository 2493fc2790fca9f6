const { Events } = require('discord.js');

module.exports = {
	name: Events.GuildMemberRemove,
	async execute(member) {
		const channel = member.guild.systemChannel;
		if (!channel) return;
		await channel.send(`${member.user.username} has left the server.`);
	},
};
