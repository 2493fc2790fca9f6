import type { CoreDeps } from "./deps";
import type { User } from "./models";
import { modelOf, USER_COLUMNS, type UserRow } from "./rows";
import { DomainError } from "./errors";
import { verifyPassword } from "./crypto";
import { passwordProblem } from "./passwords";
import { Memo } from "./memo";
import { statement } from "./statement";
import { Sessions, type SessionPolicy } from "./sessions";
import { displayName } from "./display-name";

const USERNAME = /^[a-z0-9_.]{2,32}$/;
export const PRESENCES = ["online", "idle", "dnd", "offline"] as const;
export type Presence = (typeof PRESENCES)[number];
/**
 * Presence changes are counted apart from the rest of the users table (store/changes.ts):
 * bots coming online must not make readers of names and avatars start over.
 */
export const PRESENCE = "users.presence";

/** Who may sign up (core/instance.ts): checked before any work, and again, using up an invite, inside the sign-up. */
export interface SignUpGate {
  checkSignUp(invite: string | null | undefined): void;
  admitSignUp(invite: string | null | undefined): void;
}

/** People and bot users: identities, passwords, presence; people's sessions are `sessions` (core/sessions.ts). */
export class Users {
  /** Authors, mentions and bots are read on every message: kept until the table changes (core/memo.ts). */
  private readonly byId: Memo<User | null>;
  private readonly byIdStmt;
  readonly sessions: Sessions;

  constructor(
    private readonly d: CoreDeps,
    policy: SessionPolicy,
    private readonly gate: SignUpGate,
  ) {
    this.byId = new Memo(d.store, ["users", PRESENCE], { enabled: d.fastPaths.memo });
    this.byIdStmt = statement(d.store, `SELECT ${USER_COLUMNS()} FROM users WHERE id = ?`);
    this.sessions = new Sessions(d, policy, (id) => this.get(id));
  }

  get(id: string): User | null {
    return this.byId.get(id, () => this.byIdStmt().get(id) as User | null);
  }

  require(id: string): User {
    const u = this.get(id);
    if (!u || u.deleted_at) throw DomainError.notFound("user");
    return u;
  }

  byUsername(username: string): User | null {
    return this.d.store.db
      .query(`SELECT ${USER_COLUMNS()} FROM users WHERE kind = 'person' AND lower(username) = lower(?)`)
      .get(username) as User | null;
  }

  /** The stored password hash of a person (sign-in and password changes only: it never leaves the core). */
  private credentialOf(where: "id" | "username", value: string): { id: string; password_hash: string | null } | null {
    const by = where === "id" ? "id = ?" : "kind = 'person' AND lower(username) = lower(?)";
    return this.d.store.db.query(`SELECT id, password_hash FROM users WHERE ${by}`).get(value) as {
      id: string;
      password_hash: string | null;
    } | null;
  }

  /** Every person not deleted, oldest first (the operator's list). */
  people(): User[] {
    return this.d.store.db
      .query(`SELECT ${USER_COLUMNS()} FROM users WHERE kind = 'person' AND deleted_at IS NULL ORDER BY id`)
      .all() as User[];
  }

  /** How many people and bot users exist (an empty world has none). */
  count(): number {
    return (this.d.store.db.query("SELECT count(*) AS n FROM users").get() as { n: number }).n;
  }

  /** A bot user by its name (its application's name), oldest first when names repeat. */
  botNamed(name: string): User | null {
    return this.d.store.db
      .query(`SELECT ${USER_COLUMNS()} FROM users WHERE kind = 'bot' AND username = ? AND deleted_at IS NULL ORDER BY id LIMIT 1`)
      .get(name) as User | null;
  }

