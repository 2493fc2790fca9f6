const { Events, Listener } = require('@sapphire/framework');

class WelcomeListener extends Listener {
	constructor(context, options) {
		super(context, { ...options, event: Events.GuildMemberAdd });
	}

	async run(member) {
		const channel = member.guild.systemChannel;
		if (channel) await channel.send(`Welcome to ${member.guild.name}, ${member}!`);
	}
}

module.exports = { WelcomeListener };
