/**
 * People's sessions (the people's API's `Authorization: Session <token>` and the live
 * connection's hello). Only the token's digest is stored, beside an id to name the
 * session by, the label of what signed in, and when it was signed in and last used.
 *
 * A session ends when it has not been used for the idle limit, at the absolute limit
 * however much it is used (both from the config, on the one clock, so a harness clock
 * moved 400 days ends it), and when the person or the operator ends it: sign-out, revoke,
 * sign out everywhere, a password change or reset, a removed device, a disabled or deleted
 * account. Every ending is a `person.sessions_ended` event naming why (events.ts
 * SessionEndReason), so the session's live connections close and say why,
 * whichever process ended it: an operator's command beside the server relays its events
 * to the server's bus (store/relay.ts). An expired session is ended when it is next
 * presented.
 */
import type { CoreDeps } from "./deps";
import type { SessionEndReason } from "./events";
import type { Session, SignedIn, User } from "./models";
import { modelOf, SESSION_COLUMNS, type SessionRow } from "./rows";
import { DomainError } from "./errors";
import { randomSecret, sha256Hex } from "./crypto";
import { statement } from "./statement";

export interface SessionPolicy {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session this old ends, however much it is used. */
  absoluteMs: number;
}

export type { SignedIn } from "./models";

/**
 * "Last used" is written at most this often per session (a tenth of the idle limit when
 * that is shorter), not on every request: the idle limit may then come that much early.
 */
const TOUCH_MS = 60_000;
const MAX_LABEL = 64;

/** Days since the epoch (UTC): how activity and requests are counted. */
export const dayOf = (ms: number) => Math.floor(ms / 86_400_000);

export class Sessions {
  private readonly byHash;
  private readonly byId;
  private readonly touchMs: number;

  constructor(
    private readonly d: CoreDeps,
    private readonly policy: SessionPolicy,
    private readonly userOf: (id: string) => User | null,
  ) {
    this.byHash = statement(d.store, `SELECT ${SESSION_COLUMNS()} FROM person_sessions WHERE token_hash = ?`);
    this.byId = statement(d.store, `SELECT ${SESSION_COLUMNS()} FROM person_sessions WHERE id = ?`);
    this.touchMs = Math.min(TOUCH_MS, Math.floor(policy.idleMs / 10));
  }

  private get db() {
    return this.d.store.db;
  }

  /** When a session ends if nothing ends it before: its idle or its absolute limit, whichever comes first. */
  expiresAt(s: Pick<Session, "created_at" | "last_used_at">): number {
    return Math.min(s.created_at + this.policy.absoluteMs, s.last_used_at + this.policy.idleMs);
  }

  /** A new session for a person (sign-in, sign-up, the harness's seed); `label` names what signed in. */
  open(userId: string, label: string): { token: string; session: Session } {
    const token = `ps_${randomSecret(32)}`;
    const now = this.d.clock.now();
    const session: SessionRow = {
      id: this.d.ids.next(),
      token_hash: sha256Hex(token),
      user_id: userId,
      label: label.trim().slice(0, MAX_LABEL),
      created_at: now,
      last_used_at: now,
    };
    this.d.store.write(() => {
      // The person's sessions that expired unseen go now, rather than never.
      this.endExpired(userId);
      this.db
        .query(
          "INSERT INTO person_sessions (id, token_hash, user_id, label, created_at, last_used_at) VALUES ($id, $token_hash, $user_id, $label, $created_at, $last_used_at)",
        )
        .run(session as never);
      this.active(userId, now);
    });
    return { token, session: modelOf<Session, SessionRow>(session, SESSION_COLUMNS) };
  }

  /**
   * The person and session a token belongs to, or null: unknown, ended, expired (which
   * ends it now), or a person who can no longer sign in. Counts as a use of the session.
   */
  authenticate(token: string): SignedIn | null {
    const s = this.byHash().get(sha256Hex(token)) as Session | null;
    if (!s) return null;
    const user = this.userOf(s.user_id);
    if (!user || user.kind !== "person" || user.deleted_at !== null || user.disabled_at !== null) return null;
    const live = this.used(s);
    return live ? { user, session: live } : null;
  }

