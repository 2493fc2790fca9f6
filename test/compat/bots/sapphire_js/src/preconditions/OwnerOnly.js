const { Precondition } = require('@sapphire/framework');

// The guide's OwnerOnly precondition; the owner is the server's owner here, not a hard-coded id.
class OwnerOnlyPrecondition extends Precondition {
	async messageRun(message) {
		return this.check(message.guild, message.author.id);
	}

	async chatInputRun(interaction) {
		return this.check(interaction.guild, interaction.user.id);
	}

	check(guild, userId) {
		return guild && guild.ownerId === userId ? this.ok() : this.error({ message: 'Only the server owner can use this command!' });
	}
}

module.exports = { OwnerOnlyPrecondition };
