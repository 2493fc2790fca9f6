import type { Store } from "../store/db";
import type { Overwrite } from "./models";
import { ALL_PERMISSIONS, computePermissions } from "./permissions";
import { Memo } from "./memo";
import { statement } from "./statement";

/** Every table a member's permissions in a channel are computed from. */
const SOURCES = ["guilds", "members", "member_roles", "roles", "overwrites"];

/**
 * A member's effective permissions read from the store (reference-gaps 1.3): three
 * indexed queries at most, and kept in memory per guild, member and channel until one
 * of the tables they come from changes (core/memo.ts). The hot path of every bot
 * request on a channel runs through here.
 */
export class PermissionReader {
  private readonly ownerIfMember;
  private readonly roleFacts;
  private readonly overwrites;
  private readonly topRole;
  private readonly memo: Memo<number | null>;

  constructor(store: Store, memo = true) {
    const db = store;
    this.memo = new Memo(store, SOURCES, { enabled: memo });
    this.ownerIfMember = statement(
      db,
      "SELECT g.owner_id FROM guilds g JOIN members m ON m.guild_id = g.id AND m.user_id = ?2 WHERE g.id = ?1",
    );
    this.roleFacts = statement(
      db,
      `SELECT id, permissions, 1 AS ev, position FROM roles WHERE guild_id = ?1 AND is_everyone = 1
       UNION ALL
       SELECT mr.role_id, r.permissions, 0, 0 FROM member_roles mr LEFT JOIN roles r ON r.id = mr.role_id AND r.guild_id = mr.guild_id
       WHERE mr.guild_id = ?1 AND mr.user_id = ?2
       ORDER BY 3 DESC, 4, 1`,
    );
    this.overwrites = statement(db, "SELECT * FROM overwrites WHERE channel_id = ?");
    this.topRole = statement(
      db,
      "SELECT max(r.position) AS p FROM member_roles mr JOIN roles r ON r.id = mr.role_id WHERE mr.guild_id = ? AND mr.user_id = ?",
    );
  }

  /** The highest position among a member's roles (@everyone = 0); hierarchy checks, not memoized. */
  topRolePosition(guildId: string, userId: string): number {
    return (this.topRole().get(guildId, userId) as { p: number | null }).p ?? 0;
  }

  /** Guild-level (no channel) or channel-level permissions; null when not a member. */
  of(guildId: string, userId: string, channelId?: string): number | null {
    return this.memo.get(`${guildId}|${userId}|${channelId ?? ""}`, () => this.read(guildId, userId, channelId));
  }

  private read(guildId: string, userId: string, channelId?: string): number | null {
    const owner = this.ownerIfMember().get(guildId, userId) as { owner_id: string } | null;
    if (!owner) return null;
    if (owner.owner_id === userId) return ALL_PERMISSIONS;
    const rows = this.roleFacts().all(guildId, userId) as { id: string; permissions: number | null; ev: number }[];
    let everyonePerms = 0;
    let everyoneRoleId = guildId;
    let everyoneSeen = false;
    const memberRolePerms: number[] = [];
    const memberRoleIds: string[] = [];
    for (const r of rows) {
      if (r.ev) {
        // The first @everyone by (position, id), as roles() orders them; there is one per guild.
        if (!everyoneSeen) {
          everyoneSeen = true;
          everyonePerms = r.permissions ?? 0;
          everyoneRoleId = r.id;
        }
      } else {
        memberRoleIds.push(r.id);
        // A role row of another guild (never expected) counts as an id but gives no bits.
        if (r.permissions !== null) memberRolePerms.push(r.permissions);
      }
    }
    const overwrites = channelId
      ? (this.overwrites().all(channelId) as Overwrite[]).map((o) => ({
          targetId: o.target_id,
          targetType: o.target_type,
          allow: o.allow,
          deny: o.deny,
        }))
      : undefined;
    return computePermissions({ isOwner: false, everyonePerms, memberRolePerms, memberRoleIds, everyoneRoleId, userId, overwrites });
  }
}
