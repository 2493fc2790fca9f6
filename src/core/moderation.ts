import type { CoreDeps } from "./deps";
import type { Ban, Member, User } from "./models";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Audit } from "./audit";
import type { Hierarchy } from "./roles";
import { AUDIT } from "./audit";
import { DomainError } from "./errors";
import { uuidBound } from "./ids";
import { PERMISSIONS } from "./permissions";
import type { Messages } from "./messages";
import { requireBits } from "./access";

const BULK_MAX_AGE_MS = 14 * 86_400_000;

/**
 * Member moderation: kicks, bans (with deletion of the member's recent messages),
 * unbans, member edits and role assignment, for bots and people alike. Permission bits
 * and the role hierarchy (reference-gaps 1.3) are checked here, never in a route.
 *
 * Parley has no voice and never grants MODERATE_MEMBERS, so member edits that would
 * need either are refused rather than silently accepted (docs/administration.md).
 */
export const MAX_BAN_DELETE_SECONDS = 604_800;

export interface MemberPatch {
  nick?: string | null;
  /** Internal role ids; null for a snowflake that names no role (reported by index). */
  roles?: (string | null)[] | null;
  mute?: boolean | null;
  deaf?: boolean | null;
  /** Present when the body had the key: a voice channel to move to, or null to disconnect. */
  channelId?: string | null;
  communicationDisabledUntil?: string | null;
}

export interface UserPage {
  before?: string;
  after?: string;
  limit: number;
}

export class Moderation {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly audit: Audit,
    private readonly hierarchy: Hierarchy,
    private readonly messages: Messages,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** The guild, if the actor is a member of it; 404 otherwise (a non-member sees nothing). */
  private requireActor(guildId: string, actorId: string): void {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
  }

  // ---- members ----

  /** Members ascending by user id (internal ids sort like their snowflakes). */
  members(guildId: string, viewerId: string, after: string | undefined, limit: number): Member[] {
    this.requireActor(guildId, viewerId);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw DomainError.invalid("limit", "Must be between 1 and 1000.");
    return this.guilds.members(guildId, { after, limit });
  }

