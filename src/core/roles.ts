import type { CoreDeps } from "./deps";
import type { Role } from "./models";
import type { Guilds } from "./guilds";
import type { Audit } from "./audit";
import { AUDIT, diffChanges } from "./audit";
import { DomainError } from "./errors";
import { ALL_PERMISSIONS, PERMISSIONS } from "./permissions";
import { imageHash } from "./crypto";

/**
 * Roles as managed by members (bots or people) under the role hierarchy of
 * reference-gaps 1.3: an actor manages only roles strictly below its own highest role
 * and only grants bits it holds itself. The owner is exempt; ADMINISTRATOR is not
 * (it gives every bit, but not a place in the hierarchy).
 */
export interface RoleFields {
  name?: string | null;
  permissions?: number | null;
  color?: number | null;
  hoist?: boolean | null;
  mentionable?: boolean | null;
  icon?: string | null;
  unicode_emoji?: string | null;
}

/**
 * A role's icon as the reference shows it: a hash of the image data given, never the
 * data itself, which would ride (up to the body limit, per role) in every role list,
 * GUILD_CREATE and audit entry. A hash already shown (a bot sending the role back) stays.
 */
export function roleIconHash(given: string | null | undefined, current: string | null): string | null {
  if (!given) return null;
  return given === current ? current : imageHash(given);
}

/**
 * A role's name as given, with a blank one (empty, or only spaces) read as none: the
 * reference names a role sent with an empty name "new role", on create and on edit alike
 * (as its API documentation's maintainers describe it), whoever asks here. Spaces alone
 * go the same way: a role whose name nobody can see cannot be told apart in a list or a mention.
 */
function givenRoleName(name: string | null | undefined): string | null | undefined {
  return typeof name === "string" && name.trim() === "" ? null : name;
}

export interface ReorderItem {
  roleId: string | null; // null: not a role of this guild
  position?: number | null;
}

/** The audit-visible shape of a role (changes are computed over it). */
export function roleAuditView(r: Role): Record<string, unknown> {
  return {
    name: r.name,
    permissions: String(r.permissions),
    color: r.color,
    hoist: !!r.hoist,
    mentionable: !!r.mentionable,
    icon_hash: r.icon,
    unicode_emoji: r.unicode_emoji,
  };
}

export class Hierarchy {
  constructor(private readonly guilds: Guilds) {}

  isOwner(guildId: string, userId: string): boolean {
    return this.guilds.require(guildId).owner_id === userId;
  }

  /** 403 unless the actor may manage this role (strictly below its highest role). */
  requireRoleBelow(guildId: string, actorId: string, role: Role): void {
    if (this.isOwner(guildId, actorId)) return;
    if (role.position >= this.guilds.topPosition(guildId, actorId))
      throw DomainError.forbidden("Missing Permissions: the role is not below your highest role");
  }

  /** 403 unless the actor's highest role is strictly above the member's (owner exempt; nobody acts on the owner). */
  requireMemberBelow(guildId: string, actorId: string, targetId: string): void {
    if (this.isOwner(guildId, targetId)) throw DomainError.forbidden("Missing Permissions: the server owner is above everyone");
    if (this.isOwner(guildId, actorId)) return;
    if (this.guilds.topPosition(guildId, targetId) >= this.guilds.topPosition(guildId, actorId))
      throw DomainError.forbidden("Missing Permissions: the member's highest role is not below yours");
  }

  /** 403 unless the actor holds every bit it is adding. */
  requireGrantable(guildId: string, actorId: string, added: number): void {
    if (!added || this.isOwner(guildId, actorId)) return;
    const mine = this.guilds.permissions(guildId, actorId);
    const held = mine & PERMISSIONS.ADMINISTRATOR ? ALL_PERMISSIONS : mine;
    if (added & ~held) throw DomainError.forbidden("Missing Permissions: you cannot grant permissions you do not hold");
  }
}

