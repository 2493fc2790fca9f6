import type { CoreDeps } from "../deps";
import type { Guilds } from "../guilds";
import type { Users } from "../users";
import type { Channel, Member, Overwrite, User } from "../models";
import { dmRecipientIds } from "../access";
import type { Watch } from "../../store/changes";
import { PRESENCE } from "../users";
import type { ChannelModel, GuildCreateModel, GuildModel, MemberModel, PartialGuildModel, PresenceModel } from "../composites";
import { USER_COLUMNS } from "../rows";
import type { Emojis } from "../emojis";

/** Every table a GUILD_CREATE is read from (presences apart). */
const GUILD_CREATE_SOURCES = ["guilds", "roles", "channels", "overwrites", "members", "member_roles", "users", "emojis"];

/** Read models of servers, their channels and members (reads/models.ts). */
export class GuildReads {
  private readonly shown: Watch;
  private readonly shownWithPresences: Watch;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly emojis: Pick<Emojis, "of">,
  ) {
    this.shown = d.store.changes.watch(GUILD_CREATE_SOURCES);
    this.shownWithPresences = d.store.changes.watch([...GUILD_CREATE_SOURCES, PRESENCE]);
  }

  /**
   * A number that changes whenever what guildCreate() answers may have, but for the
   * channels' last_message_id (which every message moves; the caller follows messages):
   * changes to servers, roles, channels, members and users by anyone, this process or
   * another, and to presences only for the view that shows them.
   */
  guildCreateStamp(withPresences: boolean): number {
    return (withPresences ? this.shownWithPresences : this.shown).stamp();
  }

  private get db() {
    return this.d.store.db;
  }

  /** A member with its roles, and its user unless `withUser` is false (a message's author is read apart). */
  member(guildId: string, userId: string, withUser = true): MemberModel | null {
    const row = this.guilds.member(guildId, userId);
    return row ? this.memberOf(row, withUser) : null;
  }

  memberOf(row: Member, withUser = true): MemberModel {
    return {
      member: row,
      roleIds: this.guilds.memberRoleIds(row.guild_id, row.user_id),
      user: withUser ? this.users.get(row.user_id) : null,
    };
  }

  /**
   * A page of a guild's members (by user id), each with its roles and user: three
   * queries for the page, whatever its size.
   */
  members(guildId: string, page: { after?: string; limit?: number } = {}): MemberModel[] {
    const rows = this.guilds.members(guildId, page);
    if (!rows.length) return [];
    const first = rows[0].user_id;
    const last = rows[rows.length - 1].user_id;
    const roles = new Map<string, string[]>();
    for (const r of this.db
      .query("SELECT user_id, role_id FROM member_roles WHERE guild_id = ? AND user_id BETWEEN ? AND ? ORDER BY user_id, role_id")
      .all(guildId, first, last) as { user_id: string; role_id: string }[]) {
      let list = roles.get(r.user_id);
      if (!list) roles.set(r.user_id, (list = []));
      list.push(r.role_id);
    }
    const users = new Map<string, User>();
    for (const u of this.db
      .query(
        `SELECT ${USER_COLUMNS("u")} FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.user_id BETWEEN ? AND ?`,
      )
      .all(guildId, first, last) as User[])
      users.set(u.id, u);
    return rows.map((row) => ({ member: row, roleIds: roles.get(row.user_id) ?? [], user: users.get(row.user_id) ?? null }));
  }

  channel(id: string): ChannelModel | null {
    const row = this.guilds.channel(id);
    return row ? this.channelOf(row) : null;
  }

  /** The model of a channel row the caller holds (or a snapshot of a deleted one, with its overwrites). */
  channelOf(row: Channel, overwrites?: Overwrite[]): ChannelModel {
    if (row.guild_id === null) {
      const recipients = dmRecipientIds(this.d, row.id)
        .map((id) => this.users.get(id))
        .filter((u): u is User => u !== null);
      return { channel: row, overwrites: [], recipients };
    }
    return { channel: row, overwrites: overwrites ?? this.guilds.overwrites(row.id), recipients: [] };
  }

  /** A guild's channels in order, with every overwrite read in one query. */
  channels(guildId: string): ChannelModel[] {
    const byChannel = new Map<string, Overwrite[]>();
    for (const o of this.db
      .query("SELECT o.* FROM overwrites o JOIN channels c ON c.id = o.channel_id WHERE c.guild_id = ? ORDER BY o.channel_id, o.target_id")
      .all(guildId) as Overwrite[]) {
      let list = byChannel.get(o.channel_id);
      if (!list) byChannel.set(o.channel_id, (list = []));
      list.push(o);
    }
    return this.guilds.channels(guildId).map((row) => ({ channel: row, overwrites: byChannel.get(row.id) ?? [], recipients: [] }));
  }

  guild(guildId: string, opts: { counts?: boolean } = {}): GuildModel {
    const row = this.guilds.require(guildId);
    const out: GuildModel = {
      guild: row,
      roles: this.guilds.roles(guildId),
      emojis: this.emojis.of(guildId),
      memberCount: this.guilds.memberCount(guildId),
    };
    if (opts.counts) out.presenceCount = this.presences(guildId).length;
    return out;
  }

  /** A guild as one user lists it: with their permissions (and counts when asked). */
  partialGuild(guildId: string, userId: string, opts: { counts?: boolean } = {}): PartialGuildModel {
    const row = this.guilds.require(guildId);
    const out: PartialGuildModel = { guild: row, permissions: this.guilds.permissions(guildId, userId) };
    if (opts.counts) out.memberCount = this.guilds.memberCount(guildId);
    return out;
  }

  /** Members of a guild whose presence is not offline. */
  presences(guildId: string): PresenceModel[] {
    return (
      this.db
        .query("SELECT u.id, u.presence FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.presence != 'offline'")
        .all(guildId) as { id: string; presence: string }[]
    ).map((r) => ({ userId: r.id, status: r.presence }));
  }

  /** The whole guild for GUILD_CREATE; presences only when the viewer may see them. */
  guildCreate(guildId: string, withPresences: boolean): GuildCreateModel {
    const members = this.members(guildId);
    const row = this.guilds.require(guildId);
    return {
      guild: row,
      roles: this.guilds.roles(guildId),
      emojis: this.emojis.of(guildId),
      memberCount: members.length,
      channels: this.channels(guildId),
      members,
      presences: withPresences ? this.presences(guildId) : [],
    };
  }
}
