import type { CoreDeps } from "./deps";
import type { Application, User } from "./models";
import { APPLICATION_COLUMNS, type ApplicationRow } from "./rows";
import type { Users } from "./users";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { constantTimeEqualHex, newEd25519PublicKeyHex, randomSecret, sha256Hex } from "./crypto";
import { ALL_INTENTS, NON_PRIVILEGED_INTENTS, PRIVILEGED_INTENTS } from "./permissions";
import { Memo } from "./memo";
import { statement } from "./statement";
import { AUDIT, type Audit } from "./audit";
import { requireAdministrator, type Actor } from "./admins";

export interface MintedSecret {
  secret: string;
  version: number;
}

/**
 * Applications and their bot users. A token's grant (intents) and version are fixed
 * when it is minted; changing intents only affects the next token (spec 5.4), except
 * that an administrator's revocation of a privileged intent takes it from the current
 * token at once (currentGrant). Only the digest of the token's secret is stored. Whatever
 * ends a token or narrows its grant is a domain event like any other, and reaches the
 * server's live sessions whichever process wrote it (store/relay.ts).
 */
export class Applications {
  /**
   * Every authenticated request reads its bot's application: kept until the table changes
   * (core/memo.ts), with its token's digest beside the model, for authenticate() alone.
   */
  private readonly byBot: Memo<{ app: Application; tokenHash: string | null } | null>;
  private readonly byBotStmt;

  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly guilds: Guilds,
    private readonly audit: Audit,
  ) {
    this.byBot = new Memo(d.store, ["applications"], { enabled: d.fastPaths.memo });
    this.byBotStmt = statement(d.store, `SELECT ${APPLICATION_COLUMNS()}, token_hash FROM applications WHERE bot_user_id = ?`);
  }

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Application | null {
    return this.db.query(`SELECT ${APPLICATION_COLUMNS()} FROM applications WHERE id = ?`).get(id) as Application | null;
  }

  require(id: string): Application {
    const a = this.get(id);
    if (!a) throw DomainError.notFound("application");
    return a;
  }

  /**
   * The application an install link names: by its own id, or by its bot user's. On the
   * reference a modern application's id is its bot's user id, so bots print install links
   * with `client.user.id` as client_id; here the two differ, and either finds the one
   * application (a person's or another id finds none).
   */
  requireLinked(id: string): Application {
    const a = this.get(id) ?? this.byBotUser(id);
    if (!a) throw DomainError.notFound("application");
    return a;
  }

  /** Only the owning account can see or change an application (spec 2.2). */
  requireOwned(id: string, ownerId: string): Application {
    const a = this.get(id);
    if (!a || a.owner_id !== ownerId) throw DomainError.notFound("application");
    return a;
  }

  byBotUser(botUserId: string): Application | null {
    return this.stored(botUserId)?.app ?? null;
  }

  private stored(botUserId: string): { app: Application; tokenHash: string | null } | null {
    return this.byBot.get(botUserId, () => {
      const row = this.byBotStmt().get(botUserId) as ApplicationRow | null;
      if (!row) return null;
      const { token_hash: tokenHash, ...app } = row;
      return { app: Object.freeze(app), tokenHash };
    });
  }

  /** The applications whose bot is a member of the guild. */
  inGuild(guildId: string): Application[] {
    return this.db
      .query(
        `SELECT ${APPLICATION_COLUMNS("a")} FROM applications a JOIN members m ON m.user_id = a.bot_user_id AND m.guild_id = ? ORDER BY a.id`,
      )
      .all(guildId) as Application[];
  }

  listOwned(ownerId: string): Application[] {
    return this.db.query(`SELECT ${APPLICATION_COLUMNS()} FROM applications WHERE owner_id = ? ORDER BY id`).all(ownerId) as Application[];
  }

  /** Applications with privileged intents requested and not (yet) approved or denied, oldest first. */
  awaitingApproval(): Application[] {
    return this.db
      .query(`SELECT ${APPLICATION_COLUMNS()} FROM applications WHERE (privileged_requested & ~privileged_approved) != 0 ORDER BY id`)
      .all() as Application[];
  }

  /** Applications holding an approved privileged intent, oldest first. */
  withApprovals(): Application[] {
    return this.db
      .query(`SELECT ${APPLICATION_COLUMNS()} FROM applications WHERE privileged_approved != 0 ORDER BY id`)
      .all() as Application[];
  }

  /** Applications with this exact name, oldest first (names are not unique). */
  named(name: string): Application[] {
    return this.db.query(`SELECT ${APPLICATION_COLUMNS()} FROM applications WHERE name = ? ORDER BY id`).all(name) as Application[];
  }

  all(): Application[] {
    return this.db.query(`SELECT ${APPLICATION_COLUMNS()} FROM applications ORDER BY id`).all() as Application[];
  }

  /** Intents the application may use now: every non-privileged one asked for, plus approved privileged ones. */
  grant(a: Pick<Application, "intents" | "privileged_approved">): number {
    return a.intents & (NON_PRIVILEGED_INTENTS | (a.privileged_approved & PRIVILEGED_INTENTS));
  }

  /**
   * What the current token may use now: the intents minted into it, less any privileged
   * one an administrator has revoked since (REST content gating, IDENTIFY and RESUME).
   */
  currentGrant(a: Pick<Application, "token_intents" | "privileged_approved">): number {
    return a.token_intents & (NON_PRIVILEGED_INTENTS | (a.privileged_approved & PRIVILEGED_INTENTS));
  }

  create(input: { ownerId: string; name: string; description?: string; intents?: number }): {
    app: Application;
    bot: User;
    token: MintedSecret;
  } {
    const name = input.name.trim();
    if (name.length < 2 || name.length > 32)
      throw DomainError.invalid("name", "Must be between 2 and 32 in length.", "BASE_TYPE_BAD_LENGTH");
    const description = input.description ?? "";
    if (description.length > 400) throw DomainError.invalid("description", "Must be 400 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
    return this.d.store.write(() => {
      const owner = this.users.require(input.ownerId);
      if (owner.kind !== "person") throw DomainError.forbidden("Bot users cannot own applications");
      const bot = this.users.createBot(name);
      const intents = (input.intents ?? NON_PRIVILEGED_INTENTS) & ALL_INTENTS;
      const app: ApplicationRow = {
        id: this.d.ids.next(),
        owner_id: owner.id,
        bot_user_id: bot.id,
        name,
        description,
        intents,
        privileged_requested: intents & PRIVILEGED_INTENTS,
        privileged_approved: 0,
        privileged_denied: 0,
        public_key: newEd25519PublicKeyHex(),
        interactions_endpoint_url: null,
        token_version: 0,
        token_hash: null,
        token_intents: 0,
        created_at: this.d.clock.now(),
        disabled_at: null,
      };
      this.db
        .query(
          `INSERT INTO applications (id, owner_id, bot_user_id, name, description, intents, privileged_requested, privileged_approved, privileged_denied,
             public_key, interactions_endpoint_url, token_version, token_hash, token_intents, created_at, disabled_at)
           VALUES ($id, $owner_id, $bot_user_id, $name, $description, $intents, $privileged_requested, $privileged_approved, $privileged_denied, $public_key,
             $interactions_endpoint_url, $token_version, $token_hash, $token_intents, $created_at, $disabled_at)`,
        )
        .run(app as never);
      const token = this.mint(app.id);
      return { app: this.require(app.id), bot, token };
    });
  }

  /** Mint a new token: version n -> n+1; older tokens are refused from now on. */
  rotateToken(appId: string): MintedSecret {
    return this.d.store.write(() => {
      this.require(appId);
      const t = this.mint(appId);
      this.d.store.emit({ type: "application.token_rotated", applicationId: appId });
      return t;
    });
  }

  private mint(appId: string): MintedSecret {
    const a = this.require(appId);
    const secret = randomSecret(32);
    const version = a.token_version + 1;
    this.db
      .query("UPDATE applications SET token_version = ?, token_hash = ?, token_intents = ? WHERE id = ?")
      .run(version, sha256Hex(secret), this.grant(a), appId);
    return { secret, version };
  }

  /**
   * The application whose current token this is, or null. Constant-time on the secret.
   * The row comes from memory only while the table is unchanged, as far as this process
   * and any other (the CLI) are concerned (core/memo.ts), so a rotation refuses the old
   * token at once; the digest computation is memoised, keyed by the secrets already
   * verified once (the row's id and version are compared on every call).
   */
  authenticate(botUserId: string, version: number, secret: string): Application | null {
    const found = this.stored(botUserId);
    if (!found || !found.tokenHash) return null;
    const { app: a, tokenHash } = found;
    if (a.token_version !== version || a.disabled_at !== null) return null;
    const known = this.verified.get(secret);
    if (known !== undefined) return known === tokenHash ? a : null;
    const digest = sha256Hex(secret);
    if (!constantTimeEqualHex(digest, tokenHash)) return null;
    if (!this.d.fastPaths.tokenMemo) return a;
    if (this.verified.size >= 10_000) this.verified.clear();
    this.verified.set(secret, digest);
    return a;
  }

  private verified = new Map<string, string>();

  update(appId: string, patch: { name?: string; description?: string; interactionsEndpointUrl?: string | null }): Application {
    return this.d.store.write(() => {
      // The row is written whole: read as committed, one edit at a time on every node.
      this.d.store.serialize(`application:${appId}`);
      const a = this.require(appId);
      const name = patch.name?.trim() ?? a.name;
      if (name.length < 2 || name.length > 32) throw DomainError.invalid("name", "Must be between 2 and 32 in length.");
      const description = patch.description ?? a.description;
      if (description.length > 400) throw DomainError.invalid("description", "Must be 400 or fewer in length.");
      let url = a.interactions_endpoint_url;
      if (patch.interactionsEndpointUrl !== undefined) {
        url = patch.interactionsEndpointUrl;
        if (url !== null) {
          let ok = false;
          try {
            ok = new URL(url).protocol === "https:";
          } catch {}
          if (!ok || url.length > 2048)
            throw DomainError.invalid("interactions_endpoint_url", "Must be an https URL", "URL_TYPE_INVALID_URL");
        }
      }
      this.db
        .query("UPDATE applications SET name = ?, description = ?, interactions_endpoint_url = ? WHERE id = ?")
        .run(name, description, url, appId);
      if (name !== a.name) this.db.query("UPDATE users SET username = ? WHERE id = ?").run(name, a.bot_user_id);
      return this.require(appId);
    });
  }

  /**
   * Set the intents the application asks for. Privileged ones are recorded as a request
   * for an administrator, except those an administrator denied: asking again takes
   * `requestPrivileged`. The current token keeps its grant until the next rotation.
   */
  setIntents(appId: string, intents: number): Application {
    return this.d.store.write(() => {
      this.require(appId);
      const bits = intents & ALL_INTENTS;
      this.db
        .query("UPDATE applications SET intents = ?, privileged_requested = privileged_requested | (? & ~privileged_denied) WHERE id = ?")
        .run(bits, bits & PRIVILEGED_INTENTS, appId);
      this.d.store.emit({ type: "application.intents_changed", applicationId: appId });
      return this.require(appId);
    });
  }

  /** The owner asks an administrator for privileged intents (again, after a denial); they join the intents asked for. */
  requestPrivileged(appId: string, bits: number): Application {
    return this.d.store.write(() => {
      this.require(appId);
      const p = bits & PRIVILEGED_INTENTS;
      this.db
        .query(
          "UPDATE applications SET intents = intents | ?1, privileged_requested = privileged_requested | ?1, privileged_denied = privileged_denied & ~?1 WHERE id = ?2",
        )
        .run(p, appId);
      this.d.store.emit({ type: "application.intents_changed", applicationId: appId });
      return this.require(appId);
    });
  }

  /**
   * An administrator approves privileged intents, or denies them (a pending request, or
   * an approval given before: a revocation). A denied intent is no longer pending, and
   * stays denied until the owner asks again. `adminId` null means the operator of this
   * server (CLI, seed), who is the administrator by definition.
   */
  approvePrivileged(appId: string, adminId: string | null, bits: number, approve = true): Application {
    return this.d.store.write(() => {
      requireAdministrator(this.d, adminId);
      this.require(appId);
      const p = bits & PRIVILEGED_INTENTS;
      // In SQL, from the row as it is when written: an owner's request at that moment on another node stays.
      this.db
        .query(
          approve
            ? "UPDATE applications SET privileged_approved = privileged_approved | ?1, privileged_denied = privileged_denied & ~?1 WHERE id = ?2"
            : // ?1 first met beside a column, so Postgres knows its type before it meets ~?1.
              "UPDATE applications SET privileged_denied = privileged_denied | ?1, privileged_approved = privileged_approved & ~?1, privileged_requested = privileged_requested & ~?1 WHERE id = ?2",
        )
        .run(p, appId);
      this.d.store.emit({ type: "application.intents_changed", applicationId: appId });
      return this.require(appId);
    });
  }

  /**
   * Install the bot into a guild; the installer needs Manage Server, Administrator or
   * ownership (spec 5.10). The audit log records who added it (BOT_ADD, 28); installing a
   * bot already there changes nothing.
   */
  install(appId: string, guildId: string, byUserId: string): void {
    this.d.store.write(() => {
      const a = this.require(appId);
      this.guilds.require(guildId);
      if (!this.guilds.canManageGuild(guildId, byUserId)) throw DomainError.forbidden("You need Manage Server on this server");
      this.guilds.lockMember(guildId, a.bot_user_id);
      if (this.guilds.isMember(guildId, a.bot_user_id)) return;
      this.guilds.addMember(guildId, a.bot_user_id);
      this.audit.record({ guildId, actorId: byUserId, actionType: AUDIT.BOT_ADD, targetId: a.bot_user_id });
    });
  }

  /** Pending privileged-intent requests, for an administrator (or the operator). */
  privilegedRequests(actorId: Actor): Application[] {
    requireAdministrator(this.d, actorId);
    return this.awaitingApproval();
  }

  /** Applications holding approved privileged intents, for an administrator (or the operator). */
  privilegedGrants(actorId: Actor): Application[] {
    requireAdministrator(this.d, actorId);
    return this.withApprovals();
  }

  /** The application's owner removes its bot from one guild. */
  uninstall(appId: string, guildId: string, byUserId: string): void {
    this.d.store.write(() => {
      const a = this.requireOwned(appId, byUserId);
      this.guilds.removeMember(guildId, a.bot_user_id);
    });
  }

  /**
   * Delete an application: its bot leaves every guild, its token, webhooks, commands
   * and interactions go with it (cascades), at once.
   */
  delete(appId: string): void {
    this.d.store.write(() => {
      const a = this.require(appId);
      for (const gid of this.guilds.guildIdsOf(a.bot_user_id)) {
        this.db.query("DELETE FROM members WHERE guild_id = ? AND user_id = ?").run(gid, a.bot_user_id);
        this.d.store.emit({ type: "member.removed", guildId: gid, userId: a.bot_user_id });
      }
      this.db.query("DELETE FROM applications WHERE id = ?").run(appId);
      this.db.query("UPDATE users SET deleted_at = ? WHERE id = ?").run(this.d.clock.now(), a.bot_user_id);
      this.d.store.emit({ type: "application.deleted", applicationId: appId, botUserId: a.bot_user_id });
    });
  }

  /**
   * The operator disables an application (or enables it again): while disabled its token
   * is refused on REST and the gateway and its live sessions end; nothing else of it
   * changes, so enabling it again needs no new token.
   */
  setDisabled(appId: string, disabled: boolean): Application {
    return this.d.store.write(() => {
      const a = this.require(appId);
      if ((a.disabled_at !== null) === disabled) return a;
      this.db.query("UPDATE applications SET disabled_at = ? WHERE id = ?").run(disabled ? this.d.clock.now() : null, appId);
      if (disabled) this.d.store.emit({ type: "application.disabled", applicationId: appId });
      return this.require(appId);
    });
  }
}
