import type { CommandInteraction } from "discord.js";
import type { GuardFunction } from "discordx";

// A guard as the discordx docs write one: call next() to let the command run, or answer instead.
export const ServerOwnerOnly: GuardFunction<CommandInteraction> = async (interaction, _client, next) => {
  if (interaction.guild?.ownerId === interaction.user.id) return next();
  await interaction.reply({ content: "Only the server owner can use this command!", ephemeral: true });
};
