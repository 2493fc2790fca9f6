/**
 * A server (guild) as a whole, as its owner, its managers and the instance's
 * administrators act on it: create it (who may is the instance's setting), edit it,
 * give it to another member, delete it, and the administrators' list of every server.
 * Rights are checked here for every surface: the people's API, the bot API's twin where
 * there is one, the `/admin` pages and `parley guild` commands (the operator: `actorId`
 * null, core/admins.ts).
 */
import type { CoreDeps } from "./deps";
import type { Guild, User } from "./models";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Instance } from "./instance";
import { AUDIT, diffChanges, type Audit } from "./audit";
import { DomainError } from "./errors";
import { PERMISSIONS } from "./permissions";
import { CHANNEL_TYPES } from "./channel-types";
import { isAdministrator, requireAdministrator, type Actor } from "./admins";

export interface GuildPatch {
  name?: string;
  description?: string | null;
  /** A text channel of this server where joins are announced, or null for none. */
  systemChannelId?: string | null;
}

/** What deleting a server takes with it (asked before, said after). */
export interface GuildDeletion {
  guild: Guild;
  /** Channels people talk in (text, voice, announcement): a category holds channels, it is not one. */
  channels: number;
  categories: number;
  messages: number;
  members: number;
  roles: number;
}

/** A server as the administrators' list shows it. */
export interface ServerSummary {
  guild: Guild;
  owner: User | null;
  memberCount: number;
  /** Its channels, categories not counted (as GuildDeletion's). */
  channelCount: number;
}

export class Servers {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly audit: Audit,
    private readonly instance: Instance,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** A person creates a server they own, if the instance lets them (everyone, or administrators only). */
  create(actorId: string, name: string): Guild {
    return this.d.store.write(() => {
      const owner = this.users.require(actorId);
      if (owner.kind !== "person") throw DomainError.forbidden("Bots cannot create servers");
      this.instance.requireMayCreateGuild(owner.id);
      return this.guilds.create({ name, ownerId: owner.id });
    });
  }

  /** Edit a server's settings: MANAGE_GUILD. One audit entry (GUILD_UPDATE) with what changed. */
  update(actorId: string, guildId: string, patch: GuildPatch, reason: string | null = null): Guild {
    return this.d.store.write(() => {
      this.memberGuild(actorId, guildId);
      this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_GUILD);
      // Read as committed, one edit at a time on every node; a system channel is checked
      // under the channels' lock, so one deleted at that moment is not chosen.
      this.guilds.lockGuild(guildId);
      if (patch.systemChannelId) this.guilds.lockChannels(guildId);
      const g = this.guilds.require(guildId);
      const next: Guild = { ...g };
      if (patch.name !== undefined) next.name = patch.name.trim();
      if (patch.description !== undefined) next.description = patch.description === "" ? null : patch.description;
      if (next.description !== null && next.description.length > 120)
        throw DomainError.invalid("description", "Must be 120 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
      if (patch.systemChannelId !== undefined) {
        const c = patch.systemChannelId === null ? null : this.guilds.channel(patch.systemChannelId);
        if (patch.systemChannelId !== null && (!c || c.guild_id !== guildId || c.type !== 0))
          throw DomainError.invalid("system_channel_id", "Not a text channel of this server", "CHANNEL_TYPE_INVALID");
        next.system_channel_id = patch.systemChannelId;
      }
      const changes = diffChanges(auditView(g), auditView(next));
      if (!changes.length) return g;
      const saved = this.guilds.update(guildId, {
        ...(next.name !== g.name ? { name: next.name } : {}),
        ...(next.description !== g.description ? { description: next.description } : {}),
        ...(next.system_channel_id !== g.system_channel_id ? { system_channel_id: next.system_channel_id } : {}),
      });
      this.audit.record({ guildId, actorId, actionType: AUDIT.GUILD_UPDATE, targetId: guildId, changes, reason });
      return saved;
    });
  }

