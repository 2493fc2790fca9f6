import type { CoreDeps } from "./deps";
import type { Guild, Invite } from "./models";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { hasPermission, PERMISSIONS } from "./permissions";
import { accessChannel, requireBits } from "./access";
import { AUDIT, diffChanges, type Audit } from "./audit";

/** Limits of the reference platform's invite settings (7 days, 100 uses). */
export const INVITE_MAX_AGE = 604_800;
export const INVITE_MAX_USES = 100;
/** The reference's cap on a server's invites (30016), counting those still usable. */
export const MAX_GUILD_INVITES = 1000;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * Server invites. An invite that has expired or is used up behaves as if it never
 * existed (404), so a stale link reveals nothing about the server. Making one and
 * revoking one are audited (INVITE_CREATE 40, INVITE_DELETE 42, with the invite's
 * fields as the reference records them).
 */
export class Invites {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly audit: Audit,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** A live invite, or null when unknown, expired or used up. */
  get(code: string): Invite | null {
    const row = this.db.query("SELECT * FROM invites WHERE code = ?").get(code) as Invite | null;
    return row && this.live(row) ? row : null;
  }

  require(code: string): Invite {
    const row = this.get(code);
    if (!row) throw DomainError.notFound("invite");
    return row;
  }

  list(guildId: string): Invite[] {
    return (this.db.query("SELECT * FROM invites WHERE guild_id = ? ORDER BY created_at, code").all(guildId) as Invite[]).filter((r) =>
      this.live(r),
    );
  }

  /** A person with CREATE_INSTANT_INVITE in the channel creates an invite to its server. */
  create(byUserId: string, channelId: string, opts: { maxAge?: number; maxUses?: number } = {}): Invite {
    const maxAge = opts.maxAge ?? 86_400;
    const maxUses = opts.maxUses ?? 0;
    if (!Number.isInteger(maxAge) || maxAge < 0 || maxAge > INVITE_MAX_AGE)
      throw DomainError.invalid("max_age", `Must be between 0 and ${INVITE_MAX_AGE}.`, "NUMBER_TYPE_MAX");
    if (!Number.isInteger(maxUses) || maxUses < 0 || maxUses > INVITE_MAX_USES)
      throw DomainError.invalid("max_uses", `Must be between 0 and ${INVITE_MAX_USES}.`, "NUMBER_TYPE_MAX");
    return this.d.store.write(() => {
      const ch = this.guilds.requireChannel(channelId);
      if (!ch.guild_id || !this.guilds.isMember(ch.guild_id, byUserId)) throw DomainError.notFound("channel");
      this.guilds.requirePermission(ch.guild_id, byUserId, PERMISSIONS.CREATE_INSTANT_INVITE, ch.id);
      this.requireRoomIn(ch.guild_id);
      const row: Invite = {
        code: this.freshCode(),
        guild_id: ch.guild_id,
        channel_id: ch.id,
        inviter_id: byUserId,
        max_age: maxAge,
        max_uses: maxUses,
        uses: 0,
        temporary: 0,
        created_at: this.d.clock.now(),
      };
      this.db
        .query(
          `INSERT INTO invites (code, guild_id, channel_id, inviter_id, max_age, max_uses, uses, temporary, created_at)
           VALUES ($code, $guild_id, $channel_id, $inviter_id, $max_age, $max_uses, $uses, $temporary, $created_at)`,
        )
        .run(row as never);
      this.audit.record({
        guildId: ch.guild_id,
        actorId: byUserId,
        actionType: AUDIT.INVITE_CREATE,
        changes: diffChanges(null, auditView(row)),
      });
      return row;
    });
  }

  /**
   * Join the invite's server. Counting the use and adding the member are one
   * transaction, so a refused join (banned) uses nothing up. A member who is already
   * in the server uses nothing either.
   */
  join(code: string, userId: string): Guild {
    return this.d.store.write(() => {
      // Its uses as committed, one join at a time on every node: the last use admits one.
      this.d.store.serialize(`invite:${code}`);
      const inv = this.require(code);
      const g = this.guilds.require(inv.guild_id);
      this.guilds.lockMember(g.id, userId);
      if (this.guilds.isMember(g.id, userId)) return g;
      this.guilds.addMember(g.id, userId);
      this.db.query("UPDATE invites SET uses = uses + 1 WHERE code = ?").run(code);
      return g;
    });
  }

