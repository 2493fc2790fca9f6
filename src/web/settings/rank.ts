/**
 * What the person may do to roles, members and overwrites, by the core's rules
 * (core/roles.ts Hierarchy, core/overwrite-rights.ts), so Server settings does not offer
 * what the server would refuse: roles and members strictly below one's highest role (the
 * owner ranks above all; Administrator gives every bit but no rank), grants of bits one
 * holds, and Manage Roles in overwrites for administrators alone. The server checks
 * again on every request; its refusal still shows beside the control.
 */
import { BIT, PERMISSIONS } from "../names";
import { me, members } from "../state";
import type { Channel, Guild } from "../types";
import { channelBits } from "../views/composer/rights";

const ALL = PERMISSIONS.reduce((all, p) => all | p.bit, 0);

/** Why a role control is disabled. */
export const ROLE_ABOVE = "Only roles below your highest role are yours to manage.";
/** Why a member's controls are disabled. */
export const MEMBER_ABOVE = "Their highest role is not below yours.";

const isOwner = (g: Guild, userId: string | undefined) => g.owner_id === userId;

/** A member's rank: the owner above everyone, else the position of their highest role (0: @everyone alone). */
export function rankOf(g: Guild, userId: string | undefined): number {
  if (isOwner(g, userId)) return Infinity;
  const held = (members.value[g.id] ?? []).find((m) => m.user.id === userId)?.roles ?? [];
  return Math.max(0, ...g.roles.filter((r) => held.includes(r.id)).map((r) => r.position));
}

/** The person's own rank here. */
export const myRank = (g: Guild): number => rankOf(g, me.value?.id);

/** Whether a role is below the person's highest role (theirs to edit, delete, give or take). */
export const mayManageRole = (g: Guild, position: number): boolean => position < myRank(g);

/** Whether the person may act on a member (kick, ban, roles, nickname): never the owner, else one ranked below them. */
export function mayActOn(g: Guild, userId: string): boolean {
  return !isOwner(g, userId) && rankOf(g, userId) < myRank(g);
}

/** Whether the person holds Administrator here, or owns the server: every bit is theirs to grant. */
function isAdmin(g: Guild): boolean {
  return isOwner(g, me.value?.id) || (Number(g.my_permissions) & BIT.ADMINISTRATOR) !== 0;
}

/** The bits the person may put into a role: the ones they hold (all of them for administrators). */
export function grantable(g: Guild): number {
  return isAdmin(g) ? ALL : Number(g.my_permissions);
}

/** Whether the person may change whether `bit` is allowed or denied in a channel's overwrites. */
export function mayOverwrite(g: Guild, channel: Channel | undefined, bit: number): boolean {
  if (isAdmin(g)) return true;
  if (bit === BIT.MANAGE_ROLES || !channel) return false;
  const here = channelBits(channel);
  // Manage Roles handed to the person by an overwrite of this very channel lets them write any other bit there.
  if (here & BIT.MANAGE_ROLES && viaOverwrite(g, channel)) return true;
  return ((Number(g.my_permissions) | here) & bit) !== 0;
}

function viaOverwrite(g: Guild, channel: Channel): boolean {
  const id = me.value?.id;
  const mine = (members.value[g.id] ?? []).find((m) => m.user.id === id)?.roles ?? [];
  return (channel.overwrites ?? []).some(
    (o) =>
      (Number(o.allow) & BIT.MANAGE_ROLES) !== 0 &&
      (o.type === "member" ? o.target_id === id : o.target_id === g.id || mine.includes(o.target_id)),
  );
}
