/**
 * The session registry: every known session by id and by bot user, and each closed
 * session's expiry (spec 3.2: 5 minutes after its last heartbeat or dispatch). Removing
 * a session happens here only, so it always leaves its cohort and its timer with it.
 */
import type { Clock } from "../core";
import type { Cohorts } from "./cohorts";
import { MAX_SESSIONS_PER_APP, SESSION_TTL_MS } from "./protocol";
import type { Session } from "./session";

export interface SessionInfo {
  session_id: string;
  intents: number;
  connected: boolean;
  seq: number;
}

export class SessionRegistry {
  private readonly byId = new Map<string, Session>();
  private readonly byBot = new Map<string, Set<Session>>();

  constructor(
    private readonly clock: Clock,
    private readonly cohorts: Cohorts,
    /** A bot gained its first or lost its last session (who listens in a guild changed). */
    private readonly botsChanged: () => void,
    /** A session was forgotten (nodes sharing sessions forget it in Redis too). */
    private readonly forgotten: ((s: Session) => void) | null = null,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  all(): Session[] {
    return [...this.byId.values()];
  }

  add(s: Session): void {
    this.cohorts.touch();
    this.byId.set(s.id, s);
    let set = this.byBot.get(s.owner.botUserId);
    if (!set) {
      this.byBot.set(s.owner.botUserId, (set = new Set()));
      this.botsChanged();
    }
    set.add(s);
  }

  /**
   * Room for one more session of a bot (one bot user per application): at the cap
   * (MAX_SESSIONS_PER_APP) the oldest resumable session is forgotten; false when every
   * session is live.
   */
  makeRoom(botUserId: string): boolean {
    const set = this.byBot.get(botUserId);
    if (!set || set.size < MAX_SESSIONS_PER_APP) return true;
    for (const s of set) {
      // A Set iterates in insertion order: the first closed one is the oldest.
      if (!s.live) {
        this.drop(s);
        return true;
      }
    }
    return false;
  }

  /** Forget a session: it leaves its cohort, its expiry timer stops, it cannot be resumed. */
  drop(s: Session): void {
    this.cohorts.leave(s);
    this.cohorts.touch();
    s.expiryTimer?.cancel();
    s.expiryTimer = null;
    if (this.byId.get(s.id) === s) {
      this.byId.delete(s.id);
      this.forgotten?.(s);
    }
    const set = this.byBot.get(s.owner.botUserId);
    if (!set) return;
    set.delete(s);
    if (!set.size) {
      this.byBot.delete(s.owner.botUserId);
      this.botsChanged();
    }
  }

  /** The sessions of a bot user (live or resumable), if any. */
  ofBot(botUserId: string): ReadonlySet<Session> | undefined {
    return this.byBot.get(botUserId);
  }

  hasSessions(botUserId: string): boolean {
    return this.byBot.has(botUserId);
  }

  hasLive(botUserId: string): boolean {
    for (const s of this.byBot.get(botUserId) ?? []) if (s.live) return true;
    return false;
  }

  ofApp(appId: string): Session[] {
    return this.all().filter((s) => s.owner.appId === appId);
  }

  info(appId: string): SessionInfo[] {
    return this.ofApp(appId).map((s) => ({ session_id: s.id, intents: s.intents, connected: s.live, seq: s.seq }));
  }

  /**
   * A closed session expires 5 minutes after its last heartbeat or dispatch. The timer
   * re-checks when it fires, so dispatches need not re-arm it.
   */
  armExpiry(s: Session): void {
    s.expiryTimer?.cancel();
    const due = s.lastActivity + SESSION_TTL_MS - this.clock.now();
    s.expiryTimer = this.clock.setTimeout(
      () => {
        s.expiryTimer = null;
        if (!this.byId.has(s.id) || s.conn) return;
        if (this.clock.now() - s.lastActivity >= SESSION_TTL_MS) this.drop(s);
        else this.armExpiry(s);
      },
      Math.max(0, due),
    );
  }

  /** The session is live again (RESUME): it no longer expires. */
  keep(s: Session): void {
    s.expiryTimer?.cancel();
    s.expiryTimer = null;
  }

  clear(): void {
    for (const s of this.all()) this.drop(s);
  }
}
