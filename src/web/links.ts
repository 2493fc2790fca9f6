/**
 * Links to messages: `/channels/{server}/{channel}/{message}` (what "Copy link" copies).
 * Opening one opens the channel, reads history back until the message is loaded, scrolls
 * to it, focuses it and marks it (`aria-current`) until another link is followed.
 */
import { signal } from "@preact/signals";
import { api } from "./api";
import { loadOlder, open } from "./load";
import { copyAndSay, logs, showNotice } from "./state";
import type { Message } from "./types";

/** The message a followed link points at. */
export const linked = signal<string | null>(null);

/** How far back a link reads: 40 pages of 50. */
const MAX_PAGES = 40;

export function messageLink(guildId: string | null, channelId: string, messageId: string): string {
  return `${location.origin}/channels/${guildId ?? "@me"}/${channelId}/${messageId}`;
}

/** The link the page was opened with, read once at start: the chat's first load follows it, once. */
let startLink = /^\/channels\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(location.pathname);

export async function followStartLink(): Promise<void> {
  const l = startLink;
  startLink = null;
  if (l) await jumpTo(l[1], l[2], l[3]);
}

/** Open the channel and show the message, marked. */
export async function jumpTo(guildId: string, channelId: string, messageId: string): Promise<void> {
  await open({ guild: guildId, channel: channelId });
  const has = () => logs.value[channelId]?.list.some((m) => m.id === messageId) ?? false;
  for (let i = 0; i < MAX_PAGES && !has() && !logs.value[channelId]?.complete; i++) await loadOlder(channelId);
  if (!has()) {
    showNotice("That message is gone, or too far back to show.");
    return;
  }
  linked.value = messageId;
  // Once the list has drawn it. Focus goes to it too: a keyboard or screen-reader user
  // who followed the link (or Jump in a dialog that has just closed) reads on from there.
  requestAnimationFrame(() => {
    const article = document.getElementById(`a-${messageId}`)?.closest("article");
    article?.scrollIntoView({ block: "center" });
    article?.focus({ preventScroll: true });
    // The log learns where the reader now is at once (list/follow.tsx), even when the
    // message was in view already and nothing scrolled.
    article?.closest("[role=log]")?.dispatchEvent(new Event("scroll"));
  });
}

/**
 * A reply's original, shown as a link's message is. Not loaded, the people's API says
 * first whether it is still there (`around` it, one message: itself, or an older one when
 * it was deleted), so a deleted one is told apart from one further back than the history
 * read so far, which is then read back to it. False: it was deleted.
 */
export async function showOriginal(guildId: string | null, channelId: string, messageId: string): Promise<boolean> {
  if (!logs.value[channelId]?.list.some((m) => m.id === messageId)) {
    try {
      const near = await api<Message[]>("GET", `/channels/${channelId}/messages?around=${messageId}&limit=1`);
      if (near[0]?.id !== messageId) return false;
    } catch {
      showNotice("That message could not be shown.");
      return true;
    }
  }
  await jumpTo(guildId ?? "@me", channelId, messageId);
  return true;
}

export function copyLink(guildId: string | null, channelId: string, messageId: string): Promise<void> {
  return copyAndSay(messageLink(guildId, channelId, messageId), "Link copied.", "The browser did not let the page copy the link.");
}
