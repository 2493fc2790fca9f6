const { Command } = require('@sapphire/framework');
const { ApplicationIntegrationType, ChannelType, InteractionContextType, PermissionFlagsBits } = require('discord.js');

// A guild command with an option of every value type, read back through the getters.
class EchoCommand extends Command {
	constructor(context, options) {
		super(context, { ...options, name: 'echo', description: 'Say back every option', preconditions: ['GuildOnly'] });
	}

	registerApplicationCommands(registry) {
		registry.registerChatInputCommand(
			(b) =>
				b
					.setName(this.name)
					.setDescription(this.description)
					.setDefaultMemberPermissions(PermissionFlagsBits.SendMessages)
					.setContexts(InteractionContextType.Guild)
					.setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
					.setNSFW(false)
					.addStringOption((o) =>
						o
							.setName('word')
							.setDescription('A word')
							.setRequired(true)
							.setMinLength(2)
							.setMaxLength(20)
							.setDescriptionLocalizations({ fr: 'Un mot' }),
					)
					.addIntegerOption((o) => o.setName('times').setDescription('How many').setMinValue(1).setMaxValue(5))
					.addNumberOption((o) => o.setName('ratio').setDescription('A ratio').setMinValue(0).setMaxValue(1))
					.addBooleanOption((o) => o.setName('loud').setDescription('Shout it'))
					.addUserOption((o) => o.setName('user').setDescription('Someone'))
					.addChannelOption((o) => o.setName('channel').setDescription('Somewhere').addChannelTypes(ChannelType.GuildText))
					.addRoleOption((o) => o.setName('role').setDescription('A role'))
					.addMentionableOption((o) => o.setName('who').setDescription('Someone or a role'))
					.addStringOption((o) =>
						o
							.setName('mood')
							.setDescription('A mood')
							.addChoices({ name: 'Happy', value: 'happy', name_localizations: { fr: 'Heureux' } }, { name: 'Sad', value: 'sad' }),
					),
			{ guildIds: [process.env.GUILD_ID] },
		);
	}

	async chatInputRun(interaction) {
		const o = interaction.options;
		const times = o.getInteger('times') ?? 1;
		let word = o.getString('word', true);
		if (o.getBoolean('loud')) word = word.toUpperCase();
		const parts = [Array(times).fill(word).join(' ')];
		const ratio = o.getNumber('ratio');
		if (ratio !== null) parts.push(`ratio=${ratio}`);
		const user = o.getUser('user');
		if (user) parts.push(`user=${user.username}`);
		const channel = o.getChannel('channel');
		if (channel) parts.push(`channel=#${channel.name}`);
		const role = o.getRole('role');
		if (role) parts.push(`role=@${role.name}`);
		const who = o.getMentionable('who');
		if (who) parts.push(`who=${who.user?.username ?? who.username ?? `@${who.name}`}`);
		const mood = o.getString('mood');
		if (mood) parts.push(`mood=${mood}`);
		return interaction.reply(parts.join(' '));
	}
}

module.exports = { EchoCommand };
