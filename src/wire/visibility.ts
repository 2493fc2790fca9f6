/**
 * The one content-visibility rule (spec 5.9), for REST and the gateway alike: without
 * MESSAGE_CONTENT, content, embeds, components and attachments of server messages are
 * withheld; the envelope (ids, author, timestamps, mentions) is not. REST judges by the
 * token's intents and the gateway by IDENTIFY's (spec 5.7); the rule is the same. DMs
 * are not server messages.
 *
 * Exempt, as on the reference (the spec says what the intent gates, reference-gaps and
 * the reference's intent documentation say what it never gates; see docs/messages.md):
 * - a bot's own messages: there is nothing to withhold from their author, and
 *   discord.js caches the gateway echo of a sent message before the POST answer, so a
 *   stripped echo would make `await channel.send("x")` resolve without its content;
 * - messages that mention the bot (it is in their `mentions`, a reply to it included):
 *   bots whose prefix is their own mention work without the privileged intent.
 */
import { INTENTS, type MessageModel } from "../core";

export interface ContentViewer {
  botUserId: string;
  intents: number;
}

export interface ContentSubject {
  authorId: string;
  webhookId: string | null;
  guildId: string | null;
  /** User ids the message mentions. */
  mentions: readonly string[];
}

export function contentVisible(viewer: ContentViewer, m: ContentSubject): boolean {
  if (viewer.intents & INTENTS.MESSAGE_CONTENT) return true;
  if (m.guildId === null) return true;
  if (m.authorId === viewer.botUserId && !m.webhookId) return true;
  return m.mentions.includes(viewer.botUserId);
}

/** The subject of the rule for a message's read model. */
export function contentSubject(m: MessageModel): ContentSubject {
  return {
    authorId: m.message.author_id,
    webhookId: m.message.webhook_id,
    guildId: m.channel?.guild_id ?? null,
    mentions: m.mentions.map((u) => u.id),
  };
}

export interface MessageView {
  content: boolean;
  referencedContent: boolean;
}

/**
 * What a viewer may read of a message and of the message it replies to: each judged by
 * the rule on its own subject, so replying to a message never reveals it.
 */
export function messageVisibility(viewer: ContentViewer | null, m: MessageModel): MessageView {
  const slot = visibilitySlots(m)(viewer);
  return { content: (slot & 1) !== 0, referencedContent: (slot & 2) !== 0 };
}

/**
 * The rule as a number, for the gateway's fan-out, which asks it of every session and
 * keeps one serialization per answer: bit 1 the message's content, bit 2 the content of
 * the message it replies to.
 */
export function visibilitySlots(m: MessageModel): (viewer: ContentViewer | null) => number {
  const own = contentSubject(m);
  const referenced = m.referenced ? contentSubject(m.referenced) : null;
  return (viewer) =>
    viewer === null ? 3 : (contentVisible(viewer, own) ? 1 : 0) | (referenced !== null && contentVisible(viewer, referenced) ? 2 : 0);
}

/**
 * The users whose view of a message may differ from that of another viewer with the same
 * intents: those the rule names (the author, the users mentioned, in the message and in
 * the one it replies to). Every other viewer's view follows from their intents alone.
 */
export function namedViewers(m: MessageModel): string[] {
  const out: string[] = [];
  for (const subject of m.referenced ? [contentSubject(m), contentSubject(m.referenced)] : [contentSubject(m)]) {
    if (subject.guildId === null) continue;
    if (!subject.webhookId) out.push(subject.authorId);
    out.push(...subject.mentions);
  }
  return out;
}
