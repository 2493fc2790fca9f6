/**
 * A channel's permissions and its category's: synced when its overwrites are the
 * category's, target for target (the server's rule, core/category-sync.ts, by which a
 * synced channel follows its category's changes). "Sync permissions with <category>"
 * copies the category's list onto the channel in one request (PATCH /channels/{id} with
 * `overwrites`); a channel moved into a category may take its list with the move
 * (`lock_permissions`). Both need Manage Channels and Manage Roles in the channel.
 */
import { CATEGORY } from "../channel-groups";
import { BIT } from "../names";
import type { Channel, Guild } from "../types";
import { channelBits } from "../views/composer/rights";

type Overwrite = NonNullable<Channel["overwrites"]>[number];

const key = (o: Overwrite) => `${o.target_id}:${o.type}:${Number(o.allow)}:${Number(o.deny)}`;

/** Whether two channels' overwrites say the same thing, whatever their order. */
export function sameOverwrites(a: Channel, b: Channel): boolean {
  const x = (a.overwrites ?? []).map(key).sort();
  const y = (b.overwrites ?? []).map(key).sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/** The category a channel sits in, when the page knows it. */
export const categoryOf = (g: Guild, c: Channel | undefined): Channel | undefined =>
  c?.parent_id ? g.channels.find((x) => x.id === c.parent_id && x.type === CATEGORY) : undefined;

/** What makes a channel's overwrites its category's: the category's list, as read. */
export const syncBody = (category: Channel) => ({
  overwrites: (category.overwrites ?? []).map((o) => ({ target_id: o.target_id, type: o.type, allow: o.allow, deny: o.deny })),
});

/** Whether the person may copy a category's permissions onto this channel: Manage Channels and Manage Roles in it. */
export function maySync(c: Channel): boolean {
  const need = BIT.MANAGE_CHANNELS | BIT.MANAGE_ROLES;
  return (channelBits(c) & need) === need;
}