  /**
   * Delete (revoke) an invite: its creator, or anyone with MANAGE_GUILD (or MANAGE_CHANNELS
   * on its channel); `byUserId` null is the operator. `reason` goes to the audit entry.
   */
  delete(code: string, byUserId: string | null, reason: string | null = null): Invite {
    return this.d.store.write(() => {
      const inv = this.require(code);
      if (byUserId !== null && inv.inviter_id !== byUserId) {
        const guildWide = this.guilds.permissions(inv.guild_id, byUserId);
        const inChannel = this.guilds.permissions(inv.guild_id, byUserId, inv.channel_id);
        const ok =
          (guildWide & (PERMISSIONS.MANAGE_GUILD | PERMISSIONS.ADMINISTRATOR)) !== 0 || (inChannel & PERMISSIONS.MANAGE_CHANNELS) !== 0;
        if (!ok) throw DomainError.forbidden();
      }
      this.db.query("DELETE FROM invites WHERE code = ?").run(code);
      this.audit.record({
        guildId: inv.guild_id,
        actorId: byUserId,
        actionType: AUDIT.INVITE_DELETE,
        changes: diffChanges(auditView(inv), null),
        reason,
      });
      return inv;
    });
  }

  /**
   * At most MAX_GUILD_INVITES live ones a server, whoever makes them (a bot cannot, spec
   * 5.11, but the people's API, the harness and a seed can): one server's list rides in every
   * GET /guilds/{id}/invites and its settings page. Expired and used-up invites count no
   * more, as on the reference, where they are gone. Counted by one writer at a time per
   * server on every node.
   */
  private requireRoomIn(guildId: string): void {
    this.d.store.serialize(`invites:${guildId}`);
    const n = (
      this.db
        .query(
          `SELECT count(*) AS n FROM invites WHERE guild_id = ?
             AND (max_age = 0 OR created_at + max_age * 1000 > ?) AND (max_uses = 0 OR uses < max_uses)`,
        )
        .get(guildId, this.d.clock.now()) as { n: number }
    ).n;
    if (n >= MAX_GUILD_INVITES) throw DomainError.maximum(30016, `Maximum number of invites reached (${MAX_GUILD_INVITES})`);
  }

  /** GET /guilds/{id}/invites (bot API): members with MANAGE_GUILD or VIEW_AUDIT_LOG. */
  forGuild(actorId: string, guildId: string): Invite[] {
    if (!this.guilds.get(guildId) || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    const p = this.guilds.permissions(guildId, actorId);
    if (!hasPermission(p, PERMISSIONS.MANAGE_GUILD) && !hasPermission(p, PERMISSIONS.VIEW_AUDIT_LOG)) throw DomainError.forbidden();
    return this.list(guildId);
  }

  /** GET /channels/{id}/invites (bot API): MANAGE_CHANNELS in the channel; a DM has none. */
  forChannel(actorId: string, channelId: string): Invite[] {
    const a = accessChannel(this.d, this.guilds, actorId, channelId);
    if (a.isDm) return [];
    requireBits(a, PERMISSIONS.MANAGE_CHANNELS);
    return (this.db.query("SELECT * FROM invites WHERE channel_id = ? ORDER BY created_at, code").all(channelId) as Invite[]).filter((r) =>
      this.live(r),
    );
  }

  /** POST /channels/{id}/invites by a bot: 404 if it cannot see the channel, else always 403 (spec 5.11). */
  refuseBotCreate(actorId: string, channelId: string): never {
    accessChannel(this.d, this.guilds, actorId, channelId);
    throw DomainError.forbidden("Bots cannot create invites");
  }

  expiresAt(inv: Invite): number | null {
    return inv.max_age === 0 ? null : inv.created_at + inv.max_age * 1000;
  }

  private live(r: Invite): boolean {
    const exp = this.expiresAt(r);
    if (exp !== null && this.d.clock.now() >= exp) return false;
    return r.max_uses === 0 || r.uses < r.max_uses;
  }

  private freshCode(): string {
    for (;;) {
      const bytes = crypto.getRandomValues(new Uint8Array(8));
      let code = "";
      for (const b of bytes) code += ALPHABET[b % ALPHABET.length];
      if (!this.db.query("SELECT 1 FROM invites WHERE code = ?").get(code)) return code;
    }
  }
}

/** An invite's fields as its audit entries record them (reference-gaps 2.5: the invite's fields and its channel_id). */
function auditView(inv: Invite): Record<string, unknown> {
  return {
    code: inv.code,
    channel_id: inv.channel_id,
    inviter_id: inv.inviter_id,
    uses: inv.uses,
    max_uses: inv.max_uses,
    max_age: inv.max_age,
    temporary: !!inv.temporary,
  };
}
