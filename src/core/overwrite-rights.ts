/**
 * Who may write which bits into a channel's permission overwrites (reference-gaps 1.3,
 * "Overwrite editing"), for every door that writes them: PUT and DELETE of one
 * overwrite, and channel create and edit with a list of them. Without this rule
 * MANAGE_ROLES alone lets an actor allow itself ADMINISTRATOR in a channel.
 *
 * - The owner and administrators (ADMINISTRATOR at server level) write any bit.
 * - MANAGE_ROLES in an overwrite is theirs alone: it is what lets an overwrite be edited.
 * - Anyone else changes only bits they hold, at server level or in the channel (its
 *   parent category, for a channel being made), unless MANAGE_ROLES reaches them through
 *   an overwrite of that very channel: an administrator handed them that channel.
 *
 * Only the bits whose state (allowed, denied, neither) changes are judged, so editing one
 * bit of an overwrite an administrator wrote does not need every bit it carries; removing
 * an allow or a deny is a change too.
 */
import type { Overwrite } from "./models";
import { DomainError } from "./errors";
import { ALL_PERMISSIONS, PERMISSIONS } from "./permissions";

export interface OverwriteRights {
  /** Owner, or ADMINISTRATOR at server level. */
  admin: boolean;
  /** Bits held at server level or in the channel (ADMINISTRATOR there counts as all). */
  held: number;
  /** MANAGE_ROLES reaches the actor through an overwrite of this channel. */
  viaOverwrite: boolean;
}

export interface OverwriteBits {
  allow: number;
  deny: number;
}

/** Every bit whose state an overwrite goes from `before` to `after` changes (null: no overwrite). */
export function changedBits(before: OverwriteBits | null, after: OverwriteBits | null): number {
  const b = before ?? { allow: 0, deny: 0 };
  const a = after ?? { allow: 0, deny: 0 };
  return (((b.allow ^ a.allow) | (b.deny ^ a.deny)) & ALL_PERMISSIONS) >>> 0;
}

/**
 * The bits a whole list of overwrites changes when it replaces `current`. Every entry is
 * judged, so a target listed twice (the last one is what gets written) hides nothing.
 */
export function changedByReplacing(current: Overwrite[], next: { targetId: string; allow: number; deny: number }[]): number {
  let changed = 0;
  for (const before of current) if (!next.some((o) => o.targetId === before.target_id)) changed |= changedBits(before, null);
  for (const o of next) {
    const before = current.find((c) => c.target_id === o.targetId) ?? null;
    changed |= changedBits(before, { allow: o.allow & ALL_PERMISSIONS, deny: o.deny & ALL_PERMISSIONS });
  }
  return changed >>> 0;
}

/** 403 50001 unless the actor may change these bits. */
export function requireOverwriteChange(r: OverwriteRights, changed: number): void {
  if (!changed || r.admin) return;
  if (changed & PERMISSIONS.MANAGE_ROLES)
    throw DomainError.forbidden("Missing Permissions: only administrators allow or deny Manage Roles in channel overwrites");
  if (r.viaOverwrite) return;
  if (changed & ~r.held) throw DomainError.forbidden("Missing Permissions: you cannot allow or deny permissions you do not hold");
}

/** Whether an overwrite applies to a member with these roles (@everyone's id is the guild's). */
export function appliesTo(o: Overwrite, guildId: string, userId: string, roleIds: readonly string[]): boolean {
  if (o.target_type === 1) return o.target_id === userId;
  return o.target_id === guildId || roleIds.includes(o.target_id);
}

/** A permission set with ADMINISTRATOR read as every bit (as hasPermission reads it). */
export function asHeld(perms: number): number {
  return perms & PERMISSIONS.ADMINISTRATOR ? ALL_PERMISSIONS : perms;
}
