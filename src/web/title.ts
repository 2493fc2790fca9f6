/** The tab's title: the open channel, after the unread mention count: "(3) #general · Parley". */
import { useEffect } from "preact/hooks";
import { dms, guilds, readStates } from "./state";

/**
 * Mentions waiting in the channels the person still has: a channel deleted, hidden from
 * them, or of a server they left keeps its read state here, but nothing to open and read.
 */
export function unreadMentions(): number {
  const have = new Set([...guilds.value.flatMap((g) => g.channels.map((c) => c.id)), ...dms.value.map((c) => c.id)]);
  return Object.values(readStates.value).reduce((n, r) => n + (have.has(r.channel_id) ? r.mention_count : 0), 0);
}

export function useTabTitle(base: string): void {
  const n = unreadMentions();
  useEffect(() => {
    document.title = n > 0 ? `(${n}) ${base}` : base;
  }, [base, n]);
}