  /** Whose session a token is, with no other effect (the request log). */
  whose(token: string): string | null {
    return (this.byHash().get(sha256Hex(token)) as Session | null)?.user_id ?? null;
  }

  /**
   * A live connection of the session is still there (its pings): false once the session
   * has ended or expired (which ends it now). Counts as a use, as a request does.
   */
  keepAlive(sessionId: string): boolean {
    const s = this.byId().get(sessionId) as Session | null;
    return s !== null && this.used(s) !== null;
  }

  /** The person's sessions, most recently used first. */
  list(userId: string): Session[] {
    this.endExpired(userId);
    return this.db
      .query(`SELECT ${SESSION_COLUMNS()} FROM person_sessions WHERE user_id = ? ORDER BY last_used_at DESC, id DESC`)
      .all(userId) as Session[];
  }

  /** End one of the person's sessions (sign-out, revoke); another person's is unknown. */
  end(userId: string, sessionId: string, reason: "signed_out" | "revoked"): void {
    this.d.store.write(() => {
      const s = this.byId().get(sessionId) as Session | null;
      if (!s || s.user_id !== userId) throw DomainError.notFound("session");
      this.endIds(userId, [s.id], reason);
    });
  }

  /** End every session of the person but `except` (sign out everywhere, password change and reset, a disabled or deleted account). */
  endAll(userId: string, reason: SessionEndReason, except: string | null = null): void {
    this.d.store.write(() => {
      const ids = (
        this.db.query("SELECT id FROM person_sessions WHERE user_id = ? AND id IS NOT ?").all(userId, except) as { id: string }[]
      ).map((r) => r.id);
      this.endIds(userId, ids, reason);
    });
  }

  /** End the person's session whose token has this digest, if it is still open: the browser whose device was removed. */
  endByTokenHash(userId: string, tokenHash: string): void {
    this.d.store.write(() => {
      const s = this.byHash().get(tokenHash) as Session | null;
      if (s && s.user_id === userId) this.endIds(userId, [s.id], "device_removed");
    });
  }

  /** The session after this use, or null when it had expired (and is now ended). */
  private used(s: Session): Session | null {
    const now = this.d.clock.now();
    if (now >= this.expiresAt(s)) {
      this.d.store.write(() => this.endIds(s.user_id, [s.id], "expired"));
      return null;
    }
    if (now - s.last_used_at < this.touchMs) return s;
    this.d.store.write(() => {
      this.db.query("UPDATE person_sessions SET last_used_at = ? WHERE id = ?").run(now, s.id);
      // The device this browser holds was used too (core/devices.ts expires unused ones).
      this.db
        .query(
          "UPDATE devices SET last_used_at = ?1 WHERE removed_at IS NULL AND session_hash = (SELECT token_hash FROM person_sessions WHERE id = ?2)",
        )
        .run(now, s.id);
      if (dayOf(now) !== dayOf(s.last_used_at)) this.active(s.user_id, now);
    });
    return { ...s, last_used_at: now };
  }

  /** The person used Parley today (the administrators' "active people per day"): once a day per session at most. */
  private active(userId: string, now: number): void {
    this.db.query("INSERT OR IGNORE INTO activity_days (day, user_id) VALUES (?, ?)").run(dayOf(now), userId);
  }

  private endExpired(userId: string): void {
    const now = this.d.clock.now();
    const all = this.db.query("SELECT id, created_at, last_used_at FROM person_sessions WHERE user_id = ?").all(userId) as Pick<
      Session,
      "id" | "created_at" | "last_used_at"
    >[];
    const expired = all.filter((s) => now >= this.expiresAt(s)).map((s) => s.id);
    if (expired.length) this.d.store.write(() => this.endIds(userId, expired, "expired"));
  }

  /** Inside a write: the sessions go, and their ending is published after the commit, to this process and the server beside it. */
  private endIds(userId: string, ids: string[], reason: SessionEndReason): void {
    if (!ids.length) return;
    const del = this.db.query("DELETE FROM person_sessions WHERE id = ?");
    for (const id of ids) del.run(id);
    this.d.store.emit({ type: "person.sessions_ended", userId, sessionIds: ids, reason });
  }
}