  /**
   * Members whose username or nickname starts with `query`, in any case (the reference's
   * member search), ascending by user id.
   */
  searchMembers(guildId: string, viewerId: string, query: string, limit: number): Member[] {
    this.requireActor(guildId, viewerId);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw DomainError.invalid("limit", "Must be between 1 and 1000.");
    const prefix = `${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.db
      .query(
        `SELECT m.* FROM members m JOIN users u ON u.id = m.user_id
         WHERE m.guild_id = ?1 AND (lower(u.username) LIKE ?2 ESCAPE '\\' OR lower(coalesce(m.nick, '')) LIKE ?2 ESCAPE '\\')
         ORDER BY m.user_id LIMIT ?3`,
      )
      .all(guildId, prefix, limit) as Member[];
  }

  member(guildId: string, viewerId: string, userId: string): Member {
    this.requireActor(guildId, viewerId);
    return this.guilds.requireMember(guildId, userId);
  }

  kick(guildId: string, actorId: string, targetId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      this.requireActor(guildId, actorId);
      this.guilds.lockMember(guildId, targetId);
      this.guilds.requireMember(guildId, targetId);
      this.guilds.requirePermission(guildId, actorId, PERMISSIONS.KICK_MEMBERS);
      this.hierarchy.requireMemberBelow(guildId, actorId, targetId);
      this.guilds.removeMember(guildId, targetId, "kicked");
      this.audit.record({ guildId, actorId, actionType: AUDIT.MEMBER_KICK, targetId, reason });
    });
  }

  /**
   * Edit a member. Every field is checked before anything is written, so a refused
   * field leaves the member untouched. One member.updated fires when something changed.
   */
  editMember(guildId: string, actorId: string, targetId: string, patch: MemberPatch, reason: string | null = null): Member {
    return this.d.store.write(() => {
      this.requireActor(guildId, actorId);
      // Its roles are changed from what it holds: read as committed, one edit at a time.
      this.guilds.lockMember(guildId, targetId);
      const member = this.guilds.requireMember(guildId, targetId);
      if (patch.mute === true)
        throw DomainError.invalid("mute", "Parley has no voice: members cannot be server-muted", "VOICE_UNSUPPORTED");
      if (patch.deaf === true)
        throw DomainError.invalid("deaf", "Parley has no voice: members cannot be server-deafened", "VOICE_UNSUPPORTED");
      if (patch.channelId != null)
        throw DomainError.invalid("channel_id", "Parley has no voice: there is no voice channel to move a member to", "VOICE_UNSUPPORTED");
      const until = patch.communicationDisabledUntil;
      // A malformed time is a bad body first, as on the reference; a well-formed one a missing right.
      if (until != null && Number.isNaN(Date.parse(until)))
        throw DomainError.invalid("communication_disabled_until", `Could not parse ${until}. Should be ISO8601.`, "DATE_TIME_TYPE_PARSE");
      if (until != null) throw DomainError.forbidden("Missing Permissions: timeouts need MODERATE_MEMBERS, which Parley never grants");

      let nick = member.nick;
      if (patch.nick !== undefined) {
        const next = patch.nick === null || patch.nick === "" ? null : patch.nick;
        if (next !== null && next.length > 32) throw DomainError.invalid("nick", "Must be 32 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
        if (next !== member.nick && targetId !== actorId) {
          // MANAGE_NICKNAMES is not one of the 13 bits: MANAGE_ROLES gates member edits.
          this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_ROLES);
          this.hierarchy.requireMemberBelow(guildId, actorId, targetId);
        }
        nick = next;
      }

      const current = this.guilds.memberRoleIds(guildId, targetId);
      let added: string[] = [];
      let removed: string[] = [];
      if (patch.roles !== undefined) {
        const wanted: string[] = [];
        (patch.roles ?? []).forEach((rid, i) => {
          const role = rid ? this.guilds.role(guildId, rid) : null;
          if (!role) throw DomainError.invalid(`roles[${i}]`, "Unknown role", "INVALID_ROLE");
          if (role.is_everyone) throw DomainError.invalid(`roles[${i}]`, "The @everyone role cannot be assigned", "INVALID_ROLE");
          if (!wanted.includes(role.id)) wanted.push(role.id);
        });
        added = wanted.filter((r) => !current.includes(r));
        removed = current.filter((r) => !wanted.includes(r));
        if (added.length || removed.length) {
          this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_ROLES);
          if (targetId !== actorId) this.hierarchy.requireMemberBelow(guildId, actorId, targetId);
          for (const r of [...added, ...removed]) this.hierarchy.requireRoleBelow(guildId, actorId, this.guilds.requireRole(guildId, r));
        }
      }

      const nickChanged = nick !== member.nick;
      if (nickChanged) {
        this.db.query("UPDATE members SET nick = ? WHERE guild_id = ? AND user_id = ?").run(nick, guildId, targetId);
        const change: Record<string, unknown> = { key: "nick" };
        if (member.nick !== null) change.old_value = member.nick;
        if (nick !== null) change.new_value = nick;
        this.audit.record({ guildId, actorId, actionType: AUDIT.MEMBER_UPDATE, targetId, changes: [change as never], reason });
      }
      for (const r of added)
        this.db.query("INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)").run(guildId, targetId, r);
      for (const r of removed)
        this.db.query("DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?").run(guildId, targetId, r);
      if (added.length || removed.length) this.recordRoleUpdate(guildId, actorId, targetId, added, removed, reason);
      if (nickChanged || added.length || removed.length) this.d.store.emit({ type: "member.updated", guildId, userId: targetId });
      return this.guilds.requireMember(guildId, targetId);
    });
  }

  addRole(guildId: string, actorId: string, targetId: string, roleId: string, reason: string | null = null): void {
    this.changeRole(guildId, actorId, targetId, roleId, true, reason);
  }

  removeRole(guildId: string, actorId: string, targetId: string, roleId: string, reason: string | null = null): void {
    this.changeRole(guildId, actorId, targetId, roleId, false, reason);
  }

  private changeRole(guildId: string, actorId: string, targetId: string, roleId: string, add: boolean, reason: string | null): void {
    this.d.store.write(() => {
      this.requireActor(guildId, actorId);
      this.guilds.lockMember(guildId, targetId);
      this.guilds.requireMember(guildId, targetId);
      const role = this.guilds.requireRole(guildId, roleId);
      this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_ROLES);
      if (role.is_everyone) throw DomainError.invalid("role_id", "The @everyone role cannot be assigned or removed", "INVALID_ROLE");
      // Another member's roles only below one's own rank; one's own, any role below one's highest.
      if (targetId !== actorId) this.hierarchy.requireMemberBelow(guildId, actorId, targetId);
      this.hierarchy.requireRoleBelow(guildId, actorId, role);
      const has = this.guilds.memberRoleIds(guildId, targetId).includes(roleId);
      if (has === add) return; // already so: 204 without an event, as the reference answers
      if (add) this.guilds.addMemberRole(guildId, targetId, roleId);
      else this.guilds.removeMemberRole(guildId, targetId, roleId);
      this.recordRoleUpdate(guildId, actorId, targetId, add ? [roleId] : [], add ? [] : [roleId], reason);
    });
  }

  private recordRoleUpdate(guildId: string, actorId: string, targetId: string, added: string[], removed: string[], reason: string | null) {
    const named = (ids: string[]) => ids.map((id) => ({ id, name: this.guilds.requireRole(guildId, id).name }));
    const changes = [];
    if (added.length) changes.push({ key: "$add", new_value: named(added) });
    if (removed.length) changes.push({ key: "$remove", new_value: named(removed) });
    this.audit.record({ guildId, actorId, actionType: AUDIT.MEMBER_ROLE_UPDATE, targetId, changes, reason });
  }

  // ---- bans ----

  private requireBanPermission(guildId: string, actorId: string): void {
    this.requireActor(guildId, actorId);
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.BAN_MEMBERS);
  }

  /**
   * Ban a user (member or not). The member is removed, and their messages in this
   * guild from the last `deleteMessageSeconds` (shared clock) are deleted, each firing
   * message.deleted. Banning someone already banned changes nothing but still deletes
   * the span asked for.
   */
  ban(guildId: string, actorId: string, targetId: string, opts: { deleteMessageSeconds?: number; reason?: string | null } = {}): void {
    const secs = opts.deleteMessageSeconds ?? 0;
    if (!Number.isInteger(secs) || secs < 0 || secs > MAX_BAN_DELETE_SECONDS)
      throw DomainError.invalid("delete_message_seconds", `Must be between 0 and ${MAX_BAN_DELETE_SECONDS}.`, "NUMBER_TYPE_MAX");
    this.d.store.write(() => {
      this.requireBanPermission(guildId, actorId);
      this.users.require(targetId);
      // A join at this moment on another node is decided before or after, never beside.
      this.guilds.lockMember(guildId, targetId);
      const isMember = this.guilds.isMember(guildId, targetId);
      if (isMember || this.hierarchy.isOwner(guildId, targetId)) this.hierarchy.requireMemberBelow(guildId, actorId, targetId);
      if (targetId === actorId) throw DomainError.forbidden("Missing Permissions: you cannot ban yourself");
      const now = this.d.clock.now();
      if (secs > 0) {
        const doomed = this.db
          .query(
            // An id's time is never before its created_at, so the id bound only narrows the
            // (channel_id, id) index range; created_at keeps the span exact.
            `SELECT m.id, m.channel_id, m.ephemeral_user_id FROM messages m JOIN channels c ON c.id = m.channel_id
             WHERE c.guild_id = ? AND m.id >= ? AND m.author_id = ? AND m.webhook_id IS NULL AND m.created_at >= ? AND m.created_at <= ? ORDER BY m.id`,
          )
          .all(guildId, uuidBound(now - secs * 1000, false), targetId, now - secs * 1000, now) as {
          id: string;
          channel_id: string;
          ephemeral_user_id: string | null;
        }[];
        for (const m of doomed) {
          this.db.query("DELETE FROM messages WHERE id = ?").run(m.id);
          this.d.store.emit({
            type: "message.deleted",
            messageId: m.id,
            channelId: m.channel_id,
            guildId,
            ephemeralUserId: m.ephemeral_user_id,
          });
        }
      }
      if (this.bannedRow(guildId, targetId)) return;
      this.db
        .query("INSERT INTO bans (guild_id, user_id, reason, created_at) VALUES (?, ?, ?, ?)")
        .run(guildId, targetId, opts.reason ?? null, now);
      if (isMember) this.guilds.removeMember(guildId, targetId, "banned");
      this.audit.record({ guildId, actorId, actionType: AUDIT.MEMBER_BAN_ADD, targetId, reason: opts.reason ?? null });
    });
  }

  unban(guildId: string, actorId: string, targetId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      this.requireBanPermission(guildId, actorId);
      this.guilds.lockMember(guildId, targetId);
      if (!this.bannedRow(guildId, targetId)) throw DomainError.notFound("ban");
      this.db.query("DELETE FROM bans WHERE guild_id = ? AND user_id = ?").run(guildId, targetId);
      this.audit.record({ guildId, actorId, actionType: AUDIT.MEMBER_BAN_REMOVE, targetId, reason });
    });
  }

  getBan(guildId: string, actorId: string, targetId: string): { ban: Ban; user: User } {
    this.requireBanPermission(guildId, actorId);
    const ban = this.bannedRow(guildId, targetId);
    const user = ban ? this.users.get(targetId) : null;
    if (!ban || !user) throw DomainError.notFound("ban");
    return { ban, user };
  }

  /** Bans ascending by user id; with `before`, the last page before it (and `after` is ignored). */
  bans(guildId: string, actorId: string, page: UserPage): { ban: Ban; user: User }[] {
    this.requireBanPermission(guildId, actorId);
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > 1000)
      throw DomainError.invalid("limit", "Must be between 1 and 1000.");
    let rows: Ban[];
    if (page.before !== undefined) {
      rows = (
        this.db
          .query("SELECT * FROM bans WHERE guild_id = ? AND user_id < ? ORDER BY user_id DESC LIMIT ?")
          .all(guildId, page.before, page.limit) as Ban[]
      ).reverse();
    } else {
      rows = this.db
        .query("SELECT * FROM bans WHERE guild_id = ? AND user_id > ? ORDER BY user_id ASC LIMIT ?")
        .all(guildId, page.after ?? "", page.limit) as Ban[];
    }
    return rows.flatMap((ban) => {
      const user = this.users.get(ban.user_id);
      return user ? [{ ban, user }] : [];
    });
  }

  isBanned(guildId: string, userId: string): boolean {
    return this.bannedRow(guildId, userId) !== null;
  }

  private bannedRow(guildId: string, userId: string): Ban | null {
    return this.db.query("SELECT * FROM bans WHERE guild_id = ? AND user_id = ?").get(guildId, userId) as Ban | null;
  }

  /**
   * Delete up to 100 messages at once (guild channels, MANAGE_MESSAGES). Ids that are
   * unknown or belong elsewhere are skipped, as on the reference. One message.deleted per
   * message: MESSAGE_DELETE_BULK is never dispatched (spec 6.2). `createdAt` of each id
   * comes from the surface (the snowflake's timestamp) and must be within 14 days.
   */
  bulkDelete(actorId: string, channelId: string, ids: { id: string | null; createdAt: number }[], reason: string | null = null): number {
    return this.d.store.write(() => {
      const a = this.messages.access(actorId, channelId);
      if (a.isDm) throw DomainError.forbidden("Cannot execute action on a DM channel");
      requireBits(a, PERMISSIONS.MANAGE_MESSAGES);
      const oldest = this.d.clock.now() - BULK_MAX_AGE_MS;
      if (ids.some((x) => x.createdAt < oldest))
        throw DomainError.invalid("messages", "You can only bulk delete messages that are under 14 days old.", "BULK_DELETE_TOO_OLD");
      let n = 0;
      for (const x of ids) {
        const m = x.id ? this.messages.get(x.id) : null;
        if (!m || m.channel_id !== channelId || m.ephemeral_user_id) continue;
        this.messages.delete(m.id);
        n++;
      }
      // Ids that were all gone already changed nothing, and an entry saying so would be noise.
      if (n > 0)
        this.audit.record({
          guildId: a.channel.guild_id!,
          actorId,
          actionType: AUDIT.MESSAGE_BULK_DELETE,
          targetId: channelId,
          options: { count: String(n) },
          reason,
        });
      return n;
    });
  }
}