export class Roles {
  readonly hierarchy: Hierarchy;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly audit: Audit,
  ) {
    this.hierarchy = new Hierarchy(guilds);
  }

  private get db() {
    return this.d.store.db;
  }

  list(guildId: string): Role[] {
    this.guilds.require(guildId);
    return this.guilds.roles(guildId);
  }

  get(guildId: string, roleId: string): Role {
    return this.guilds.requireRole(guildId, roleId);
  }

  private requireManageRoles(guildId: string, actorId: string): void {
    this.guilds.require(guildId);
    if (!this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_ROLES);
  }

  /**
   * A new role goes to position 1, just above @everyone, as on the reference platform,
   * so that the member who created it can manage it straight away.
   */
  create(guildId: string, actorId: string, input: RoleFields, reason: string | null = null): Role {
    return this.d.store.write(() => {
      this.requireManageRoles(guildId, actorId);
      // The others are renumbered from the list as committed on every node (Guilds.lockRoles).
      this.guilds.lockRoles(guildId);
      const everyone = this.guilds.requireRole(guildId, guildId);
      const perms = (input.permissions ?? everyone.permissions) & ALL_PERMISSIONS;
      this.hierarchy.requireGrantable(guildId, actorId, perms);
      const created = this.guilds.createRole(guildId, {
        name: givenRoleName(input.name) ?? undefined,
        permissions: perms,
        color: input.color ?? undefined,
        hoist: input.hoist ?? undefined,
        mentionable: input.mentionable ?? undefined,
        icon: roleIconHash(input.icon, null),
        unicode_emoji: input.unicode_emoji,
      });
      const shifted = this.db
        .query("SELECT id FROM roles WHERE guild_id = ? AND is_everyone = 0 AND id != ? ORDER BY position")
        .all(guildId, created.id) as { id: string }[];
      this.db.query("UPDATE roles SET position = 1 WHERE id = ?").run(created.id);
      shifted.forEach((r, i) => {
        const res = this.db.query("UPDATE roles SET position = ? WHERE id = ? AND position != ?").run(i + 2, r.id, i + 2);
        if (res.changes) this.d.store.emit({ type: "role.updated", guildId, roleId: r.id });
      });
      const role = this.guilds.requireRole(guildId, created.id);
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.ROLE_CREATE,
        targetId: role.id,
        changes: diffChanges(null, roleAuditView(role)),
        reason,
      });
      return role;
    });
  }

  /** Absent keys are kept; null resets a field to its default (as at creation). */
  edit(guildId: string, roleId: string, actorId: string, patch: RoleFields, reason: string | null = null): Role {
    return this.d.store.write(() => {
      this.requireManageRoles(guildId, actorId);
      // The row is written whole: read as committed, one writer at a time (Guilds.lockRoles).
      this.guilds.lockRoles(guildId);
      const role = this.guilds.requireRole(guildId, roleId);
      this.hierarchy.requireRoleBelow(guildId, actorId, role);
      if (role.is_everyone && patch.name !== undefined && patch.name !== role.name)
        throw DomainError.invalid("name", "The @everyone role cannot be renamed");
      const everyone = this.guilds.requireRole(guildId, guildId);
      const pick = <T>(v: T | null | undefined, def: T, cur: T): T => (v === undefined ? cur : v === null ? def : v);
      const next: Role = {
        ...role,
        name: pick(givenRoleName(patch.name), role.is_everyone ? "@everyone" : "new role", role.name),
        permissions:
          pick(patch.permissions, role.is_everyone ? role.permissions : everyone.permissions, role.permissions) & ALL_PERMISSIONS,
        color: pick(patch.color, 0, role.color),
        hoist: pick(patch.hoist, false, !!role.hoist) ? 1 : 0,
        mentionable: pick(patch.mentionable, false, !!role.mentionable) ? 1 : 0,
        icon: patch.icon === undefined ? role.icon : roleIconHash(patch.icon, role.icon),
        unicode_emoji: patch.unicode_emoji === undefined ? role.unicode_emoji : patch.unicode_emoji,
      };
      this.hierarchy.requireGrantable(guildId, actorId, next.permissions & ~role.permissions);
      const changes = diffChanges(roleAuditView(role), roleAuditView(next));
      if (!changes.length) return role;
      this.db
        .query(
          "UPDATE roles SET name = ?, permissions = ?, color = ?, hoist = ?, mentionable = ?, icon = ?, unicode_emoji = ? WHERE id = ?",
        )
        .run(next.name, next.permissions, next.color, next.hoist, next.mentionable, next.icon, next.unicode_emoji, roleId);
      this.d.store.emit({ type: "role.updated", guildId, roleId });
      this.audit.record({ guildId, actorId, actionType: AUDIT.ROLE_UPDATE, targetId: roleId, changes, reason });
      return next;
    });
  }

  /**
   * Delete a role. Its assignments go with it (cascade) and so do channel overwrites
   * that named it, which changes those channels.
   */
  delete(guildId: string, roleId: string, actorId: string, reason: string | null = null): void {
    this.d.store.write(() => {
      this.requireManageRoles(guildId, actorId);
      this.guilds.lockRoles(guildId);
      const role = this.guilds.requireRole(guildId, roleId);
      if (role.is_everyone) throw DomainError.invalid("role_id", "The @everyone role cannot be deleted", "INVALID_ROLE");
      this.hierarchy.requireRoleBelow(guildId, actorId, role);
      const channels = this.db
        .query(
          "SELECT DISTINCT o.channel_id FROM overwrites o JOIN channels c ON c.id = o.channel_id WHERE c.guild_id = ? AND o.target_id = ?",
        )
        .all(guildId, roleId) as { channel_id: string }[];
      this.db
        .query("DELETE FROM overwrites WHERE target_id = ? AND channel_id IN (SELECT id FROM channels WHERE guild_id = ?)")
        .run(roleId, guildId);
      this.db.query("DELETE FROM roles WHERE id = ?").run(roleId);
      this.d.store.emit({ type: "role.deleted", guildId, roleId });
      for (const c of channels) this.d.store.emit({ type: "channel.updated", channelId: c.channel_id, guildId });
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.ROLE_DELETE,
        targetId: roleId,
        changes: diffChanges(roleAuditView(role), null),
        reason,
      });
    });
  }

  /**
   * Move roles. Listed roles take the requested positions; the others keep their order
   * around them, and positions are renumbered 1..n above @everyone (which stays at 0).
   * Every role whose position changes must be below the actor's highest role, before
   * and after the move. Answers every role of the guild.
   */
  reorder(guildId: string, actorId: string, items: ReorderItem[], reason: string | null = null): Role[] {
    return this.d.store.write(() => {
      this.requireManageRoles(guildId, actorId);
      this.guilds.lockRoles(guildId);
      const roles = this.guilds.roles(guildId);
      const desired = new Map<string, number>();
      const seen = new Set<string>();
      items.forEach((it, i) => {
        const role = it.roleId ? roles.find((r) => r.id === it.roleId) : undefined;
        if (!role) throw DomainError.invalid(`[${i}].id`, "Unknown role", "INVALID_ROLE");
        // Listed twice, which position would it take? Refused, as a channel listed twice is.
        if (seen.has(role.id)) throw DomainError.invalid(`[${i}].id`, "A role may be listed once", "ROLE_DUPLICATE");
        seen.add(role.id);
        if (role.is_everyone) {
          if (it.position != null && it.position !== 0)
            throw DomainError.invalid(`[${i}].position`, "The @everyone role always has position 0");
          return;
        }
        if (it.position == null) return;
        if (it.position < 1) throw DomainError.invalid(`[${i}].position`, "Must be 1 or more (0 is @everyone's)");
        desired.set(role.id, it.position);
      });
      const others = roles.filter((r) => !r.is_everyone);
      const key = (r: Role) => desired.get(r.id) ?? r.position;
      const ordered = [...others].sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        if (ka !== kb) return ka - kb;
        const am = desired.has(a.id);
        const bm = desired.has(b.id);
        if (am && !bm) return a.position < ka ? 1 : -1; // moved up: lands above the role it met
        if (bm && !am) return b.position < kb ? -1 : 1;
        return a.id < b.id ? -1 : 1;
      });
      const moved: { role: Role; to: number }[] = [];
      ordered.forEach((r, i) => {
        if (r.position !== i + 1) moved.push({ role: r, to: i + 1 });
      });
      const owner = this.hierarchy.isOwner(guildId, actorId);
      const top = owner ? Infinity : this.guilds.topPosition(guildId, actorId);
      for (const m of moved)
        if (m.role.position >= top || m.to >= top)
          throw DomainError.forbidden("Missing Permissions: you can only move roles below your highest role");
      for (const m of moved) {
        this.db.query("UPDATE roles SET position = ? WHERE id = ?").run(m.to, m.role.id);
        this.d.store.emit({ type: "role.updated", guildId, roleId: m.role.id });
        if (desired.has(m.role.id))
          this.audit.record({
            guildId,
            actorId,
            actionType: AUDIT.ROLE_UPDATE,
            targetId: m.role.id,
            changes: [{ key: "position", old_value: m.role.position, new_value: m.to }],
            reason,
          });
      }
      return this.guilds.roles(guildId);
    });
  }
}
