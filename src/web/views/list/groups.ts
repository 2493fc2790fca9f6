/**
 * Which messages share a header: the same author, posted within 7 minutes of the one
 * before, neither a reply nor a system notice nor a bot's answer to a command (those
 * carry their own context line above the header).
 */
import type { Message } from "../../types";

const GROUP_MS = 7 * 60_000;

export function groupedWith(m: Message, prev: Message | undefined): boolean {
  if (!prev || prev.author.id !== m.author.id) return false;
  if (m.reply_to || m.interaction?.name || m.type !== 0 || prev.type !== 0 || m.ephemeral !== prev.ephemeral) return false;
  const gap = new Date(m.created_at).getTime() - new Date(prev.created_at).getTime();
  return gap >= 0 && gap <= GROUP_MS;
}

/** The first message newer than `lastRead` ("": the log's start) that someone else wrote: where "New messages" goes. */
export function firstUnread(list: Message[], lastRead: string | null | undefined, meId: string | undefined): string | null {
  if (lastRead === null || lastRead === undefined) return null;
  return list.find((m) => m.id > lastRead && m.author.id !== meId && !m.ephemeral)?.id ?? null;
}
