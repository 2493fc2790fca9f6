/**
 * What an administrator does to a person's account as a whole: list and search people,
 * disable (and their applications with them), delete, make or unmake an administrator.
 * Every surface that offers it (the `/admin` pages, the `parley user` commands) calls
 * this, and the right to do so is checked here (core/admins.ts): an administrator, or the
 * operator (`actorId` null). The instance always keeps an administrator who can act: the
 * last one cannot be unmade, disabled or deleted.
 */
import type { CoreDeps } from "./deps";
import type { Application, User } from "./models";
import type { Users } from "./users";
import type { Guilds } from "./guilds";
import type { Applications } from "./applications";
import type { Devices } from "./devices";
import { DomainError } from "./errors";
import { USER_COLUMNS } from "./rows";
import { administratorCount, isAdministrator, requireAdministrator, type Actor } from "./admins";

/** What deleting a person did. */
export interface Deleted {
  username: string;
  /** Their messages, which stay, shown as from "Deleted User". */
  messages: number;
  /** Servers they were removed from. */
  servers: number;
}

export const DELETED_NAME = "Deleted User";

/** A person as the administrators' list shows them: with the applications they own (disabling can take those too). */
export interface AccountModel {
  user: User;
  applications: Application[];
  /** Servers they own (deleting them waits for these to be given away or deleted). */
  ownedGuilds: number;
}

export interface AccountQuery {
  /** Part of a username or display name, any case. */
  search?: string;
  /** Internal id bound (exclusive): the page after it. */
  after?: string;
  limit?: number;
}

