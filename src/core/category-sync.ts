/**
 * A category's synced channels follow it (reference-gaps 2.6: "category edit also fires
 * one per synced child"). A channel under a category is synced when its overwrites are the
 * category's, target for target; when the category's overwrites change (PUT or DELETE of
 * one, or an edit replacing the list), every channel that was synced just before takes the
 * new list, with one channel.updated each, so "synced" stays true, as people expect from a
 * category they manage. A channel whose overwrites differ keeps them.
 *
 * No right is checked per channel: a synced channel's overwrites are the category's, so
 * the actor holds there exactly what they hold in the category, where the change was
 * checked. Each channel carried along gets the overwrite entries of its own change, after
 * the category's, with the same actor and reason, so its history tells why it changed.
 */
import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Channel, Overwrite } from "./models";
import { CHANNEL_TYPES } from "./channel-types";
import type { Audit } from "./audit";
import { auditOverwrites, type OverwriteAct } from "./overwrite-audit";

/** Whether two lists of overwrites say the same thing (same targets, same bits; order aside). */
export function sameOverwrites(a: readonly Overwrite[], b: readonly Overwrite[]): boolean {
  if (a.length !== b.length) return false;
  const byTarget = new Map(b.map((o) => [o.target_id, o]));
  return a.every((o) => {
    const x = byTarget.get(o.target_id);
    return !!x && x.target_type === o.target_type && x.allow === o.allow && x.deny === o.deny;
  });
}

/** A category's overwrites as they were, and its channels synced with them. */
export interface Synced {
  before: Overwrite[];
  ids: string[];
}

/**
 * Before a category's overwrites change: its channels synced with it now (none for a
 * channel that is not a category). Holds the server's channel layout, so no channel moves
 * in or out between this and carrySynced.
 */
export function syncedWith(d: CoreDeps, guilds: Guilds, c: Channel): Synced {
  if (c.type !== CHANNEL_TYPES.GUILD_CATEGORY || !c.guild_id) return { before: [], ids: [] };
  guilds.lockChannels(c.guild_id);
  const before = guilds.overwrites(c.id);
  const children = d.store.db.query("SELECT id FROM channels WHERE parent_id = ? ORDER BY position, id").all(c.id) as { id: string }[];
  return { before, ids: children.map((x) => x.id).filter((id) => sameOverwrites(guilds.overwrites(id), before)) };
}

/** After the category's overwrites were written: if they changed, the channels that were synced take the new list. */
export function carrySynced(d: CoreDeps, guilds: Guilds, c: Channel, synced: Synced, by: { audit: Audit; act: OverwriteAct }): void {
  if (!synced.ids.length) return;
  const now = guilds.overwrites(c.id);
  if (sameOverwrites(now, synced.before)) return;
  for (const id of synced.ids) {
    const before = guilds.overwrites(id);
    guilds.replaceOverwrites(id, now);
    auditOverwrites(by.audit, guilds, by.act, id, before, guilds.overwrites(id));
    d.store.emit({ type: "channel.updated", channelId: id, guildId: c.guild_id });
  }
}
