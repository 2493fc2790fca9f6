/**
 * A server's channels as people see them: the ones outside any category first, then each
 * category with its own, every list by position. The "Channels" rail and Server
 * settings' "Order and categories" share it, so the order set in one is the order shown
 * in the other.
 */
import type { Channel, Guild } from "./types";

export const CATEGORY = 4;

export interface ChannelGroup {
  /** The category, or null for the channels outside any. */
  category: Channel | null;
  channels: Channel[];
}

const byPosition = (a: Channel, b: Channel) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id);

/** The groups; `keep` picks which channels are listed (categories are always kept). */
export function channelGroups(g: Guild, keep: (c: Channel) => boolean = () => true): ChannelGroup[] {
  const listed = g.channels.filter((c) => c.type !== CATEGORY && keep(c));
  const known = new Set(g.channels.filter((c) => c.type === CATEGORY).map((c) => c.id));
  const cats = g.channels.filter((c) => c.type === CATEGORY).sort(byPosition);
  // A channel whose category the page has not heard of yet stays listed, at the top level.
  const top = listed.filter((c) => !c.parent_id || !known.has(c.parent_id)).sort(byPosition);
  return [
    { category: null, channels: top },
    ...cats.map((cat) => ({ category: cat, channels: listed.filter((c) => c.parent_id === cat.id).sort(byPosition) })),
  ];
}