  /**
   * A person. A password given in clear is checked and hashed on this thread (worlds
   * seeded in-process); every network path hashes first, off the event loop
   * (preparePassword), and passes `passwordHash`.
   */
  createPerson(input: {
    username: string;
    password?: string | null;
    passwordHash?: string | null;
    admin?: boolean;
    globalName?: string | null;
  }): User {
    const username = checkUsername(input.username);
    let hash = input.passwordHash ?? null;
    if (input.password != null) {
      checkPassword(input.password, username);
      hash = this.d.passwords.hashSync(input.password);
    }
    return this.d.store.write(() => {
      // The unique index keeps a name once; the lock makes the second of two sign-ups at
      // once on two nodes see the first's row and be refused as taken, not fail on the index.
      this.d.store.serialize(`username:${username}`);
      if (this.byUsername(username)) throw new DomainError("conflict", "Username is already taken");
      const row: UserRow = {
        id: this.d.ids.next(),
        kind: "person",
        username,
        global_name: displayName(input.globalName),
        avatar: null,
        password_hash: hash,
        is_admin: input.admin ? 1 : 0,
        locale: "en-US",
        presence: "offline",
        created_at: this.d.clock.now(),
        deleted_at: null,
        disabled_at: null,
      };
      this.insert(row);
      return modelOf<User, UserRow>(row, USER_COLUMNS);
    });
  }

  /** Check a new password against the rules (passwords.ts) and hash it off the event loop. */
  async preparePassword(username: string, password: string): Promise<string> {
    checkPassword(password, checkUsername(username));
    return this.d.passwords.hash(password);
  }

  /**
   * A new person with the session that signed them up, in one transaction: never one
   * without the other. `label` names what signed up. The instance's registration policy
   * decides first (closed: refused; invite-only: `invite` must be live, and is used up
   * by one in the same transaction).
   */
  async signUp(input: {
    username: string;
    password: string;
    globalName?: string | null;
    label: string;
    invite?: string | null;
  }): Promise<{ user: User; token: string }> {
    this.gate.checkSignUp(input.invite);
    displayName(input.globalName);
    // A taken name is refused before any hashing work.
    if (this.byUsername(checkUsername(input.username))) throw new DomainError("conflict", "Username is already taken");
    const passwordHash = await this.preparePassword(input.username, input.password);
    return this.d.store.write(() => {
      this.gate.admitSignUp(input.invite);
      const user = this.createPerson({ username: input.username, passwordHash, globalName: input.globalName });
      return { user, token: this.sessions.open(user.id, input.label).token };
    });
  }