export class Accounts {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly guilds: Guilds,
    private readonly apps: Applications,
    private readonly devices: Devices,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** People (never deleted ones), oldest first, a page at a time; `search` matches usernames and display names. */
  list(actorId: Actor, q: AccountQuery = {}): AccountModel[] {
    requireAdministrator(this.d, actorId);
    const limit = q.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw DomainError.invalid("limit", "Must be between 1 and 1000.");
    const like = `%${(q.search ?? "")
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const people = this.db
      .query(
        `SELECT ${USER_COLUMNS()} FROM users WHERE kind = 'person' AND deleted_at IS NULL AND id > ?
         AND (lower(username) LIKE ?2 ESCAPE '\\' OR lower(coalesce(global_name, '')) LIKE ?2 ESCAPE '\\') ORDER BY id LIMIT ?3`,
      )
      .all(q.after ?? "", like, limit) as User[];
    return people.map((user) => ({
      user,
      applications: this.apps.listOwned(user.id),
      ownedGuilds: (this.db.query("SELECT count(*) AS n FROM guilds WHERE owner_id = ?").get(user.id) as { n: number }).n,
    }));
  }

  /**
   * Disable a person (or enable them again): a disabled person cannot sign in (told so
   * once their password is right), and every session they had ends now through
   * core/sessions.ts, their open clients with it (closed 4001), in this process or the
   * server beside it. Their servers and messages stay. Their applications keep running
   * unless `applications` says to disable them too (each one's token is refused and its
   * bot's sessions end: Applications.setDisabled); enabling with it enables them again.
   * Disabling again keeps the first time.
   */
  setDisabled(actorId: Actor, userId: string, disabled: boolean, opts: { applications?: boolean } = {}): User {
    return this.d.store.write(() => {
      this.lockAdministrators();
      requireAdministrator(this.d, actorId);
      const u = this.person(userId, "disabled; disable a bot's application instead");
      if (disabled && !u.disabled_at) this.keepAnAdministrator(u, "disable");
      if (!!u.disabled_at !== disabled)
        this.db.query("UPDATE users SET disabled_at = ? WHERE id = ?").run(disabled ? this.d.clock.now() : null, userId);
      if (disabled) this.users.sessions.endAll(userId, "disabled");
      if (opts.applications) for (const a of this.apps.listOwned(userId)) this.apps.setDisabled(a.id, disabled);
      return this.users.require(userId);
    });
  }

  /**
   * Delete a person. Their messages stay where they are (a conversation keeps its sense),
   * shown as from "Deleted User": the account keeps its id but loses its name, avatar,
   * password and administrator's rights. They leave every server, their sessions and
   * devices end. Refused while they own a server or an application: those need an owner
   * (delete them, or give the servers to someone, first).
   */
  delete(actorId: Actor, userId: string): Deleted {
    return this.d.store.write(() => {
      this.lockAdministrators();
      requireAdministrator(this.d, actorId);
      const u = this.person(userId, "deleted; delete a bot's application instead");
      this.refuseOwner(u.id, u.username);
      this.keepAnAdministrator(u, "delete");
      const servers = this.guilds.guildIdsOf(userId);
      for (const gid of servers) this.guilds.removeMember(gid, userId);
      // Every session ends first, so each says the account was deleted (a removed
      // device would otherwise end the session holding it as a device's removal).
      this.users.sessions.endAll(userId, "deleted");
      for (const dev of this.devices.current(userId)) this.devices.remove(userId, dev.id);
      // A name nobody can take (usernames have no "-"); the old one is free again.
      this.db
        .query(
          "UPDATE users SET username = ?, global_name = ?, avatar = NULL, password_hash = NULL, is_admin = 0, presence = 'offline', deleted_at = ? WHERE id = ?",
        )
        .run(`Deleted-${userId.replace(/-/g, "").slice(-12)}`, DELETED_NAME, this.d.clock.now(), userId);
      const messages = (this.db.query("SELECT count(*) AS n FROM messages WHERE author_id = ?").get(userId) as { n: number }).n;
      return { username: u.username, messages, servers: servers.length };
    });
  }

  /**
   * Make a person an administrator of this instance, or no longer one. The last
   * administrator who can act stays one: make another first.
   */
  setAdmin(actorId: Actor, userId: string, admin: boolean): User {
    return this.d.store.write(() => {
      this.lockAdministrators();
      requireAdministrator(this.d, actorId);
      const u = this.person(userId, "administrators; a bot acts through its application's owner");
      if (!!u.is_admin === admin) return u;
      if (!admin) this.keepAnAdministrator(u, "unmake");
      if (admin && u.disabled_at) throw DomainError.invalid("user", `${u.username} is disabled: enable them first`, "USER_DISABLED");
      this.db.query("UPDATE users SET is_admin = ? WHERE id = ?").run(admin ? 1 : 0, userId);
      return this.users.require(userId);
    });
  }

  /**
   * Inside a write: who administers the instance, held until the write ends, so that the
   * last administrator is kept one however many step down or are disabled at once on
   * different nodes (Store.serialize), and an administrator unmade at that moment acts no more.
   */
  private lockAdministrators(): void {
    this.d.store.serialize("administrators");
  }

  /** The person, or a refusal: a bot user is its application's, and `only` says what to do instead. */
  private person(userId: string, only: string): User {
    const u = this.users.require(userId);
    if (u.kind !== "person") throw DomainError.invalid("user", `Only people's accounts are ${only}`);
    return u;
  }

  /** Refuse to take away the last administrator who can act (whoever asks, the operator included). */
  private keepAnAdministrator(u: User, act: "disable" | "delete" | "unmake"): void {
    if (!isAdministrator(this.d, u.id) || administratorCount(this.d) > 1) return;
    const what = { disable: "disabled", delete: "deleted", unmake: "made a non-administrator" }[act];
    throw new DomainError(
      "conflict",
      `${u.username} is the last administrator and cannot be ${what}: make someone else an administrator first`,
    );
  }

  private refuseOwner(userId: string, username: string): void {
    const guilds = (this.db.query("SELECT name FROM guilds WHERE owner_id = ? ORDER BY id").all(userId) as { name: string }[]).map(
      (g) => g.name,
    );
    const apps = this.apps.listOwned(userId).map((a) => a.name);
    if (!guilds.length && !apps.length) return;
    const owned = [guilds.length ? `servers ${guilds.join(", ")}` : "", apps.length ? `applications ${apps.join(", ")}` : ""]
      .filter(Boolean)
      .join(" and ");
    throw new DomainError("conflict", `${username} owns ${owned}: delete them, or give the servers to someone else, first`);
  }
}
