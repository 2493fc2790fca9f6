import type { MemberModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";
import { iso } from "../time";

/**
 * GuildMember (reference-gaps 3.2). `withUser` false gives the member embedded in
 * MESSAGE_CREATE. Parley has no voice and no timeouts: deaf/mute are always false and
 * communication_disabled_until always null.
 */
export function memberJson(f: Ids, m: MemberModel, withUser = true) {
  const out: Record<string, unknown> = {
    nick: m.member.nick,
    avatar: null,
    banner: null,
    roles: m.roleIds.map((r) => f.of(r)),
    joined_at: iso(m.member.joined_at),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
  if (withUser && m.user) out.user = userJson(f, m.user);
  return out;
}