  /** Bot users are created only with their application. */
  createBot(name: string): User {
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
      disabled_at: null,
    };
    this.insert(row);
    return modelOf<User, UserRow>(row, USER_COLUMNS);
  }

  /**
   * Set a person's password (the operator's `parley user password`): checked as a
   * sign-up's is, hashed off the event loop, and every session they had ends, so whoever
   * knew the old one is signed out.
   */
  async setPassword(userId: string, password: string): Promise<void> {
    const u = this.require(userId);
    const hash = await this.preparePassword(u.username, password);
    this.d.store.write(() => {
      this.d.store.db.query("UPDATE users SET password_hash = ? WHERE id = ? AND kind = 'person'").run(hash, userId);
      this.sessions.endAll(userId, "password_reset");
    });
  }

  /**
   * A person changes their own password: the current one first (checked off the event
   * loop), then the new one as a sign-up's is; every other session of theirs ends, so
   * whoever knew the old one is signed out, and the one that asked stays.
   */
  async changePassword(userId: string, sessionId: string, current: string, next: string): Promise<void> {
    const u = this.require(userId);
    const stored = this.credentialOf("id", userId)?.password_hash ?? null;
    if (!stored || !(await verifyPassword(current, stored)))
      throw DomainError.invalid("current_password", "Password does not match", "PASSWORD_DOES_NOT_MATCH");
    let hash: string;
    try {
      hash = await this.preparePassword(u.username, next);
    } catch (e) {
      throw e instanceof DomainError && e.issues[0]?.path === "password"
        ? DomainError.invalid("new_password", e.issues[0].message, e.issues[0].code)
        : e;
    }
    this.d.store.write(() => {
      // Only if the hash is still the one checked: a concurrent change or reset wins.
      const changed = this.d.store.db
        .query("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?")
        .run(hash, userId, stored);
      if (changed.changes !== 1) throw DomainError.invalid("current_password", "Password does not match", "PASSWORD_DOES_NOT_MATCH");
      this.sessions.endAll(userId, "password_changed", sessionId);
    });
  }

  /**
   * Sign a person in; bot users and people without passwords cannot. Returns a session
   * token. The hash is checked off the event loop, and against a stand-in of the same
   * cost when the person is unknown or has no password, so the time taken does not tell
   * which usernames exist. A hash of an older scheme is replaced by a current one.
   */
  async signIn(username: string, password: string, label: string): Promise<{ token: string; user: User }> {
    const found = this.credentialOf("username", username);
    const stored = found?.password_hash ?? (await this.d.passwords.standInHash());
    const ok = await verifyPassword(password, stored);
    // Again: the person may have been deleted, or their password changed, while the hash was computed.
    const u = ok && found?.password_hash ? this.get(found.id) : null;
    if (!u || u.deleted_at || this.credentialOf("id", u.id)?.password_hash !== stored)
      throw DomainError.unauthorized("Invalid username or password");
    // Said only to whoever knows the password: nobody else learns the account exists.
    if (u.disabled_at) throw DomainError.unauthorized("This account is disabled: ask the server's administrator");
    if (this.d.passwords.needsRehash(stored)) {
      const fresh = await this.d.passwords.hash(password);
      this.d.store.write(() => {
        this.d.store.db.query("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?").run(fresh, u.id, stored);
      });
    }
    return { token: this.sessions.open(u.id, label).token, user: u };
  }

  setPresence(userId: string, status: Presence): void {
    if (!PRESENCES.includes(status)) throw DomainError.invalid("status", "Must be one of online, idle, dnd, offline");
    this.d.store.write(() => {
      const u = this.require(userId);
      if (u.presence !== status) this.writePresence(userId, status);
    });
  }

  /**
   * Presence as live connections make it (core/presence.ts): online only from offline (a
   * chosen idle or dnd stays), offline from anything; nothing for a user who is gone.
   * Inside the caller's write and presence lock, read from the database, not the memo:
   * another node may have just committed a change this one has not heard of yet.
   */
  settlePresence(userId: string, to: "online" | "offline"): void {
    const u = this.d.store.db.query("SELECT presence, deleted_at FROM users WHERE id = ?").get(userId) as Pick<
      UserRow,
      "presence" | "deleted_at"
    > | null;
    if (!u || u.deleted_at !== null) return;
    if (to === "online" ? u.presence === "offline" : u.presence !== "offline") this.writePresence(userId, to);
  }

  private writePresence(userId: string, status: Presence): void {
    this.d.store.changes.counted("users", PRESENCE, () =>
      this.d.store.db.query("UPDATE users SET presence = ? WHERE id = ?").run(status, userId),
    );
    this.d.store.emit({ type: "presence.updated", userId, status });
  }

  /**
   * Everyone offline, without events: at start-up nobody is connected yet, whatever an
   * earlier process that stopped abruptly left behind.
   */
  resetPresences(): void {
    this.d.store.write(() => {
      this.d.store.changes.counted("users", PRESENCE, () =>
        this.d.store.db.query("UPDATE users SET presence = 'offline' WHERE presence != 'offline'").run(),
      );
    });
  }

  private insert(row: UserRow): void {
    this.d.store.db
      .query(
        `INSERT INTO users (id, kind, username, global_name, avatar, password_hash, is_admin, locale, presence, created_at, deleted_at, disabled_at)
         VALUES ($id, $kind, $username, $global_name, $avatar, $password_hash, $is_admin, $locale, $presence, $created_at, $deleted_at, $disabled_at)`,
      )
      .run(row as never);
  }
}

function checkUsername(name: string): string {
  const username = name.toLowerCase();
  if (!USERNAME.test(username))
    throw DomainError.invalid("username", "Must be 2 to 32 characters of a-z, 0-9, _ and .", "USERNAME_INVALID");
  return username;
}

function checkPassword(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw DomainError.invalid("password", problem, "PASSWORD_TOO_WEAK");
}
