import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  type CommandInteraction,
  type MessageActionRowComponentBuilder,
  StringSelectMenuBuilder,
  type StringSelectMenuInteraction,
} from "discord.js";
import { ButtonComponent, Discord, Guild, SelectMenuComponent, Slash, SlashOption } from "discordx";

@Discord()
@Guild(process.env.GUILD_ID!)
export class Poll {
  @Slash({ name: "poll", description: "Ask the channel a question" })
  poll(
    @SlashOption({ name: "question", description: "What to ask", type: ApplicationCommandOptionType.String, required: true })
    question: string,
    interaction: CommandInteraction,
  ): void {
    const buttons = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
      new ButtonBuilder().setCustomId("poll-yes").setLabel("Yes").setStyle(ButtonStyle.Success),
      new ButtonBuilder().setCustomId("poll-no").setLabel("No").setStyle(ButtonStyle.Danger),
    );
    const menu = new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
      new StringSelectMenuBuilder()
        .setCustomId("poll-colour")
        .setPlaceholder("Pick a colour")
        .addOptions({ label: "Red", value: "red" }, { label: "Blue", value: "blue" }),
    );
    void interaction.reply({ content: `Poll: ${question}`, components: [buttons, menu] });
  }

  // A regular expression id: both buttons land here.
  @ButtonComponent({ id: /^poll-(yes|no)$/ })
  vote(interaction: ButtonInteraction): void {
    const choice = interaction.customId.slice("poll-".length);
    void interaction.update({ content: `${interaction.message.content}\n${interaction.user.username} voted ${choice}`, components: [] });
  }

  @SelectMenuComponent({ id: "poll-colour" })
  colour(interaction: StringSelectMenuInteraction): void {
    void interaction.reply({ content: `You picked ${interaction.values.join(", ")}`, ephemeral: true });
  }
}
