/**
 * The one content-visibility rule (spec 5.9), for REST and the gateway alike: without
 * MESSAGE_CONTENT, content, embeds, components and attachments of server messages are
 * withheld. REST judges by the token's intents and the gateway by IDENTIFY's (spec 5.7);
 * the rule is the same. DMs are not server messages.
 *
 * A bot's own messages are the one exemption: there is nothing to withhold from their
 * author, and discord.js caches the gateway echo of a sent message before the POST
 * answer, so a stripped echo would make `await channel.send("x")` resolve to a message
 * without its content. Messages that mention the bot stay gated (the reference exempts
 * them; the spec names no exemption and wins where the two differ).
 */
import { INTENTS } from "../core/permissions";

export interface ContentViewer {
  botUserId: string;
  intents: number;
}

export interface ContentSubject {
  authorId: string;
  webhookId: string | null;
  guildId: string | null;
}

export function contentVisible(viewer: ContentViewer, m: ContentSubject): boolean {
  if (viewer.intents & INTENTS.MESSAGE_CONTENT) return true;
  if (m.authorId === viewer.botUserId && !m.webhookId) return true;
  return m.guildId === null;
}
