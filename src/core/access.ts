import type { Channel } from "./models";
import type { Guilds } from "./guilds";
import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";
import { hasPermission, PERMISSIONS } from "./permissions";

/**
 * Who may do what in a channel. Parley has no VIEW_CHANNEL bit (spec 2.9 keeps 13), so
 * seeing a guild channel means being a member of its guild; a DM is seen by its two
 * recipients. Anything the actor cannot see is "not found" (404 10003), never 403, so
 * ids outside the actor's world leak nothing.
 */
export interface ChannelAccess {
  channel: Channel;
  /** Effective permissions in the channel (reference-gaps 1.3 step B); DMs: SEND_MESSAGES only. */
  perms: number;
  isDm: boolean;
}

export function dmRecipientIds(d: CoreDeps, channelId: string): string[] {
  return (
    d.store.db.query("SELECT user_id FROM dm_recipients WHERE channel_id = ? ORDER BY user_id").all(channelId) as { user_id: string }[]
  ).map((r) => r.user_id);
}

export function accessChannel(d: CoreDeps, guilds: Guilds, actorId: string, channelId: string): ChannelAccess {
  const channel = guilds.channel(channelId);
  if (!channel) throw DomainError.notFound("channel");
  return accessTo(d, guilds, actorId, channel);
}

/** The same rules for a channel row the caller already holds (read in the same synchronous step). */
export function accessTo(d: CoreDeps, guilds: Guilds, actorId: string, channel: Channel): ChannelAccess {
  if (channel.guild_id === null) {
    if (!dmRecipientIds(d, channel.id).includes(actorId)) throw DomainError.notFound("channel");
    return { channel, perms: PERMISSIONS.SEND_MESSAGES, isDm: true };
  }
  // One lookup answers both "member?" (null = not, hence 404) and the permissions.
  const perms = guilds.memberPermissions(channel.guild_id, actorId, channel.id);
  if (perms === null) throw DomainError.notFound("channel");
  return { channel, perms, isDm: false };
}

/** Whether a user may see a channel: a member of its server, or a DM recipient. */
export function canSee(d: CoreDeps, guilds: Guilds, channel: Channel, userId: string): boolean {
  if (channel.guild_id) return guilds.isMember(channel.guild_id, userId);
  return dmRecipientIds(d, channel.id).includes(userId);
}

/** 403 50001 unless the access holds every bit given (ADMINISTRATOR holds all). */
export function requireBits(a: ChannelAccess, ...bits: number[]): void {
  for (const b of bits) if (!hasPermission(a.perms, b)) throw DomainError.forbidden();
}

export function holds(a: ChannelAccess, bit: number): boolean {
  return hasPermission(a.perms, bit);
}
