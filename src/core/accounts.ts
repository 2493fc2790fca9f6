/**
 * What an administrator does to a person's account as a whole (the operator's `parley
 * user disable` and `user delete`; the admin pages use the same): every surface that
 * offers it calls this, and the rights to do so are the caller's to check.
 */
import type { CoreDeps } from "./deps";
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
   * Disable a person (or enable them again): a disabled person cannot sign in, and every
   * session they had ends now, their open clients with it. Nothing else of theirs
   * changes: their servers, messages and applications stay as they are.
   */
  setDisabled(userId: string, disabled: boolean): void {
    this.d.store.write(() => {
      const u = this.person(userId);
      if (!!u.disabled_at === disabled) return;
      this.d.store.db.query("UPDATE users SET disabled_at = ? WHERE id = ?").run(disabled ? this.d.clock.now() : null, userId);
      if (disabled) this.users.endSessions(userId);
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
      const u = this.person(userId);
      this.refuseOwner(u.id, u.username);
      const servers = this.guilds.guildIdsOf(userId);
      for (const gid of servers) this.guilds.removeMember(gid, userId);
      for (const dev of this.devices.current(userId)) this.devices.remove(userId, dev.id);
      this.users.endSessions(userId);
      // A name nobody can take (usernames have no "-"); the old one is free again.
      this.d.store.db
        .query("UPDATE users SET username = ?, global_name = ?, avatar = NULL, password_hash = NULL, is_admin = 0, presence = 'offline', deleted_at = ? WHERE id = ?")
        .run(`Deleted-${userId.replace(/-/g, "").slice(-12)}`, DELETED_NAME, this.d.clock.now(), userId);
      const messages = (this.d.store.db.query("SELECT count(*) AS n FROM messages WHERE author_id = ?").get(userId) as { n: number }).n;
      return { username: u.username, messages, servers: servers.length };
    });
  }

  private person(userId: string) {
    const u = this.users.require(userId);
    if (u.kind !== "person") throw DomainError.notFound("user");
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
