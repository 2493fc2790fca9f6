/**
 * What an administrator does to a person's account as a whole (the operator's `parley
 * user disable` and `user delete` today): every surface that offers it (the admin pages,
 * when they do) calls this, and the rights to do so are the caller's to check.
 */
import type { CoreDeps } from "./deps";
import type { User } from "./models";
import type { Users } from "./users";
import type { Guilds } from "./guilds";
import type { Applications } from "./applications";
import type { Devices } from "./devices";
import { DomainError } from "./errors";

/** What deleting a person did. */
export interface Deleted {
  username: string;
  /** Their messages, which stay, shown as from "Deleted User". */
  messages: number;
  /** Servers they were removed from. */
  servers: number;
}

export const DELETED_NAME = "Deleted User";

export class Accounts {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly guilds: Guilds,
    private readonly apps: Applications,
    private readonly devices: Devices,
  ) {}

  /**
   * Disable a person (or enable them again): a disabled person cannot sign in (told so
   * once their password is right), and every session they had ends now through
   * core/sessions.ts, their open clients with it (closed 4001), in this process or the
   * server beside it. Nothing else of theirs changes: their servers, messages and
   * applications stay as they are, their bots keep running (an application is disabled on
   * its own: Applications.setDisabled). Disabling again keeps the first time.
   */
  setDisabled(userId: string, disabled: boolean): User {
    return this.d.store.write(() => {
      const u = this.person(userId, "disabled; disable a bot's application instead");
      if (!!u.disabled_at !== disabled) this.d.store.db.query("UPDATE users SET disabled_at = ? WHERE id = ?").run(disabled ? this.d.clock.now() : null, userId);
      if (disabled) this.users.sessions.endAll(userId, "disabled");
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
  delete(userId: string): Deleted {
    return this.d.store.write(() => {
      const u = this.person(userId, "deleted; delete a bot's application instead");
      this.refuseOwner(u.id, u.username);
      const servers = this.guilds.guildIdsOf(userId);
      for (const gid of servers) this.guilds.removeMember(gid, userId);
      // Every session ends first, so each says the account was deleted (a removed
      // device would otherwise end the session holding it as a device's removal).
      this.users.sessions.endAll(userId, "deleted");
      for (const dev of this.devices.current(userId)) this.devices.remove(userId, dev.id);
      // A name nobody can take (usernames have no "-"); the old one is free again.
      this.d.store.db
        .query("UPDATE users SET username = ?, global_name = ?, avatar = NULL, password_hash = NULL, is_admin = 0, presence = 'offline', deleted_at = ? WHERE id = ?")
        .run(`Deleted-${userId.replace(/-/g, "").slice(-12)}`, DELETED_NAME, this.d.clock.now(), userId);
      const messages = (this.d.store.db.query("SELECT count(*) AS n FROM messages WHERE author_id = ?").get(userId) as { n: number }).n;
      return { username: u.username, messages, servers: servers.length };
    });
  }

  /** The person, or a refusal: a bot user is its application's, and `only` says what to do instead. */
  private person(userId: string, only: string): User {
    const u = this.users.require(userId);
    if (u.kind !== "person") throw DomainError.invalid("user", `Only people's accounts are ${only}`);
    return u;
  }

  private refuseOwner(userId: string, username: string): void {
    const guilds = (this.d.store.db.query("SELECT name FROM guilds WHERE owner_id = ? ORDER BY id").all(userId) as { name: string }[]).map((g) => g.name);
    const apps = this.apps.listOwned(userId).map((a) => a.name);
    if (!guilds.length && !apps.length) return;
    const owned = [guilds.length ? `servers ${guilds.join(", ")}` : "", apps.length ? `applications ${apps.join(", ")}` : ""].filter(Boolean).join(" and ");
    throw new DomainError("conflict", `${username} owns ${owned}: delete them, or give the servers to someone else, first`);
  }
}
