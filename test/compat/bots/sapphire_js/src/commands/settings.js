const { Subcommand } = require('@sapphire/plugin-subcommands');
const { PermissionFlagsBits } = require('discord.js');

// @sapphire/plugin-subcommands: `/settings show`, `/settings prefix set|reset` and the same as
// `!settings ...` message subcommands; the person needs Manage Server (a built-in precondition).
const prefixes = new Map();

class SettingsCommand extends Subcommand {
	constructor(context, options) {
		super(context, {
			...options,
			name: 'settings',
			description: 'Server settings',
			requiredUserPermissions: ['ManageGuild'],
			runIn: ['GUILD_ANY'],
			subcommands: [
				{ name: 'show', chatInputRun: 'chatInputShow', messageRun: 'messageShow', default: true },
				{
					name: 'prefix',
					type: 'group',
					entries: [
						{ name: 'set', chatInputRun: 'chatInputPrefixSet' },
						{ name: 'reset', chatInputRun: 'chatInputPrefixReset' },
					],
				},
			],
		});
	}

	registerApplicationCommands(registry) {
		registry.registerChatInputCommand(
			(b) =>
				b
					.setName(this.name)
					.setDescription(this.description)
					.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
					.addSubcommand((c) => c.setName('show').setDescription('Show the settings'))
					.addSubcommandGroup((g) =>
						g
							.setName('prefix')
							.setDescription('The message command prefix')
							.addSubcommand((c) =>
								c
									.setName('set')
									.setDescription('Set it')
									.addStringOption((o) => o.setName('value').setDescription('The prefix').setRequired(true).setMaxLength(3)),
							)
							.addSubcommand((c) => c.setName('reset').setDescription('Back to !')),
					),
			{ guildIds: [process.env.GUILD_ID] },
		);
	}

	shown(guildId) {
		return `Prefix here: ${prefixes.get(guildId) ?? '!'}`;
	}

	async chatInputShow(interaction) {
		await interaction.deferReply({ ephemeral: true });
		return interaction.editReply(this.shown(interaction.guildId));
	}

	async messageShow(message) {
		return message.reply(this.shown(message.guildId));
	}

	async chatInputPrefixSet(interaction) {
		prefixes.set(interaction.guildId, interaction.options.getString('value', true));
		return interaction.reply(`Prefix set to ${prefixes.get(interaction.guildId)}`);
	}

	async chatInputPrefixReset(interaction) {
		prefixes.delete(interaction.guildId);
		return interaction.reply('Prefix reset to !');
	}
}

module.exports = { SettingsCommand };
