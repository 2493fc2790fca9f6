/**
 * What a server's (or the DMs') entry says of its channels: "Lab, 2 mentions", or
 * "Lab, unread" when something is new but nobody mentioned the person; the badge
 * shows the count. A phone's "Menu" says the same of everything behind it. Without it the unread dot had no name a screen reader could read.
 */
import { heldUnread, readStates } from "../state";
import { mutedNow } from "../notify";
import type { Channel } from "../types";

/** The open channel is read as it is looked at, unless the person marked it unread there. */
function looking(c: Channel, current: string | null): boolean {
  return c.id === current && !heldUnread.value.has(c.id);
}

function summary(channels: Channel[], current: string | null): { mentions: number; unread: boolean } {
  let mentions = 0;
  let unread = false;
  for (const c of channels) {
    const r = readStates.value[c.id];
    if (!r || looking(c, current)) continue;
    mentions += r.mention_count;
    unread ||= r.unread && !mutedNow(c).either;
  }
  return { mentions, unread };
}

/** The words after the entry's name: ", 2 mentions", ", unread" or nothing. */
export function unreadText(channels: Channel[], current: string | null): string {
  const { mentions, unread } = summary(channels, current);
  if (mentions > 0) return `, ${mentions} ${mentions === 1 ? "mention" : "mentions"}`;
  return unread ? ", unread" : "";
}

/** Whether a channel's own entry is marked unread: not while it is open (unless marked unread there), nor while it is muted. */
export function channelUnread(channel: Channel, current: string | null): boolean {
  return !looking(channel, current) && !!readStates.value[channel.id]?.unread && !mutedNow(channel).channel;
}

/** The words after a channel's name: ", unread, 1 mention", ", muted", ", muted, 1 mention" or nothing. */
export function channelText(channel: Channel, current: string | null): string {
  const mentions = looking(channel, current) ? 0 : (readStates.value[channel.id]?.mention_count ?? 0);
  const state = mutedNow(channel).channel ? ", muted" : channelUnread(channel, current) ? ", unread" : "";
  return `${state}${mentions > 0 ? `, ${mentions} ${mentions === 1 ? "mention" : "mentions"}` : ""}`;
}

/** The visible count (its words are in unreadText); `inline` beside a word, else on an icon's corner. */
export function UnreadMark({ channels, current, inline }: { channels: Channel[]; current: string | null; inline?: boolean }) {
  const { mentions } = summary(channels, current);
  if (!mentions) return null;
  return (
    <span class={inline ? "badge" : "badge server-badge"} aria-hidden="true">
      {mentions > 99 ? "99+" : mentions}
    </span>
  );
}
