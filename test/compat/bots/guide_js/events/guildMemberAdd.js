// "Welcome messages": greet a new member in the server's system channel.
const { Events } = require('discord.js');

module.exports = {
	name: Events.GuildMemberAdd,
	async execute(member) {
		const channel = member.guild.systemChannel;
		if (!channel) return;
		await channel.send(`Welcome to the server, ${member}!`);
	},
};
