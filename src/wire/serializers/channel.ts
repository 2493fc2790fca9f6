import type { ChannelModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";

/**
 * Channel (spec 2.5). Guild channels always carry name, position,
 * permission_overwrites, nsfw and parent_id; bitrate and user_limit only on voice.
 * `viewerId` drops the viewer from a DM's recipients, as the reference does.
 * `created_at` (optional in spec 2.5) is left off, as the reference leaves it off: Seyfert
 * assigns every field onto its structures, and its channels' `createdAt` is a getter
 * derived from the snowflake, so the field made it throw on every channel it built.
 */
export function channelJson(f: Ids, m: ChannelModel, viewerId?: string) {
  const c = m.channel;
  if (c.guild_id === null) {
    return {
      id: f.of(c.id),
      type: c.type,
      last_message_id: f.ofNullable(c.last_message_id),
      recipients: m.recipients.filter((u) => u.id !== viewerId).map((u) => userJson(f, u)),
      flags: 0,
      service_e2e_enabled: true,
      service_video_quality: null,
      service_voice_quality: null,
    };
  }
  const out: Record<string, unknown> = {
    id: f.of(c.id),
    type: c.type,
    guild_id: f.of(c.guild_id),
    name: c.name,
    position: c.position,
    permission_overwrites: m.overwrites.map((o) => ({
      id: f.of(o.target_id),
      type: o.target_type,
      allow: String(o.allow),
      deny: String(o.deny),
    })),
    nsfw: !!c.nsfw,
    parent_id: f.ofNullable(c.parent_id),
    topic: c.topic,
    last_message_id: f.ofNullable(c.last_message_id),
    rate_limit_per_user: c.rate_limit_per_user,
    flags: 0,
    service_e2e_enabled: false,
    service_video_quality: null,
    service_voice_quality: null,
  };
  if (c.type === 2 || c.type === 13) {
    out.bitrate = c.bitrate ?? 64000;
    out.user_limit = c.user_limit ?? 0;
    out.rtc_region = null;
  }
  return out;
}
