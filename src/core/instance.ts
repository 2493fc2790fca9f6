/**
 * The instance's own settings, as its administrators set them (the `/admin` pages and
 * `parley registration`): who may sign up, and who may create servers; and the invites
 * that let someone sign up while registration is invite-only. Read from the database
 * whenever asked (a sign-up, a new server: rare), so a change made by a command beside
 * the server holds there at once.
 */
import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";
import { randomSecret, sha256Hex } from "./crypto";
import { requireAdministrator, type Actor } from "./admins";

export const REGISTRATION_MODES = ["open", "invite", "closed"] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];
export const GUILD_CREATORS = ["everyone", "admins"] as const;
export type GuildCreators = (typeof GUILD_CREATORS)[number];

export interface InstanceSettings {
  /** open: anyone signs up; invite: with an instance invite; closed: nobody (the operator still creates people). */
  registration: RegistrationMode;
  /** Who may create servers: every person, or administrators only. */
  guildCreation: GuildCreators;
}

const DEFAULTS: InstanceSettings = { registration: "open", guildCreation: "everyone" };

/** An invite to sign up on this instance; its code is shown once, when made. */
export interface InstanceInvite {
  id: string;
  created_by: string | null;
  /** 0 = unlimited. */
  max_uses: number;
  uses: number;
  expires_at: number | null;
  created_at: number;
}

/** Bounds of an instance invite: at most 1000 uses, at most a year. */
export const INSTANCE_INVITE_MAX_USES = 1000;
export const INSTANCE_INVITE_MAX_AGE_MS = 365 * 86_400_000;

export class Instance {
  constructor(private readonly d: CoreDeps) {}

  private get db() {
    return this.d.store.db;
  }

  settings(): InstanceSettings {
    const rows = this.db.query("SELECT key, value FROM instance_settings").all() as { key: string; value: string }[];
    const got = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return {
      registration: (REGISTRATION_MODES as readonly string[]).includes(got.registration)
        ? (got.registration as RegistrationMode)
        : DEFAULTS.registration,
      guildCreation: (GUILD_CREATORS as readonly string[]).includes(got.guild_creation)
        ? (got.guild_creation as GuildCreators)
        : DEFAULTS.guildCreation,
    };
  }