  /**
   * Give a server to another of its members, a person: its owner does, or an administrator
   * of the instance. The new owner is above everyone there from now on; the old one keeps
   * their membership and roles. Bots hear GUILD_UPDATE; the audit log says who did it.
   */
  transfer(actorId: Actor, guildId: string, toUserId: string, reason: string | null = null): Guild {
    return this.d.store.write(() => {
      // The owner, and the new owner's membership, as committed: a member leaving at this
      // moment on another node is either gone (404) or stays, the owner.
      this.guilds.lockGuild(guildId);
      this.guilds.lockMember(guildId, toUserId);
      const g = this.ownerOrAdministrator(actorId, guildId);
      const to = this.users.get(toUserId);
      if (!to || to.deleted_at !== null || !this.guilds.isMember(guildId, toUserId)) throw DomainError.notFound("member");
      if (to.kind !== "person") throw DomainError.invalid("owner_id", "A bot cannot own a server", "OWNER_INVALID");
      if (g.owner_id === toUserId) return g;
      this.db.query("UPDATE guilds SET owner_id = ? WHERE id = ?").run(toUserId, guildId);
      this.d.store.emit({ type: "guild.updated", guildId });
      this.audit.record({
        guildId,
        actorId,
        actionType: AUDIT.GUILD_UPDATE,
        targetId: guildId,
        changes: [{ key: "owner_id", old_value: g.owner_id, new_value: toUserId }],
        reason,
      });
      return this.guilds.require(guildId);
    });
  }

  /** What deleting the server would take with it: for the question asked once, before. */
  deletion(actorId: Actor, guildId: string): GuildDeletion {
    const guild = this.ownerOrAdministrator(actorId, guildId);
    const n = (sql: string, ...more: number[]) => (this.db.query(sql).get(guildId, ...more) as { n: number }).n;
    const category = CHANNEL_TYPES.GUILD_CATEGORY;
    return {
      guild,
      channels: n("SELECT count(*) AS n FROM channels WHERE guild_id = ? AND type <> ?", category),
      categories: n("SELECT count(*) AS n FROM channels WHERE guild_id = ? AND type = ?", category),
      messages: n("SELECT count(*) AS n FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.guild_id = ?"),
      members: n("SELECT count(*) AS n FROM members WHERE guild_id = ?"),
      roles: n("SELECT count(*) AS n FROM roles WHERE guild_id = ? AND is_everyone = 0"),
    };
  }

  /**
   * Delete a server: its owner, or an administrator of the instance. Everything in it
   * goes with it, at once and for good: channels and their messages (and what hangs on
   * them), roles, memberships, invites, bans, webhooks, its commands and its audit log.
   * Members are told (people's guild.deleted); bots in it get GUILD_DELETE. Answers what
   * went.
   */
  delete(actorId: Actor, guildId: string, opts: { asAdministrator?: boolean } = {}): GuildDeletion {
    return this.d.store.write(() => {
      // The administrators' door (/admin) is theirs alone, even for a server its caller owns.
      if (opts.asAdministrator) requireAdministrator(this.d, actorId);
      const gone = this.deletion(actorId, guildId);
      this.guilds.delete(guildId);
      return gone;
    });
  }

  /** Every server (a name search narrows it), oldest first, for the administrators. */
  list(actorId: Actor, search = ""): ServerSummary[] {
    requireAdministrator(this.d, actorId);
    const like = `%${search
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.db
      .query(
        `SELECT g.*, (SELECT count(*) FROM members m WHERE m.guild_id = g.id) AS member_count, (SELECT count(*) FROM channels c WHERE c.guild_id = g.id AND c.type <> ?) AS channel_count
         FROM guilds g WHERE lower(g.name) LIKE ? ESCAPE '\\' ORDER BY g.id`,
      )
      .all(CHANNEL_TYPES.GUILD_CATEGORY, like) as (Guild & { member_count: number; channel_count: number })[];
    return rows.map(({ member_count, channel_count, ...guild }) => ({
      guild,
      owner: this.users.get(guild.owner_id),
      memberCount: member_count,
      channelCount: channel_count,
    }));
  }

  /** The guild, if the actor owns it or administers the instance; a person who is neither and not a member sees nothing (404). */
  private ownerOrAdministrator(actorId: Actor, guildId: string): Guild {
    const g = this.guilds.get(guildId);
    if (actorId !== null && g?.owner_id === actorId) return g;
    if (actorId === null || isAdministrator(this.d, actorId)) {
      if (!g) throw DomainError.notFound("guild");
      return g;
    }
    if (!g || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    throw DomainError.forbidden("Only the server's owner can do this");
  }

  private memberGuild(actorId: string, guildId: string): Guild {
    const g = this.guilds.get(guildId);
    if (!g || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    return g;
  }
}

/** The server fields an audit entry records (internal ids; the boundary maps them). */
function auditView(g: Guild): Record<string, unknown> {
  return { name: g.name, description: g.description, icon_hash: g.icon, system_channel_id: g.system_channel_id };
}
