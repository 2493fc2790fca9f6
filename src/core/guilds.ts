import type { CoreDeps } from "./deps";
import type { Channel, Guild, Member, Overwrite, Role } from "./models";
import type { MemberRemoval } from "./events";
import { DomainError } from "./errors";
import { ALL_PERMISSIONS, DEFAULT_EVERYONE, PERMISSIONS, hasPermission } from "./permissions";
import { PermissionReader } from "./permission-reader";
import { Memo } from "./memo";
import { statement } from "./statement";

/** The reference's caps (reference-gaps 30005, 30013, 30060), @everyone and categories included. */
export const MAX_GUILD_ROLES = 250;
export const MAX_GUILD_CHANNELS = 500;
export const MAX_CHANNEL_OVERWRITES = 1000;

/** The server fields an update may write, each only when given. */
const GUILD_FIELDS = ["name", "description", "icon", "system_channel_id"] as const;

/**
 * Servers (guilds), their roles, channels and members, and the permission model over
 * them. The @everyone role's id equals its guild's id, as on the reference platform,
 * so the boundary maps both to one snowflake without a special case.
 * Longer than 400 lines because servers, roles, channels and members share one memo
 * and one set of statements, which the permission model reads.
 */
export class Guilds {
  // What nearly every request reads, kept until its table changes (core/memo.ts).
  private readonly memo;
  private readonly stmt;
  private readonly permReader: PermissionReader;

  constructor(private readonly d: CoreDeps) {
    const db = d.store;
    this.memo = {
      guild: new Memo<Guild | null>(d.store, ["guilds"], { enabled: d.fastPaths.memo }),
      member: new Memo<Member | null>(d.store, ["members"], { enabled: d.fastPaths.memo }),
      roleIds: new Memo<string[]>(d.store, ["member_roles"], { enabled: d.fastPaths.memo }),
      channel: new Memo<Channel | null>(d.store, ["channels"], { enabled: d.fastPaths.memo }),
    };
    this.stmt = {
      guild: statement(db, "SELECT * FROM guilds WHERE id = ?"),
      member: statement(db, "SELECT * FROM members WHERE guild_id = ? AND user_id = ?"),
      roleIds: statement(db, "SELECT role_id FROM member_roles WHERE guild_id = ? AND user_id = ? ORDER BY role_id"),
      channel: statement(db, "SELECT * FROM channels WHERE id = ?"),
      lastMessage: statement(db, "SELECT id FROM messages WHERE channel_id = ? AND ephemeral_user_id IS NULL ORDER BY id DESC LIMIT 1"),
    };
    this.permReader = new PermissionReader(d.store, d.fastPaths.memo);
  }

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Guild | null {
    return this.memo.guild.get(id, () => this.stmt.guild().get(id) as Guild | null);
  }

  /** Servers with this exact name, oldest first (names are not unique). */
  named(name: string): Guild[] {
    return this.db.query("SELECT * FROM guilds WHERE name = ? ORDER BY id").all(name) as Guild[];
  }

  /** Every server, oldest first (the operator's `parley guild list`). */
  all(): Guild[] {
    return this.db.query("SELECT * FROM guilds ORDER BY id").all() as Guild[];
  }

  require(id: string): Guild {
    const g = this.get(id);
    if (!g) throw DomainError.notFound("guild");
    return g;
  }

