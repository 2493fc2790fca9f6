import type { InviteModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";
import { iso, isoOrNull } from "../time";

/** Invite (reference-gaps 3.10); `metadata` adds uses, max_uses, max_age, temporary, created_at. */
export function inviteJson(f: Ids, m: InviteModel, opts: { metadata: boolean; counts?: boolean }) {
  const { invite: i, guild: g, channel: c } = m;
  const out: Record<string, unknown> = {
    type: 0,
    code: i.code,
    guild: g
      ? {
          id: f.of(g.id),
          name: g.name,
          icon: g.icon,
          splash: null,
          banner: null,
          description: g.description,
          features: ["SERVICE_E2E_DIRECT_MESSAGES"],
          verification_level: 0,
          vanity_url_code: null,
          nsfw_level: 0,
          premium_subscription_count: 0,
        }
      : undefined,
    channel: c ? { id: f.of(c.id), name: c.name, type: c.type } : null,
    expires_at: isoOrNull(m.expiresAt),
    flags: 0,
  };
  if (m.inviter) out.inviter = userJson(f, m.inviter);
  if (opts.counts && g) {
    out.approximate_member_count = m.memberCount;
    out.approximate_presence_count = 0;
  }
  if (opts.metadata)
    Object.assign(out, { uses: i.uses, max_uses: i.max_uses, max_age: i.max_age, temporary: !!i.temporary, created_at: iso(i.created_at) });
  return out;
}
