import type { BotApi } from "../../botapi/context";
import type { ChannelRow, OverwriteRow } from "../../core/types";
import type { ChannelSnapshot } from "../../core/channels";
import { userJson } from "./user";
import { iso } from "../time";

/**
 * Channel (spec 2.5). Guild channels always carry name, position,
 * permission_overwrites, nsfw and parent_id; bitrate and user_limit only on voice.
 * `viewerId` drops the viewer from a DM's recipients, as the reference does.
 */
export function channelJson(api: BotApi, c: ChannelRow, viewerId?: string, overwrites?: OverwriteRow[]) {
  const f = api.flakes;
  if (c.guild_id === null) {
    const recipients = (api.core.store.db.query("SELECT user_id FROM dm_recipients WHERE channel_id = ? ORDER BY user_id").all(c.id) as {
      user_id: string;
    }[])
      .filter((r) => r.user_id !== viewerId)
      .map((r) => api.core.users.get(r.user_id))
      .filter((u) => u !== null)
      .map((u) => userJson(f, u!));
    return {
      id: f.of(c.id),
      type: c.type,
      last_message_id: f.ofNullable(c.last_message_id),
      recipients,
      flags: 0,
      created_at: iso(c.created_at),
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
    permission_overwrites: (overwrites ?? api.core.guilds.overwrites(c.id)).map((o) => ({
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
    created_at: iso(c.created_at),
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

/** A deleted channel, from the snapshot its channel.deleted event (or the delete itself) carries. */
export function deletedChannelJson(api: BotApi, snapshot: ChannelSnapshot, viewerId?: string) {
  return channelJson(api, snapshot.channel, viewerId, snapshot.overwrites);
}
