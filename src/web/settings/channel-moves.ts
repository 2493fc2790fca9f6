/**
 * Where a channel dropped in "Order and categories" goes (drag.ts): on a channel's row,
 * before or after it, in that channel's list; on a category's heading, first in that
 * category; on a list's empty space, last in it. One request says it all: the list it
 * lands in, numbered from 0 in its new order, the moved channel with its new category
 * when it changes one (the server takes at most one such change a request).
 */
import type { ChannelGroup } from "../channel-groups";
import type { Channel } from "../types";
import type { DropAt } from "./drag";

/** The keys of the places to drop that are not a channel's row. */
export const headKey = (category: Channel) => `head:${category.id}`;
export const listKey = (category: Channel | null) => `list:${category?.id ?? ""}`;

export interface ChannelMovePlan {
  channel: Channel;
  /** The category it lands in (null: outside any). */
  category: Channel | null;
  /** The list it lands in, in its new order. */
  order: Channel[];
  /** Whether it changes category. */
  moves: boolean;
}

function destination(groups: ChannelGroup[], id: string, at: DropAt): { group: ChannelGroup; index: number } | null {
  const byCategory = (key: string) => groups.find((g) => (g.category?.id ?? "") === key);
  if (at.key.startsWith("head:")) {
    const group = byCategory(at.key.slice(5));
    return group ? { group, index: 0 } : null;
  }
  if (at.key.startsWith("list:")) {
    const group = byCategory(at.key.slice(5));
    return group ? { group, index: Number.POSITIVE_INFINITY } : null;
  }
  if (at.key === id) return null;
  const group = groups.find((g) => g.channels.some((c) => c.id === at.key));
  if (!group) return null;
  const index = group.channels.filter((c) => c.id !== id).findIndex((c) => c.id === at.key) + (at.after ? 1 : 0);
  return { group, index };
}

/** What dropping channel `id` at `at` does, or null when it changes nothing. */
export function planDrop(groups: ChannelGroup[], id: string, at: DropAt): ChannelMovePlan | null {
  const from = groups.find((g) => g.channels.some((c) => c.id === id));
  const to = destination(groups, id, at);
  if (!from || !to) return null;
  const channel = from.channels.find((c) => c.id === id)!;
  const order = to.group.channels.filter((c) => c.id !== id);
  order.splice(Math.min(to.index, order.length), 0, channel);
  const moves = to.group !== from;
  if (!moves && order.every((c, k) => c.id === from.channels[k].id)) return null;
  return { channel, category: to.group.category, order, moves };
}

/** The request's body (PATCH /guilds/{id}/channels); `lock`: the channel takes its new category's permissions. */
export function moveBody(plan: ChannelMovePlan, lock: boolean) {
  return plan.order.map((c, position) =>
    c.id === plan.channel.id && plan.moves
      ? { id: c.id, position, parent_id: plan.category?.id ?? null, ...(lock ? { lock_permissions: true } : {}) }
      : { id: c.id, position },
  );
}

/** The channels as they will be once the move is made, shown while the server is asked. */
export function planned(plan: ChannelMovePlan): Map<string, Partial<Channel>> {
  return new Map(
    plan.order.map((c, position) => [c.id, c.id === plan.channel.id ? { position, parent_id: plan.category?.id ?? null } : { position }]),
  );
}
