/**
 * What the composer may offer in a channel, from what the page knows: the person's
 * server permissions (`my_permissions`, roles and ownership folded in) and the channel's
 * overwrites in the reference's order (@everyone, then the person's roles together,
 * then the person). The server checks again on every send; this only keeps the page
 * from offering what would be refused.
 */
import { channelOf, guildOf, me, members } from "../../state";
import type { Channel } from "../../types";
import { BIT } from "../../names";

/** The person's permission bits in a server channel. */
export function channelBits(channel: Channel): number {
  const g = channel.guild_id ? guildOf(channel.guild_id) : undefined;
  if (!g) return 0;
  let bits = Number(g.my_permissions);
  if (bits & BIT.ADMINISTRATOR || g.owner_id === me.value?.id) return -1; // all of them
  const mine = members.value[g.id]?.find((m) => m.user.id === me.value?.id)?.roles ?? [];
  const over = channel.overwrites ?? [];
  const apply = (allow: number, deny: number) => {
    bits = (bits & ~deny) | allow;
  };
  const everyone = over.find((o) => o.type === "role" && o.target_id === g.id);
  if (everyone) apply(Number(everyone.allow), Number(everyone.deny));
  let allow = 0;
  let deny = 0;
  for (const o of over)
    if (o.type === "role" && o.target_id !== g.id && mine.includes(o.target_id)) {
      allow |= Number(o.allow);
      deny |= Number(o.deny);
    }
  apply(allow, deny);
  const own = over.find((o) => o.type === "member" && o.target_id === me.value?.id);
  if (own) apply(Number(own.allow), Number(own.deny));
  return bits;
}

/**
 * Whether the person holds `bit` in a server channel, overwrites and all: a role's right
 * to manage messages can be taken away (or given) in one channel, and the server decides
 * by the channel. An unknown channel holds nothing.
 */
export function holdsIn(channelId: string, bit: number): boolean {
  const channel = channelOf(channelId);
  return !!channel && (channelBits(channel) & bit) === bit;
}

/** Why the person may not `doing` here for want of `bit` (overwrites applied), or null when they may (DMs: always). */
function refusal(channel: Channel, bit: number, doing: string, label: string): string | null {
  if (channel.guild_id === null || channelBits(channel) & bit) return null;
  return `You do not have permission to ${doing} in ${label}`;
}

/** Why the person may not write here, or null when they may. */
export const cannotWrite = (channel: Channel, label: string) => refusal(channel, BIT.SEND_MESSAGES, "send messages", label);

/** Why the person may not attach files here, or null when they may. */
export const cannotAttach = (channel: Channel, label: string) => refusal(channel, BIT.ATTACH_FILES, "attach files", label);

/** The channel's slow mode in seconds for this person: 0 when off or when they are exempt (Manage Messages or Manage Channels). */
export function slowmodeSeconds(channel: Channel): number {
  const rate = channel.rate_limit_per_user ?? 0;
  if (!rate || channel.guild_id === null) return 0;
  const bits = channelBits(channel);
  return bits & (BIT.MANAGE_MESSAGES | BIT.MANAGE_CHANNELS) ? 0 : rate;
}