  /** An administrator changes who may sign up, or who may create servers (either, or both). */
  update(actorId: Actor, patch: Partial<InstanceSettings>): InstanceSettings {
    if (patch.registration !== undefined && !REGISTRATION_MODES.includes(patch.registration))
      throw DomainError.invalid("registration", `Must be one of ${REGISTRATION_MODES.join(", ")}`, "BASE_TYPE_CHOICES");
    if (patch.guildCreation !== undefined && !GUILD_CREATORS.includes(patch.guildCreation))
      throw DomainError.invalid("guild_creation", `Must be one of ${GUILD_CREATORS.join(", ")}`, "BASE_TYPE_CHOICES");
    return this.d.store.write(() => {
      requireAdministrator(this.d, actorId);
      const put = this.db.query(
        "INSERT INTO instance_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      );
      if (patch.registration !== undefined) put.run("registration", patch.registration);
      if (patch.guildCreation !== undefined) put.run("guild_creation", patch.guildCreation);
      return this.settings();
    });
  }

  // ---- the gates ----

  /**
   * Whether a sign-up may go ahead, before any work is spent on it: refused while
   * registration is closed, and without a live invite while it is invite-only. Nothing
   * is used up here (admitSignUp does that, in the sign-up's transaction).
   */
  checkSignUp(invite: string | null | undefined): void {
    const mode = this.settings().registration;
    if (mode === "closed") throw DomainError.forbidden("Sign-ups are closed on this server: ask its administrator for an account");
    if (mode === "invite") this.liveInvite(invite);
  }

  /** Inside the sign-up's write: check again, and use the invite up by one when one is needed. */
  admitSignUp(invite: string | null | undefined): void {
    this.d.store.write(() => {
      // An invite's uses as committed, one sign-up at a time on every node: the last use admits one.
      this.d.store.serialize("instance-invites");
      this.checkSignUp(invite);
      if (this.settings().registration !== "invite") return;
      const inv = this.liveInvite(invite);
      this.db.query("UPDATE instance_invites SET uses = uses + 1 WHERE id = ?").run(inv.id);
    });
  }

  /** 403 unless this person may create a server now. */
  requireMayCreateGuild(userId: string): void {
    if (this.settings().guildCreation === "everyone") return;
    const u = this.db.query("SELECT is_admin FROM users WHERE id = ?").get(userId) as { is_admin: number } | null;
    if (!u?.is_admin) throw DomainError.forbidden("Only administrators may create servers on this server");
  }

  // ---- instance invites ----

  /**
   * An administrator makes an invite to sign up. `code` is shown now and never again (only
   * its digest is kept). `maxUses` 0 = unlimited; `expiresInMs` null = never.
   */
  createInvite(actorId: Actor, opts: { maxUses?: number; expiresInMs?: number | null } = {}): { code: string; invite: InstanceInvite } {
    const maxUses = opts.maxUses ?? 1;
    const ttl = opts.expiresInMs === undefined ? 7 * 86_400_000 : opts.expiresInMs;
    if (!Number.isInteger(maxUses) || maxUses < 0 || maxUses > INSTANCE_INVITE_MAX_USES)
      throw DomainError.invalid("max_uses", `Must be between 0 and ${INSTANCE_INVITE_MAX_USES}.`, "NUMBER_TYPE_MAX");
    if (ttl !== null && (!Number.isInteger(ttl) || ttl < 60_000 || ttl > INSTANCE_INVITE_MAX_AGE_MS))
      throw DomainError.invalid("max_age", "Must be between a minute and a year.", "NUMBER_TYPE_MAX");
    return this.d.store.write(() => {
      requireAdministrator(this.d, actorId);
      const now = this.d.clock.now();
      const code = randomSecret(12);
      const invite: InstanceInvite = {
        id: this.d.ids.next(),
        created_by: actorId,
        max_uses: maxUses,
        uses: 0,
        expires_at: ttl === null ? null : now + ttl,
        created_at: now,
      };
      this.db
        .query(
          "INSERT INTO instance_invites (id, code_hash, created_by, max_uses, uses, expires_at, created_at) VALUES (?, ?, ?, ?, 0, ?, ?)",
        )
        .run(invite.id, sha256Hex(code), actorId, maxUses, invite.expires_at, now);
      return { code, invite };
    });
  }

  /** The invites that still admit someone, oldest first (used-up and expired ones are gone from the list). */
  invites(actorId: Actor): InstanceInvite[] {
    requireAdministrator(this.d, actorId);
    const rows = this.db
      .query("SELECT id, created_by, max_uses, uses, expires_at, created_at FROM instance_invites ORDER BY id")
      .all() as InstanceInvite[];
    return rows.filter((r) => this.live(r));
  }

  /** An administrator revokes an invite: nobody signs up with it any more. */
  revokeInvite(actorId: Actor, id: string): void {
    this.d.store.write(() => {
      requireAdministrator(this.d, actorId);
      if (this.db.query("DELETE FROM instance_invites WHERE id = ?").run(id).changes !== 1) throw DomainError.notFound("invite");
    });
  }

  private liveInvite(code: string | null | undefined): InstanceInvite {
    if (!code)
      throw DomainError.invalid("invite", "Signing up on this server needs an invite: ask its administrator for one", "INVITE_REQUIRED");
    const row = this.db
      .query("SELECT id, created_by, max_uses, uses, expires_at, created_at FROM instance_invites WHERE code_hash = ?")
      .get(sha256Hex(code.trim())) as InstanceInvite | null;
    if (!row || !this.live(row))
      throw DomainError.invalid("invite", "This invite is not valid: it may have expired or been used up", "INVITE_INVALID");
    return row;
  }

  private live(r: InstanceInvite): boolean {
    if (r.expires_at !== null && this.d.clock.now() >= r.expires_at) return false;
    return r.max_uses === 0 || r.uses < r.max_uses;
  }
}
