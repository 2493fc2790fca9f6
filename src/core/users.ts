import type { CoreDeps } from "./deps";
import type { UserRow } from "./types";
import { DomainError } from "./errors";
import { hashPassword, randomSecret, sha256Hex, verifyPassword } from "./crypto";
import { Memo } from "./memo";
import { statement } from "./statement";

const USERNAME = /^[a-z0-9_.]{2,32}$/;
export const PRESENCES = ["online", "idle", "dnd", "offline"] as const;
export type Presence = (typeof PRESENCES)[number];

/** People and bot users: identities, passwords, people's sessions, presence. */
export class Users {
  /** Authors, mentions and bots are read on every message: kept until the table changes (core/memo.ts). */
  private readonly byId: Memo<UserRow | null>;
  private readonly byIdStmt;

  constructor(private readonly d: CoreDeps) {
    this.byId = new Memo(d.store, ["users"]);
    this.byIdStmt = statement(d.store.db, "SELECT * FROM users WHERE id = ?");
  }

  get(id: string): UserRow | null {
    return this.byId.get(id, () => this.byIdStmt().get(id) as UserRow | null);
  }

  require(id: string): UserRow {
    const u = this.get(id);
    if (!u || u.deleted_at) throw DomainError.notFound("user");
    return u;
  }

  byUsername(username: string): UserRow | null {
    return this.d.store.db
      .query("SELECT * FROM users WHERE kind = 'person' AND lower(username) = lower(?)")
      .get(username) as UserRow | null;
  }

  /** How many people and bot users exist (an empty world has none). */
  count(): number {
    return (this.d.store.db.query("SELECT count(*) AS n FROM users").get() as { n: number }).n;
  }

  /** A bot user by its name (its application's name), oldest first when names repeat. */
  botNamed(name: string): UserRow | null {
    return this.d.store.db
      .query("SELECT * FROM users WHERE kind = 'bot' AND username = ? AND deleted_at IS NULL ORDER BY id LIMIT 1")
      .get(name) as UserRow | null;
  }

  createPerson(input: { username: string; password?: string | null; admin?: boolean; globalName?: string | null }): UserRow {
    const username = input.username.toLowerCase();
    if (!USERNAME.test(username))
      throw DomainError.invalid("username", "Must be 2 to 32 characters of a-z, 0-9, _ and .", "USERNAME_INVALID");
    if (input.password != null && (input.password.length < 8 || input.password.length > 256))
      throw DomainError.invalid("password", "Must be 8 to 256 characters long", "PASSWORD_INVALID");
    return this.d.store.write(() => {
      if (this.byUsername(username)) throw new DomainError("conflict", "Username is already taken");
      const row: UserRow = {
        id: this.d.ids.next(),
        kind: "person",
        username,
        global_name: input.globalName ?? null,
        avatar: null,
        password_hash: input.password ? hashPassword(input.password) : null,
        is_admin: input.admin ? 1 : 0,
        locale: "en-US",
        presence: "offline",
        created_at: this.d.clock.now(),
        deleted_at: null,
      };
      this.insert(row);
      return row;
    });
  }

  /** A new person with the session that signed them up, in one transaction: never one without the other. */
  signUp(input: { username: string; password: string; globalName?: string | null }): { user: UserRow; token: string } {
    return this.d.store.write(() => {
      const user = this.createPerson(input);
      return { user, token: this.openSession(user.id) };
    });
  }

  /** Bot users are created only with their application. */
  createBot(name: string): UserRow {
    const row: UserRow = {
      id: this.d.ids.next(),
      kind: "bot",
      username: name.slice(0, 32),
      global_name: null,
      avatar: null,
      password_hash: null,
      is_admin: 0,
      locale: "en-US",
      presence: "offline",
      created_at: this.d.clock.now(),
      deleted_at: null,
    };
    this.insert(row);
    return row;
  }

  /** Sign a person in; bot users and people without passwords cannot. Returns a session token. */
  signIn(username: string, password: string): { token: string; user: UserRow } {
    const u = this.byUsername(username);
    // Verify even when missing, so timing does not reveal which usernames exist.
    const ok = verifyPassword(password, u?.password_hash ?? dummyHash());
    if (!u || !u.password_hash || u.deleted_at || !ok) throw DomainError.unauthorized("Invalid username or password");
    return { token: this.openSession(u.id), user: u };
  }

  /** A people's-API session for a person (sign-in, sign-up, harness seeding). */
  openSession(userId: string): string {
    const token = `ps_${randomSecret(32)}`;
    this.d.store.write(() => {
      this.d.store.db
        .query("INSERT INTO person_sessions (token_hash, user_id, created_at) VALUES (?, ?, ?)")
        .run(sha256Hex(token), userId, this.d.clock.now());
    });
    return token;
  }

  signOut(token: string): void {
    this.d.store.write(() => {
      this.d.store.db.query("DELETE FROM person_sessions WHERE token_hash = ?").run(sha256Hex(token));
    });
  }

  authenticateSession(token: string): UserRow | null {
    const row = this.d.store.db
      .query(
        "SELECT u.* FROM person_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND u.kind = 'person' AND u.deleted_at IS NULL",
      )
      .get(sha256Hex(token)) as UserRow | null;
    return row;
  }

  setPresence(userId: string, status: Presence): void {
    if (!PRESENCES.includes(status)) throw DomainError.invalid("status", "Must be one of online, idle, dnd, offline");
    this.d.store.write(() => {
      const u = this.require(userId);
      if (u.presence === status) return;
      this.d.store.db.query("UPDATE users SET presence = ? WHERE id = ?").run(status, userId);
      this.d.store.emit({ type: "presence.updated", userId, status });
    });
  }

  private insert(row: UserRow): void {
    this.d.store.db
      .query(
        `INSERT INTO users (id, kind, username, global_name, avatar, password_hash, is_admin, locale, presence, created_at, deleted_at)
         VALUES ($id, $kind, $username, $global_name, $avatar, $password_hash, $is_admin, $locale, $presence, $created_at, $deleted_at)`,
      )
      .run(row as never);
  }
}

let dummy: string | undefined;
function dummyHash(): string {
  return (dummy ??= hashPassword("parley-dummy-password"));
}
