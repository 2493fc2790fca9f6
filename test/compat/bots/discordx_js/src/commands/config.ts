import { ApplicationCommandOptionType, type CommandInteraction, PermissionFlagsBits } from "discord.js";
import { Discord, Guild, Slash, SlashGroup, SlashOption } from "discordx";

// @SlashGroup: `/config show`, and a nested group `/config prefix set|reset`.
const prefixes = new Map<string, string>();

@Discord()
@Guild(process.env.GUILD_ID!)
@SlashGroup({ name: "config", description: "Server settings", defaultMemberPermissions: PermissionFlagsBits.ManageGuild })
@SlashGroup({ name: "prefix", description: "The message command prefix", root: "config" })
export class Config {
  @Slash({ name: "show", description: "Show the settings" })
  @SlashGroup("config")
  async show(interaction: CommandInteraction): Promise<void> {
    await interaction.deferReply({ ephemeral: true });
    await interaction.editReply(`Prefix here: ${prefixes.get(interaction.guildId!) ?? "!"}`);
  }

  @Slash({ name: "set", description: "Set it" })
  @SlashGroup("prefix", "config")
  set(
    @SlashOption({ name: "value", description: "The prefix", type: ApplicationCommandOptionType.String, required: true, maxLength: 3 })
    value: string,
    interaction: CommandInteraction,
  ): void {
    prefixes.set(interaction.guildId!, value);
    void interaction.reply(`Prefix set to ${value}`);
  }

  @Slash({ name: "reset", description: "Back to !" })
  @SlashGroup("prefix", "config")
  reset(interaction: CommandInteraction): void {
    prefixes.delete(interaction.guildId!);
    void interaction.reply("Prefix reset to !");
  }
}
