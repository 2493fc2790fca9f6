/**
 * What the audit log records of a channel's permission overwrites, whichever way they
 * change: PUT or DELETE of one, an edit replacing the list (bot API `permission_overwrites`,
 * people's API `overwrites`), a move with `lock_permissions`, and the synced channels a
 * category carries along (core/category-sync.ts). The reference writes one entry per
 * overwrite that changed (reference-gaps 2.5): 13 CHANNEL_OVERWRITE_CREATE with the new
 * overwrite's `id`, `type`, `allow` and `deny`; 14 CHANNEL_OVERWRITE_UPDATE with the bits
 * that changed; 15 CHANNEL_OVERWRITE_DELETE with the old ones; each targets the channel
 * and names the overwritten role or member in `options` (`type` as a string, `role_name`
 * for a role), which is how discord.js and discord.py find it.
 */
import { AUDIT, diffChanges, type Audit } from "./audit";
import type { Guilds } from "./guilds";
import type { Overwrite } from "./models";

/** Who changed a channel's overwrites, and why: shared by every entry of one act. */
export interface OverwriteAct {
  guildId: string;
  actorId: string;
  reason: string | null;
}

/** An overwrite as a change's value: the reference's overwrite object (bits as strings). */
export function overwriteValue(o: Overwrite): Record<string, unknown> {
  return { id: o.target_id, type: o.target_type, allow: String(o.allow), deny: String(o.deny) };
}

/** A channel's overwrites as CHANNEL_CREATE and CHANNEL_DELETE record them (`permission_overwrites`). */
export function overwritesValue(list: readonly Overwrite[]): Record<string, unknown>[] {
  return list.map(overwriteValue);
}

/** One entry per overwrite of `channelId` that `after` adds, changes or drops from `before`. */
export function auditOverwrites(
  audit: Audit,
  guilds: Guilds,
  act: OverwriteAct,
  channelId: string,
  before: readonly Overwrite[],
  after: readonly Overwrite[],
): void {
  const old = new Map(before.map((o) => [o.target_id, o]));
  const now = new Map(after.map((o) => [o.target_id, o]));
  const entry = (actionType: number, o: Overwrite, changes: ReturnType<typeof diffChanges>) =>
    audit.record({
      guildId: act.guildId,
      actorId: act.actorId,
      actionType,
      targetId: channelId,
      changes,
      options: overwriteOptions(guilds, act.guildId, o),
      reason: act.reason,
    });
  for (const o of after) {
    const was = old.get(o.target_id);
    if (!was) entry(AUDIT.CHANNEL_OVERWRITE_CREATE, o, diffChanges(null, overwriteValue(o)));
    else if (was.allow !== o.allow || was.deny !== o.deny)
      entry(
        AUDIT.CHANNEL_OVERWRITE_UPDATE,
        o,
        diffChanges({ allow: String(was.allow), deny: String(was.deny) }, { allow: String(o.allow), deny: String(o.deny) }),
      );
  }
  for (const o of before) if (!now.has(o.target_id)) entry(AUDIT.CHANNEL_OVERWRITE_DELETE, o, diffChanges(overwriteValue(o), null));
}

/** Reference options of overwrite entries: the overwritten id, its type as a string, the role's name. */
function overwriteOptions(guilds: Guilds, guildId: string, o: Overwrite): Record<string, unknown> {
  const out: Record<string, unknown> = { id: o.target_id, type: String(o.target_type) };
  if (o.target_type === 0) out.role_name = guilds.role(guildId, o.target_id)?.name ?? null;
  return out;
}
