/**
 * The first administrator of a new instance, made from the browser. A self-hoster starts
 * the binary and opens it in a browser; until someone administers the instance, nobody
 * can approve a bot's privileged intents or decide who signs up. So while there is no
 * administrator, `parley serve` prints a setup link where only the operator reads it
 * (the console), and whoever opens it either creates an account that is an
 * administrator or makes the account they are signed in with one. Once.
 *
 * The token is kept as it is, not as a digest (unlike reset links), in
 * `instance_settings`: every node of a cluster and every restart prints the same link,
 * rather than each start making the link printed before stop working. It is worth
 * something only while nobody administers the instance, and the moment anyone does (by
 * this link, another administrator, or a `parley` command) it is gone.
 */
import type { CoreDeps } from "./deps";
import type { User } from "./models";
import type { Users } from "./users";
import { administratorCount } from "./admins";
import { DomainError } from "./errors";
import { constantTimeEqualHex, randomSecret, sha256Hex } from "./crypto";

const KEY = "setup_token";
const SPENT = "This setup link no longer works: the server already has an administrator. Sign in, or ask its administrator to make you one";
const UNKNOWN = "This setup link is not this server's: open the one `parley serve` printed when it started";

export class SetupLink {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /**
   * The link's token while nobody administers the instance (made the first time it is
   * asked for), else null, and any token left over is dropped. The server asks as it starts.
   */
  token(): string | null {
    return this.d.store.write(() => {
      this.d.store.serialize("administrators");
      if (administratorCount(this.d) > 0) {
        this.db.query("DELETE FROM instance_settings WHERE key = ?").run(KEY);
        return null;
      }
      const kept = this.stored();
      if (kept) return kept;
      const token = `setup_${randomSecret(32)}`;
      this.db.query("INSERT INTO instance_settings (key, value) VALUES (?, ?)").run(KEY, token);
      return token;
    });
  }

  /** Whether nobody administers the instance yet (the sign-in page points its operator at the link). */
  waiting(): boolean {
    return administratorCount(this.d) === 0;
  }

  /** Whether the link works now (the setup page asks before it offers a form): 404, saying why, when it does not. */
  check(token: string): void {
    if (administratorCount(this.d) > 0) throw new DomainError("not_found", SPENT);
    if (!this.matches(token)) throw new DomainError("not_found", UNKNOWN);
  }

  /**
   * A new account that administers the instance, and a session for it. The password is
   * checked and hashed off the event loop, as a sign-up's; the registration setting does
   * not apply (this is how an invite-only or closed instance gets its first person).
   */
  async createAdministrator(
    token: string,
    input: { username: string; password: string; globalName?: string | null; label: string },
  ): Promise<{ user: User; token: string }> {
    this.check(token);
    if (this.users.byUsername(input.username)) throw new DomainError("conflict", "Username is already taken");
    const passwordHash = await this.users.preparePassword(input.username, input.password);
    return this.d.store.write(() => {
      this.use(token);
      const user = this.users.createPerson({ username: input.username, passwordHash, globalName: input.globalName, admin: true });
      return { user, token: this.users.sessions.open(user.id, input.label).token };
    });
  }

  /** The signed-in person becomes the administrator. */
  promote(token: string, userId: string): User {
    return this.d.store.write(() => {
      this.use(token);
      const u = this.users.require(userId);
      if (u.kind !== "person" || u.disabled_at !== null)
        throw DomainError.forbidden("Only an enabled person's account can administer the server");
      this.db.query("UPDATE users SET is_admin = 1 WHERE id = ?").run(userId);
      return this.users.require(userId);
    });
  }

  /**
   * Inside the write that makes the administrator: the link still works (two people
   * opening it at once on two nodes: the second finds an administrator), and is gone.
   */
  private use(token: string): void {
    this.d.store.serialize("administrators");
    this.check(token);
    this.db.query("DELETE FROM instance_settings WHERE key = ?").run(KEY);
  }

  private stored(): string | null {
    const row = this.db.query("SELECT value FROM instance_settings WHERE key = ?").get(KEY) as { value: string } | null;
    return row?.value ?? null;
  }

  private matches(token: string): boolean {
    const kept = this.stored();
    // Digests of equal length, compared in constant time: the answer's timing says nothing of the token.
    return kept !== null && constantTimeEqualHex(sha256Hex(token), sha256Hex(kept));
  }
}
