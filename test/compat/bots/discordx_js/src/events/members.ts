import type { ArgsOf, Client } from "discordx";
import { Discord, On } from "discordx";

@Discord()
export class Members {
  @On({ event: "guildMemberAdd" })
  async welcome([member]: ArgsOf<"guildMemberAdd">, _client: Client): Promise<void> {
    await member.guild.systemChannel?.send(`Welcome to ${member.guild.name}, ${member}!`);
  }

  @On({ event: "messageCreate" })
  async greet([message]: ArgsOf<"messageCreate">): Promise<void> {
    if (message.author.bot || !message.inGuild()) return;
    if (message.content.toLowerCase() === "good morning") await message.react("👋");
  }
}
