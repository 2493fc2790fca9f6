/**
 * People's profiles: the display name a person picks for themselves (global_name, in any
 * script), and the profile card others open on a name: names, avatar (the files' work
 * fills it), and, in a server, the nickname and roles there. A profile is seen by the
 * person, and by whoever shares a server or a DM with them; anyone else gets 404, as for
 * any user they cannot see. In a server one is in, someone who has left it is seen too
 * from a message of theirs there, or while their ban stands: a moderator opens a departed
 * author's card to ban them, as the reference client lets them.
 */
import type { CoreDeps } from "./deps";
import type { Member, Role, User } from "./models";
import type { Users } from "./users";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { displayName } from "./display-name";

export { displayName, MAX_DISPLAY_NAME } from "./display-name";

/** What a profile card shows: the user, and in the server asked about, their membership and roles (highest first). */
export interface ProfileModel {
  user: User;
  /** The person's membership of the server asked about (null: none asked, or not a member). */
  member: Member | null;
  roles: Role[];
  /** Servers the viewer and this user share (ids; none for one's own profile). */
  mutualGuildIds: string[];
}

export class Profiles {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly guilds: Guilds,
  ) {}

  /**
   * A person sets (or, with null or "", clears) their display name. Every server they are
   * in hears of it (member.updated: bots' GUILD_MEMBER_UPDATE, people's member.updated),
   * as their name shows there.
   */
  setGlobalName(userId: string, raw: string | null): User {
    const name = displayName(raw);
    return this.d.store.write(() => {
      const u = this.users.require(userId);
      if (u.kind !== "person") throw DomainError.forbidden("A bot's name is its application's");
      if (u.global_name === name) return u;
      this.d.store.db.query("UPDATE users SET global_name = ? WHERE id = ?").run(name, userId);
      for (const guildId of this.guilds.guildIdsOf(userId)) this.d.store.emit({ type: "member.updated", guildId, userId });
      return this.users.require(userId);
    });
  }

  /**
   * The profile of `userId` as `viewerId` sees it, in `guildId` when given (a server both
   * are in, else 404; or one they left a ban in, or `messageId`, a message of theirs there).
   */
  profile(viewerId: string, userId: string, guildId: string | null = null, messageId: string | null = null): ProfileModel {
    const user = this.users.get(userId);
    if (!user) throw DomainError.notFound("user");
    const inGuild = guildId !== null && !!this.guilds.get(guildId) && this.guilds.isMember(guildId, viewerId);
    if (!this.sees(viewerId, userId) && !(inGuild && this.leftTraces(guildId, userId, messageId))) throw DomainError.notFound("user");
    let member: Member | null = null;
    let roles: Role[] = [];
    if (guildId !== null) {
      if (!inGuild) throw DomainError.notFound("guild");
      member = this.guilds.member(guildId, userId);
      if (member) {
        const ids = new Set(this.guilds.memberRoleIds(guildId, userId));
        roles = this.guilds
          .roles(guildId)
          .filter((r) => ids.has(r.id))
          .reverse();
      }
    }
    return { user, member, roles, mutualGuildIds: viewerId === userId ? [] : this.mutualGuilds(viewerId, userId) };
  }

  /** Oneself; someone one shares a server with; someone one shares a DM with. */
  private sees(viewerId: string, userId: string): boolean {
    if (viewerId === userId) return true;
    if (this.mutualGuilds(viewerId, userId).length) return true;
    return !!this.d.store.db
      .query(
        "SELECT 1 FROM dm_recipients a JOIN dm_recipients b ON b.channel_id = a.channel_id WHERE a.user_id = ? AND b.user_id = ? LIMIT 1",
      )
      .get(viewerId, userId);
  }

  /**
   * Whether someone not (or no longer) in the server left a mark there: a ban, or the
   * message their name was opened from (`messageId`). The message is named rather than
   * looked for: no index reads messages by author, and a scan of a server's history for
   * any id a member cares to ask about would be theirs to start at will.
   */
  private leftTraces(guildId: string, userId: string, messageId: string | null): boolean {
    const db = this.d.store.db;
    if (db.query("SELECT 1 FROM bans WHERE guild_id = ? AND user_id = ?").get(guildId, userId)) return true;
    if (messageId === null) return false;
    return !!db
      .query("SELECT 1 FROM messages m JOIN channels c ON c.id = m.channel_id WHERE m.id = ? AND m.author_id = ? AND c.guild_id = ?")
      .get(messageId, userId, guildId);
  }

  private mutualGuilds(a: string, b: string): string[] {
    return (
      this.d.store.db
        .query(
          "SELECT x.guild_id FROM members x JOIN members y ON y.guild_id = x.guild_id WHERE x.user_id = ? AND y.user_id = ? ORDER BY x.guild_id",
        )
        .all(a, b) as {
        guild_id: string;
      }[]
    ).map((r) => r.guild_id);
  }
}