  create(input: { name: string; ownerId: string; channels?: string[]; everyonePermissions?: number }): Guild {
    const name = input.name.trim();
    if (name.length < 2 || name.length > 100)
      throw DomainError.invalid("name", "Must be between 2 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
    return this.d.store.write(() => {
      const now = this.d.clock.now();
      const g: Guild = {
        id: this.d.ids.next(),
        name,
        owner_id: input.ownerId,
        icon: null,
        description: null,
        preferred_locale: "en-US",
        system_channel_id: null,
        created_at: now,
        default_message_notifications: 0,
      };
      this.db
        .query(
          "INSERT INTO guilds (id, name, owner_id, icon, description, preferred_locale, system_channel_id, created_at) VALUES ($id, $name, $owner_id, $icon, $description, $preferred_locale, $system_channel_id, $created_at)",
        )
        .run(g as never);
      const everyone =
        "INSERT INTO roles (id, guild_id, name, permissions, position, is_everyone, created_at) VALUES (?, ?, '@everyone', ?, 0, 1, ?)";
      this.db.query(everyone).run(g.id, g.id, input.everyonePermissions ?? DEFAULT_EVERYONE, now);
      this.insertMember(g.id, input.ownerId, now);
      const names = input.channels ?? ["general"];
      names.forEach((n, i) => {
        const c = this.insertChannel({ guildId: g.id, name: n, type: 0, position: i });
        if (i === 0) {
          this.db.query("UPDATE guilds SET system_channel_id = ? WHERE id = ?").run(c.id, g.id);
          g.system_channel_id = c.id;
        }
      });
      this.d.store.emit({ type: "guild.created", guildId: g.id });
      return g;
    });
  }

  /**
   * Only the fields given are written: a field another node (or the icon's own write,
   * core/media.ts) changed a moment before is left as it is.
   */
  update(guildId: string, patch: Partial<Pick<Guild, "name" | "description" | "icon" | "system_channel_id">>): Guild {
    return this.d.store.write(() => {
      const g = this.require(guildId);
      const next = { ...g, ...patch };
      if (next.name.length < 2 || next.name.length > 100) throw DomainError.invalid("name", "Must be between 2 and 100 in length.");
      const fields = GUILD_FIELDS.filter((f) => patch[f] !== undefined);
      if (!fields.length) return g;
      this.db
        .query(`UPDATE guilds SET ${fields.map((f) => `${f} = ?`).join(", ")} WHERE id = ?`)
        .run(...fields.map((f) => next[f]), guildId);
      this.d.store.emit({ type: "guild.updated", guildId });
      return next;
    });
  }

  /**
   * Inside a write: hold the server's own row (name, description, system channel, owner)
   * until the write ends, so that an edit or a change of owner reads it as committed by
   * every node (Store.serialize).
   */
  lockGuild(guildId: string): void {
    this.d.store.serialize(`guild:${guildId}`);
  }

  /**
   * Inside a write: hold one membership (joining, leaving, a ban, the member's roles)
   * until the write ends, so that a ban and a join, or two role edits, at once on two
   * nodes are decided one after the other, each reading what the other committed.
   */
  lockMember(guildId: string, userId: string): void {
    this.d.store.serialize(`member:${guildId}:${userId}`);
  }

  delete(guildId: string): void {
    this.d.store.write(() => {
      this.require(guildId);
      const memberIds = this.memberIds(guildId);
      this.db.query("DELETE FROM guilds WHERE id = ?").run(guildId);
      this.d.store.emit({ type: "guild.deleted", guildId, memberIds });
    });
  }

  // ---- members ----

  member(guildId: string, userId: string): Member | null {
    return this.memo.member.get(`${guildId}|${userId}`, () => this.stmt.member().get(guildId, userId) as Member | null);
  }

  requireMember(guildId: string, userId: string): Member {
    const m = this.member(guildId, userId);
    if (!m) throw DomainError.notFound("member");
    return m;
  }

  isMember(guildId: string, userId: string): boolean {
    return this.member(guildId, userId) !== null;
  }

  memberIds(guildId: string): string[] {
    return (this.db.query("SELECT user_id FROM members WHERE guild_id = ?").all(guildId) as { user_id: string }[]).map((r) => r.user_id);
  }

  members(guildId: string, opts: { after?: string; limit?: number } = {}): Member[] {
    return this.db
      .query("SELECT * FROM members WHERE guild_id = ? AND user_id > ? ORDER BY user_id LIMIT ?")
      .all(guildId, opts.after ?? "", opts.limit ?? 1_000_000) as Member[];
  }

  memberCount(guildId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM members WHERE guild_id = ?").get(guildId) as { n: number }).n;
  }

  guildIdsOf(userId: string): string[] {
    return (this.db.query("SELECT guild_id FROM members WHERE user_id = ? ORDER BY guild_id").all(userId) as { guild_id: string }[]).map(
      (r) => r.guild_id,
    );
  }

  /** The member's role ids, ordered (a frozen array: shared by every caller). */
  memberRoleIds(guildId: string, userId: string): readonly string[] {
    return this.memo.roleIds.get(`${guildId}|${userId}`, () =>
      (this.stmt.roleIds().all(guildId, userId) as { role_id: string }[]).map((r) => r.role_id),
    );
  }

  /** Add a user to a guild (join by invite, bot install, seeding). Banned users cannot. */
  addMember(guildId: string, userId: string): Member {
    return this.d.store.write(() => {
      this.require(guildId);
      this.lockMember(guildId, userId);
      const existing = this.member(guildId, userId);
      if (existing) return existing;
      if (this.db.query("SELECT 1 FROM bans WHERE guild_id = ? AND user_id = ?").get(guildId, userId))
        throw DomainError.forbidden("You are banned from this server");
      const m = this.insertMember(guildId, userId, this.d.clock.now());
      this.d.store.emit({ type: "member.added", guildId, userId });
      return m;
    });
  }

  /** Remove a member (leave, kick, ban, bot removal), and a bot's webhooks in the server. The owner cannot leave. */
  removeMember(guildId: string, userId: string, cause: MemberRemoval = "left"): void {
    this.d.store.write(() => {
      this.lockMember(guildId, userId);
      const g = this.require(guildId);
      this.requireMember(guildId, userId);
      if (g.owner_id === userId)
        throw DomainError.invalid(
          "",
          "The server's owner cannot leave it: give it to another member first, or delete it",
          "OWNER_CANNOT_LEAVE",
        );
      this.db.query("DELETE FROM members WHERE guild_id = ? AND user_id = ?").run(guildId, userId);
      // A bot's webhooks here go with it, as the reference removes an integration's webhooks
      // with its bot: a kicked bot posts nothing more through them. A person's stay.
      this.db.query("DELETE FROM webhooks WHERE guild_id = ? AND creator_id = ? AND application_id IS NOT NULL").run(guildId, userId);
      this.d.store.emit({ type: "member.removed", guildId, userId, cause });
    });
  }

  addMemberRole(guildId: string, userId: string, roleId: string): void {
    this.d.store.write(() => {
      this.requireMember(guildId, userId);
      const r = this.requireRole(guildId, roleId);
      if (r.is_everyone) throw DomainError.invalid("role_id", "The @everyone role cannot be assigned");
      const res = this.db
        .query("INSERT OR IGNORE INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)")
        .run(guildId, userId, roleId);
      if (res.changes) this.d.store.emit({ type: "member.updated", guildId, userId });
    });
  }

  removeMemberRole(guildId: string, userId: string, roleId: string): void {
    this.d.store.write(() => {
      this.requireMember(guildId, userId);
      this.requireRole(guildId, roleId);
      const res = this.db.query("DELETE FROM member_roles WHERE guild_id = ? AND user_id = ? AND role_id = ?").run(guildId, userId, roleId);
      if (res.changes) this.d.store.emit({ type: "member.updated", guildId, userId });
    });
  }

  /** A member's nickname as a world document gives it (seeding): no rights, no audit entry; moderation.editMember is the act. */
  setNick(guildId: string, userId: string, nick: string | null): void {
    this.d.store.write(() => {
      this.requireMember(guildId, userId);
      this.db.query("UPDATE members SET nick = ? WHERE guild_id = ? AND user_id = ?").run(nick, guildId, userId);
      this.d.store.emit({ type: "member.updated", guildId, userId });
    });
  }

  private insertMember(guildId: string, userId: string, at: number): Member {
    const m: Member = { guild_id: guildId, user_id: userId, nick: null, joined_at: at };
    this.db.query("INSERT INTO members (guild_id, user_id, nick, joined_at) VALUES (?, ?, ?, ?)").run(guildId, userId, null, at);
    return m;
  }

  // ---- roles ----

  roles(guildId: string): Role[] {
    return this.db.query("SELECT * FROM roles WHERE guild_id = ? ORDER BY position, id").all(guildId) as Role[];
  }

  role(guildId: string, roleId: string): Role | null {
    return this.db.query("SELECT * FROM roles WHERE guild_id = ? AND id = ?").get(guildId, roleId) as Role | null;
  }

  /**
   * Inside a write: hold the server's roles (their numbering 1..n above @everyone, and
   * each row, written whole by an edit) until the write ends, so that whoever numbers or
   * edits them reads them as committed by every node (Store.serialize); SQLite's one
   * writer needs nothing.
   */
  lockRoles(guildId: string): void {
    this.d.store.serialize(`roles:${guildId}`);
  }

  requireRole(guildId: string, roleId: string): Role {
    const r = this.role(guildId, roleId);
    if (!r) throw DomainError.notFound("role");
    return r;
  }

  createRole(
    guildId: string,
    input: {
      name?: string;
      permissions?: number;
      color?: number;
      hoist?: boolean;
      mentionable?: boolean;
      icon?: string | null;
      unicode_emoji?: string | null;
    },
  ): Role {
    return this.d.store.write(() => {
      this.require(guildId);
      this.lockRoles(guildId);
      const top = this.db.query("SELECT max(position) AS p, count(*) AS n FROM roles WHERE guild_id = ?").get(guildId) as {
        p: number;
        n: number;
      };
      // Every role rides in every GUILD_CREATE and role list: a cap keeps one manager from bloating them for all.
      if (top.n >= MAX_GUILD_ROLES) throw DomainError.maximum(30005, `Maximum number of guild roles reached (${MAX_GUILD_ROLES})`);
      const everyone = this.requireRole(guildId, guildId);
      const r: Role = {
        id: this.d.ids.next(),
        guild_id: guildId,
        name: input.name ?? "new role",
        permissions: (input.permissions ?? everyone.permissions) & ALL_PERMISSIONS,
        color: input.color ?? 0,
        hoist: input.hoist ? 1 : 0,
        mentionable: input.mentionable ? 1 : 0,
        position: (top?.p ?? 0) + 1,
        is_everyone: 0,
        icon: input.icon ?? null,
        unicode_emoji: input.unicode_emoji ?? null,
        bot_user_id: null,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO roles (id, guild_id, name, permissions, color, hoist, mentionable, position, is_everyone, icon, unicode_emoji, bot_user_id, created_at)
           VALUES ($id, $guild_id, $name, $permissions, $color, $hoist, $mentionable, $position, $is_everyone, $icon, $unicode_emoji, $bot_user_id, $created_at)`,
        )
        .run(r as never);
      this.d.store.emit({ type: "role.created", guildId, roleId: r.id });
      return r;
    });
  }

  // ---- channels ----

  /** A channel row, kept while the channels table is unchanged; its `last_message_id` is read whenever looked at. */
  channel(id: string): Channel | null {
    return this.memo.channel.get(id, () => this.channelRow(id));
  }

  /** A channel row as the database holds it now, past the memo (under lockChannels). */
  channelRow(id: string): Channel | null {
    const row = this.stmt.channel().get(id) as Channel | null;
    if (!row) return null;
    const last = this.stmt.lastMessage;
    return Object.defineProperty(row, "last_message_id", {
      enumerable: true,
      get: () => (last().get(id) as { id: string } | null)?.id ?? null,
    });
  }

  requireChannel(id: string): Channel {
    const c = this.channel(id);
    if (!c) throw DomainError.notFound("channel");
    return c;
  }

  /**
   * Inside a write: hold the server's channel layout (positions, categories) until the
   * write ends, so that a position taken after the last, or a category checked before a
   * channel moves into it, is checked by one writer at a time on every node
   * (Store.serialize). What is read under it must come from the database (channelRow,
   * channels), not the memo, which may not have heard the other node's commit yet.
   */
  lockChannels(guildId: string): void {
    this.d.store.serialize(`channels:${guildId}`);
  }

  channels(guildId: string): Channel[] {
    return this.db.query("SELECT * FROM channel_rows WHERE guild_id = ? ORDER BY position, id").all(guildId) as Channel[];
  }

  overwrites(channelId: string): Overwrite[] {
    return this.db.query("SELECT * FROM overwrites WHERE channel_id = ? ORDER BY target_id").all(channelId) as Overwrite[];
  }

  createChannel(input: {
    guildId: string;
    name: string;
    type?: number;
    topic?: string | null;
    parentId?: string | null;
    nsfw?: boolean;
    rateLimitPerUser?: number;
    position?: number;
  }): Channel {
    return this.d.store.write(() => {
      this.require(input.guildId);
      const c = this.insertChannel(input);
      this.d.store.emit({ type: "channel.created", channelId: c.id, guildId: input.guildId });
      return c;
    });
  }

  /**
   * 400 30060 when an overwrite for a new target would pass the reference's 1000 a channel:
   * each rides in every GUILD_CREATE. Counted by one writer at a time per channel on every node.
   */
  requireOverwriteRoom(channelId: string, targetId: string): void {
    this.d.store.serialize(`overwrites:${channelId}`);
    const n = (this.db.query("SELECT count(*) AS n FROM overwrites WHERE channel_id = ?").get(channelId) as { n: number }).n;
    if (
      n >= MAX_CHANNEL_OVERWRITES &&
      !this.db.query("SELECT 1 FROM overwrites WHERE channel_id = ? AND target_id = ?").get(channelId, targetId)
    )
      throw DomainError.maximum(30060, `Maximum number of permission overwrites reached (${MAX_CHANNEL_OVERWRITES})`);
  }

  /** Inside a write: a channel's whole list of overwrites becomes `list` (a category's, carried or locked to). */
  replaceOverwrites(channelId: string, list: readonly Overwrite[]): void {
    this.db.query("DELETE FROM overwrites WHERE channel_id = ?").run(channelId);
    const put = this.db.query("INSERT INTO overwrites (channel_id, target_id, target_type, allow, deny) VALUES (?, ?, ?, ?, ?)");
    for (const o of list) put.run(channelId, o.target_id, o.target_type, o.allow, o.deny);
  }

  setOverwrite(channelId: string, targetId: string, targetType: 0 | 1, allow: number, deny: number): void {
    this.d.store.write(() => {
      const c = this.requireChannel(channelId);
      if (!c.guild_id) throw DomainError.invalid("", "Direct messages have no permission overwrites");
      this.db
        .query(
          "INSERT INTO overwrites (channel_id, target_id, target_type, allow, deny) VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id, target_id) DO UPDATE SET target_type = excluded.target_type, allow = excluded.allow, deny = excluded.deny",
        )
        .run(channelId, targetId, targetType, allow & ALL_PERMISSIONS, deny & ALL_PERMISSIONS);
      this.d.store.emit({ type: "channel.updated", channelId, guildId: c.guild_id });
    });
  }

  private insertChannel(input: {
    guildId: string;
    name: string;
    type?: number;
    topic?: string | null;
    parentId?: string | null;
    nsfw?: boolean;
    rateLimitPerUser?: number;
    position?: number;
  }): Channel {
    this.lockChannels(input.guildId);
    const n = (this.db.query("SELECT count(*) AS n FROM channels WHERE guild_id = ?").get(input.guildId) as { n: number }).n;
    if (n >= MAX_GUILD_CHANNELS) throw DomainError.maximum(30013, `Maximum number of guild channels reached (${MAX_GUILD_CHANNELS})`);
    const pos =
      input.position ??
      ((this.db.query("SELECT max(position) AS p FROM channels WHERE guild_id = ?").get(input.guildId) as { p: number | null }).p ?? -1) +
        1;
    const c: Channel = {
      id: this.d.ids.next(),
      guild_id: input.guildId,
      type: input.type ?? 0,
      name: input.name,
      topic: input.topic ?? null,
      position: pos,
      parent_id: input.parentId ?? null,
      nsfw: input.nsfw ? 1 : 0,
      rate_limit_per_user: input.rateLimitPerUser ?? 0,
      user_limit: null,
      bitrate: null,
      e2e: 0,
      last_message_id: null,
      created_at: this.d.clock.now(),
    };
    this.db
      .query(
        `INSERT INTO channels (id, guild_id, type, name, topic, position, parent_id, nsfw, rate_limit_per_user, user_limit, bitrate, e2e, created_at)
         VALUES ($id, $guild_id, $type, $name, $topic, $position, $parent_id, $nsfw, $rate_limit_per_user, $user_limit, $bitrate, $e2e, $created_at)`,
      )
      .run(c as never);
    return c;
  }

  // ---- permissions ----

  /** Guild-level (step A) or channel-level (step B) permissions of a user. 0 for non-members. */
  permissions(guildId: string, userId: string, channelId?: string): number {
    return this.memberPermissions(guildId, userId, channelId) ?? 0;
  }

  /**
   * Permissions of a member, or null when the user is not a member (or the guild is gone),
   * so access checks tell "no permissions" from "not here" without asking twice.
   */
  memberPermissions(guildId: string, userId: string, channelId?: string): number | null {
    return this.permReader.of(guildId, userId, channelId);
  }

  /** Throw 403 unless the user holds `bit` (guild-wide, or in the channel when given). */
  requirePermission(guildId: string, userId: string, bit: number, channelId?: string): void {
    if (!hasPermission(this.permissions(guildId, userId, channelId), bit)) throw DomainError.forbidden();
  }

  /** Highest role position of a member (@everyone = 0); the owner is above everything. */
  topPosition(guildId: string, userId: string): number {
    const g = this.require(guildId);
    return g.owner_id === userId ? Number.POSITIVE_INFINITY : this.permReader.topRolePosition(guildId, userId);
  }

  canManageGuild(guildId: string, userId: string): boolean {
    return hasPermission(this.permissions(guildId, userId), PERMISSIONS.MANAGE_GUILD);
  }
}
