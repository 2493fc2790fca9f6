/**
 * A server's channels moved around at once (`PATCH /guilds/{id}/channels` on both APIs,
 * reference-gaps 2.1): each listed channel takes the position asked, and may move into a
 * category or out of one; channels not listed keep theirs. At most one entry may change
 * its parent (else 400 40009). Rights: MANAGE_CHANNELS in every channel that changes, and
 * in the category it moves to; `lock_permissions` (take the new category's overwrites)
 * needs MANAGE_ROLES and may write only bits the actor may (core/overwrite-rights.ts).
 * Each channel that changed fires channel.updated (bots: CHANNEL_UPDATE) and gets an
 * audit entry (CHANNEL_UPDATE, 11) with its old and new position and parent; a lock that
 * changed its overwrites adds one entry per overwrite (13, 14, 15: core/overwrite-audit.ts).
 */
import type { CoreDeps } from "./deps";
import type { Channel, Overwrite } from "./models";
import type { Guilds } from "./guilds";
import { AUDIT, diffChanges, type Audit } from "./audit";
import { DomainError } from "./errors";
import { hasPermission, PERMISSIONS } from "./permissions";
import { changedByReplacing, requireOverwriteChange, type OverwriteRights } from "./overwrite-rights";
import { CHANNEL_TYPES } from "./channel-types";
import { auditOverwrites } from "./overwrite-audit";

export interface ChannelMove {
  /** Internal id; null for an id that names no channel (reported by index). */
  channelId: string | null;
  position?: number | null;
  /** Absent: the parent stays; null: out of any category; an id: into that category. */
  parentId?: string | null;
  /** With a new parent: take its permission overwrites. */
  lockPermissions?: boolean | null;
}

export interface OrderDeps {
  d: CoreDeps;
  guilds: Guilds;
  audit: Audit;
  /** What the actor may write into a channel's overwrites (Channels.rightsIn). */
  rights(guildId: string, actorId: string, channelId: string): OverwriteRights;
}

interface Planned {
  before: Channel;
  position: number;
  parentId: string | null;
  overwrites: Overwrite[] | null;
}

/** Move channels; answers the guild's channels as they are now. Checks everything before it writes anything. */
export function reorderChannels(o: OrderDeps, actorId: string, guildId: string, moves: ChannelMove[], reason: string | null): Channel[] {
  return o.d.store.write(() => {
    const { guilds } = o;
    if (!guilds.get(guildId) || !guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    if (!hasPermission(guilds.permissions(guildId, actorId), PERMISSIONS.MANAGE_CHANNELS)) throw DomainError.forbidden();
    // One move at a time per server on every node, planned from the rows as committed (not the memo).
    guilds.lockChannels(guildId);
    const plan = planMoves(o, actorId, guildId, moves);
    for (const p of plan) apply(o, actorId, guildId, p, reason);
    return guilds.channels(guildId);
  });
}

function planMoves(o: OrderDeps, actorId: string, guildId: string, moves: ChannelMove[]): Planned[] {
  const { guilds } = o;
  const rows = new Map(guilds.channels(guildId).map((c) => [c.id, c]));
  const seen = new Set<string>();
  const plan: Planned[] = [];
  let parentChanges = 0;
  moves.forEach((m, i) => {
    const c = m.channelId ? rows.get(m.channelId) : undefined;
    if (!c || c.guild_id !== guildId) throw DomainError.invalid(`[${i}].id`, "Unknown channel", "CHANNEL_INVALID");
    if (seen.has(c.id)) throw DomainError.invalid(`[${i}].id`, "A channel may be listed once", "CHANNEL_DUPLICATE");
    seen.add(c.id);
    const position = m.position ?? c.position;
    if (!Number.isInteger(position) || position < 0) throw DomainError.invalid(`[${i}].position`, "Must be 0 or more.", "NUMBER_TYPE_MIN");
    const parentId = m.parentId === undefined ? c.parent_id : m.parentId;
    let overwrites: Overwrite[] | null = null;
    if (parentId !== c.parent_id) {
      parentChanges++;
      if (parentId !== null) checkParent(rows.get(parentId), guildId, c, `[${i}].parent_id`);
      if (m.lockPermissions && parentId !== null) overwrites = guilds.overwrites(parentId).map((x) => ({ ...x, channel_id: c.id }));
    }
    if (position !== c.position || parentId !== c.parent_id) plan.push({ before: c, position, parentId, overwrites });
  });
  if (parentChanges > 1) throw new DomainError("parent_limit", "Only one channel may change parent_id per request");
  for (const p of plan) requireRights(o, actorId, guildId, p);
  return plan;
}

/** MANAGE_CHANNELS in the channel and in the category it moves to; for a lock, MANAGE_ROLES and the overwrite bits. */
function requireRights(o: OrderDeps, actorId: string, guildId: string, p: Planned): void {
  const { guilds } = o;
  guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_CHANNELS, p.before.id);
  if (p.parentId !== p.before.parent_id && p.parentId !== null)
    guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_CHANNELS, p.parentId);
  if (p.overwrites) {
    guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_ROLES, p.before.id);
    const next = p.overwrites.map((x) => ({ targetId: x.target_id, allow: x.allow, deny: x.deny }));
    requireOverwriteChange(o.rights(guildId, actorId, p.before.id), changedByReplacing(guilds.overwrites(p.before.id), next));
  }
}

function apply(o: OrderDeps, actorId: string, guildId: string, p: Planned, reason: string | null): void {
  const db = o.d.store.db;
  db.query("UPDATE channels SET position = ?, parent_id = ? WHERE id = ?").run(p.position, p.parentId, p.before.id);
  const overwritesBefore = p.overwrites ? o.guilds.overwrites(p.before.id) : [];
  if (p.overwrites) o.guilds.replaceOverwrites(p.before.id, p.overwrites);
  o.d.store.emit({ type: "channel.updated", channelId: p.before.id, guildId });
  const changes = diffChanges(
    { position: p.before.position, parent_id: p.before.parent_id },
    { position: p.position, parent_id: p.parentId },
  );
  o.audit.record({ guildId, actorId, actionType: AUDIT.CHANNEL_UPDATE, targetId: p.before.id, changes, reason });
  if (p.overwrites)
    auditOverwrites(o.audit, o.guilds, { guildId, actorId, reason }, p.before.id, overwritesBefore, o.guilds.overwrites(p.before.id));
}

function checkParent(parent: Channel | undefined, guildId: string, c: Channel, path: string): void {
  if (
    !parent ||
    parent.guild_id !== guildId ||
    parent.type !== CHANNEL_TYPES.GUILD_CATEGORY ||
    parent.id === c.id ||
    c.type === CHANNEL_TYPES.GUILD_CATEGORY
  )
    throw DomainError.invalid(path, "Not a category channel of this server", "CHANNEL_PARENT_INVALID");
}
