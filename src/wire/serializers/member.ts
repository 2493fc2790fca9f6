import type { BotApi } from "../../botapi/context";
import type { MemberRow } from "../../core/types";
import { userJson } from "./user";
import { iso } from "../time";

/**
 * GuildMember (reference-gaps 3.2). `withUser` false gives the member embedded in
 * MESSAGE_CREATE. Parley has no voice and no timeouts: deaf/mute are always false and
 * communication_disabled_until always null.
 */
export function memberJson(api: BotApi, m: MemberRow, withUser = true) {
  const f = api.flakes;
  const out: Record<string, unknown> = {
    nick: m.nick,
    avatar: null,
    banner: null,
    roles: api.core.guilds.memberRoleIds(m.guild_id, m.user_id).map((r) => f.of(r)),
    joined_at: iso(m.joined_at),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
  if (withUser) {
    const u = api.core.users.get(m.user_id);
    if (u) out.user = userJson(f, u);
  }
  return out;
}
