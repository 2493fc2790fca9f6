import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type CommandInteraction,
  GuildMember,
  PermissionFlagsBits,
  type User,
  type UserContextMenuCommandInteraction,
} from "discord.js";
import { ContextMenu, Discord, Guard, Guild, SimpleCommand, type SimpleCommandMessage, Slash, SlashChoice, SlashOption } from "discordx";
import { ServerOwnerOnly } from "../guards/owner.js";

// Global: no @Guild, so initApplicationCommands puts it with the application's global commands.
@Discord()
export class Global {
  @Slash({
    name: "hello",
    description: "Say hello",
    nameLocalizations: { fr: "bonjour" },
    descriptionLocalizations: { fr: "Dire bonjour" },
  })
  hello(interaction: CommandInteraction): void {
    void interaction.reply(`Hello, ${interaction.user.username}!`);
  }

  @SimpleCommand({ name: "ping", aliases: ["p"] })
  ping(command: SimpleCommandMessage): void {
    void command.message.reply(`Pong, ${command.message.author.username}!`);
  }
}

@Discord()
@Guild(process.env.GUILD_ID!)
export class Basics {
  @Slash({ name: "echo", description: "Say back every option" })
  echo(
    @SlashOption({
      name: "word",
      description: "A word",
      type: ApplicationCommandOptionType.String,
      required: true,
      minLength: 2,
      maxLength: 20,
    })
    word: string,
    @SlashOption({ name: "times", description: "How many", type: ApplicationCommandOptionType.Integer, minValue: 1, maxValue: 5 })
    times: number | undefined,
    @SlashOption({ name: "ratio", description: "A ratio", type: ApplicationCommandOptionType.Number })
    ratio: number | undefined,
    @SlashOption({ name: "loud", description: "Shout it", type: ApplicationCommandOptionType.Boolean })
    loud: boolean | undefined,
    @SlashOption({ name: "user", description: "Someone", type: ApplicationCommandOptionType.User })
    user: GuildMember | User | undefined,
    @SlashOption({ name: "channel", description: "Somewhere", type: ApplicationCommandOptionType.Channel })
    channel: { name: string } | undefined,
    @SlashOption({ name: "role", description: "A role", type: ApplicationCommandOptionType.Role })
    role: { name: string } | undefined,
    @SlashChoice({ name: "Happy", value: "happy" }, { name: "Sad", value: "sad" })
    @SlashOption({ name: "mood", description: "A mood", type: ApplicationCommandOptionType.String })
    mood: string | undefined,
    interaction: CommandInteraction,
  ): void {
    const said = Array(times ?? 1)
      .fill(loud ? word.toUpperCase() : word)
      .join(" ");
    const parts = [said];
    if (ratio !== undefined) parts.push(`ratio=${ratio}`);
    // In a server discordx hands over the member (from the interaction's resolved members).
    if (user) parts.push(`user=${user instanceof GuildMember ? `member ${user.user.username}` : user.username}`);
    if (channel) parts.push(`channel=#${channel.name}`);
    if (role) parts.push(`role=@${role.name}`);
    if (mood) parts.push(`mood=${mood}`);
    void interaction.reply(parts.join(" "));
  }

  @Slash({ name: "vault", description: "Open the vault", defaultMemberPermissions: PermissionFlagsBits.SendMessages })
  @Guard(ServerOwnerOnly)
  vault(interaction: CommandInteraction): void {
    void interaction.reply({ content: "The vault is open.", ephemeral: true });
  }

  @ContextMenu({ name: "Profile", type: ApplicationCommandType.User })
  profile(interaction: UserContextMenuCommandInteraction): void {
    void interaction.reply({ content: `${interaction.targetUser.username} is a member here.`, ephemeral: true });
  }
}
