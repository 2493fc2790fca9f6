import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { accessChannel, requireBits } from "./access";
import { hasPermission, PERMISSIONS } from "./permissions";

export interface InviteRow {
  code: string;
  guild_id: string;
  channel_id: string;
  inviter_id: string | null;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: number;
  created_at: number;
}

/**
 * What a bot may do with invites people made (spec 4: a bot never creates one).
 * Invite creation and joining belong to the people's side (core/invites.ts); this only
 * reads and revokes. An expired or used-up invite is unknown.
 */
export class InviteQueries {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  private live(i: InviteRow | null): InviteRow | null {
    if (!i) return null;
    if (i.max_age > 0 && i.created_at + i.max_age * 1000 <= this.d.clock.now()) return null;
    if (i.max_uses > 0 && i.uses >= i.max_uses) return null;
    return i;
  }

  expiresAt(i: InviteRow): number | null {
    return i.max_age > 0 ? i.created_at + i.max_age * 1000 : null;
  }

  /** GET /invites/{code}: anyone may resolve a live invite. */
  get(code: string): InviteRow {
    const i = this.live(this.db.query("SELECT * FROM invites WHERE code = ?").get(code) as InviteRow | null);
    if (!i) throw DomainError.notFound("invite");
    return i;
  }

  /** GET /guilds/{id}/invites: MANAGE_GUILD (or VIEW_AUDIT_LOG), members only. */
  forGuild(actorId: string, guildId: string): InviteRow[] {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    const p = this.guilds.permissions(guildId, actorId);
    if (!hasPermission(p, PERMISSIONS.MANAGE_GUILD) && !hasPermission(p, PERMISSIONS.VIEW_AUDIT_LOG)) throw DomainError.forbidden();
    const rows = this.db.query("SELECT * FROM invites WHERE guild_id = ? ORDER BY created_at, code").all(guildId) as InviteRow[];
    return rows.filter((r) => this.live(r));
  }

  /** GET /channels/{id}/invites: MANAGE_CHANNELS in the channel. */
  forChannel(actorId: string, channelId: string): InviteRow[] {
    const a = accessChannel(this.d, this.guilds, actorId, channelId);
    if (a.isDm) return [];
    requireBits(a, PERMISSIONS.MANAGE_CHANNELS);
    const rows = this.db.query("SELECT * FROM invites WHERE channel_id = ? ORDER BY created_at, code").all(channelId) as InviteRow[];
    return rows.filter((r) => this.live(r));
  }

  /** POST /channels/{id}/invites by a bot: the channel must be visible, then always 403 (spec 5.11). */
  refuseCreate(actorId: string, channelId: string): never {
    accessChannel(this.d, this.guilds, actorId, channelId);
    throw DomainError.forbidden("Bots cannot create invites");
  }

  /** DELETE /invites/{code}: MANAGE_CHANNELS on its channel or MANAGE_GUILD; answers the deleted invite. */
  revoke(actorId: string, code: string): InviteRow {
    return this.d.store.write(() => {
      const i = this.get(code);
      if (!this.guilds.isMember(i.guild_id, actorId)) throw DomainError.forbidden();
      const guildWide = this.guilds.permissions(i.guild_id, actorId);
      const inChannel = this.guilds.permissions(i.guild_id, actorId, i.channel_id);
      if (!hasPermission(guildWide, PERMISSIONS.MANAGE_GUILD) && !hasPermission(inChannel, PERMISSIONS.MANAGE_CHANNELS)) throw DomainError.forbidden();
      this.db.query("DELETE FROM invites WHERE code = ?").run(code);
      return i;
    });
  }
}
