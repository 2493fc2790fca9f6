/**
 * One-time password reset links, which an administrator makes for a person who lost
 * theirs (the `/admin` pages, `parley user reset-link`). The token is random and kept
 * only as its SHA-256 digest; a link works once, until it expires (on the one clock), and
 * a newer link for the same person replaces the older. Redeeming it sets the new
 * password (checked as a sign-up's is), ends every session the person had, so whoever
 * knew the old password is signed out, and opens one for whoever redeemed it.
 */
import type { CoreDeps } from "./deps";
import type { User } from "./models";
import type { Users } from "./users";
import { DomainError } from "./errors";
import { randomSecret, sha256Hex } from "./crypto";
import { requireAdministrator, type Actor } from "./admins";

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 24 * 3_600_000;

export interface IssuedReset {
  /** Shown once, in the link; never stored. */
  token: string;
  user: User;
  expiresAt: number;
}

const UNKNOWN = "This password reset link is unknown, used or expired: ask the server's administrator for a new one";

export class PasswordResets {
  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  /** An administrator makes a link for a person (never a bot, never a deleted account); older unused links of theirs stop working. */
  issue(actorId: Actor, userId: string): IssuedReset {
    return this.d.store.write(() => {
      requireAdministrator(this.d, actorId);
      const user = this.users.require(userId);
      if (user.kind !== "person") throw DomainError.invalid("user", "Only people have passwords; a bot signs in with its token");
      const token = `pr_${randomSecret(32)}`;
      const now = this.d.clock.now();
      const expiresAt = now + RESET_LINK_TTL_MS;
      this.db.query("DELETE FROM password_resets WHERE user_id = ? AND used_at IS NULL").run(userId);
      this.db
        .query(
          "INSERT INTO password_resets (token_hash, user_id, created_by, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, NULL)",
        )
        .run(sha256Hex(token), userId, actorId, now, expiresAt);
      return { token, user, expiresAt };
    });
  }

  /** Whose link this is (the reset page names them), or 404 when it is unknown, used or expired. */
  lookup(token: string): User {
    const row = this.db.query("SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = ?").get(sha256Hex(token)) as {
      user_id: string;
      expires_at: number;
      used_at: number | null;
    } | null;
    if (!row || row.used_at !== null || this.d.clock.now() >= row.expires_at) throw new DomainError("not_found", UNKNOWN);
    const user = this.users.get(row.user_id);
    if (!user || user.deleted_at !== null) throw new DomainError("not_found", UNKNOWN);
    if (user.disabled_at !== null) throw DomainError.forbidden("This account is disabled: ask the server's administrator");
    return user;
  }

  /**
   * Set a new password with a link: once. The password is checked and hashed off the event
   * loop; then, in one transaction, the link is used up (a second redemption racing this
   * one finds it used), the password replaced, every session ended and a new one opened.
   */
  async redeem(token: string, newPassword: string, label: string): Promise<{ user: User; token: string }> {
    const user = this.lookup(token);
    let hash: string;
    try {
      hash = await this.users.preparePassword(user.username, newPassword);
    } catch (e) {
      throw e instanceof DomainError && e.issues[0]?.path === "password"
        ? DomainError.invalid("new_password", e.issues[0].message, e.issues[0].code)
        : e;
    }
    return this.d.store.write(() => {
      const now = this.d.clock.now();
      const used = this.db
        .query("UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?")
        .run(now, sha256Hex(token), now);
      if (used.changes !== 1) throw new DomainError("not_found", UNKNOWN);
      this.lookupAgain(user.id);
      this.db.query("UPDATE users SET password_hash = ? WHERE id = ? AND kind = 'person'").run(hash, user.id);
      this.users.sessions.endAll(user.id, "password_reset");
      return { user: this.users.require(user.id), token: this.users.sessions.open(user.id, label).token };
    });
  }

  /** The person may still sign in (not deleted or disabled while the password was hashed). */
  private lookupAgain(userId: string): void {
    const u = this.users.get(userId);
    if (!u || u.deleted_at !== null) throw new DomainError("not_found", UNKNOWN);
    if (u.disabled_at !== null) throw DomainError.forbidden("This account is disabled: ask the server's administrator");
  }
}
