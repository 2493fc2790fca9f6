/**
 * Presence from live connections: a bot is online while it holds a live gateway session,
 * a person while they have a live connection open (a chosen idle or dnd stays), and
 * either goes offline when the last one closes. The surfaces say when a session or
 * connection opens and closes; this decides.
 *
 * Each node counts its own in memory. On a single node (SQLite) that count is the whole
 * story, and only the first opening and the last closing touch the database, as before.
 * Nodes on one Postgres database also record which node holds whom (presence-nodes.ts),
 * so a user goes offline only when no live node holds them any more; a node that dies
 * without closing anything is let go of by the others once it has not beaten for the
 * liveness window. Each decision for a user is made under a lock on that user
 * (Store.serialize), reading the database rather than a memo, so two nodes letting go
 * and taking hold at once cannot leave the user offline while held, or online while not.
 */
import type { CoreDeps } from "./deps";
import type { Users } from "./users";
import type { Report } from "./report";
import type { TimerHandle } from "./clock";
import { BEAT_MS, NodeHolds } from "./presence-nodes";

const lockOf = (userId: string) => `presence:${userId}`;

export class Presences {
  /** Live sessions and connections this node holds, per user. */
  private readonly held = new Map<string, number>();
  /** Postgres: what the nodes share. null on SQLite. */
  private readonly nodes: NodeHolds | null;
  private timer: TimerHandle | null = null;
  /** A hold or a release failed to reach the database: the next beat puts the rows right. */
  private dirty = false;

  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
    private readonly report: Report,
  ) {
    this.nodes = d.store.engine.kind === "postgres" ? new NodeHolds(d) : null;
  }

  /** A live gateway session (a bot) or live connection (a person) opened on this node. */
  connected(userId: string): void {
    const n = this.held.get(userId) ?? 0;
    this.held.set(userId, n + 1);
    if (n === 0) this.decide(userId, true);
  }

  /** One of them closed. */
  disconnected(userId: string): void {
    const n = this.held.get(userId);
    if (!n) return;
    if (n > 1) return void this.held.set(userId, n - 1);
    this.held.delete(userId);
    this.decide(userId, false);
  }

  /**
   * The serving process starts (and again after the harness's reset). Alone on SQLite,
   * nobody is connected yet: everyone is offline, whatever a process that stopped
   * abruptly left behind. On Postgres other nodes may hold people: this node joins them
   * and beats, and a node that stopped abruptly is let go of once it is seen not beating.
   * Whoever shows online, idle or dnd while no live node holds them (rows copied in by
   * `parley migrate`, or left by a cluster whose nodes all stopped at once) goes offline.
   */
  start(): void {
    if (!this.nodes) return this.users.resetPresences();
    this.timer?.cancel();
    this.write(() => this.nodes!.join());
    this.reconcile();
    this.releaseUnheld();
    this.arm();
  }

  /** The serving process stops (its connections have closed): the others let go of anything left. */
  stop(): void {
    this.timer?.cancel();
    this.timer = null;
    if (!this.nodes) return;
    try {
      this.write(() => this.nodes!.leave());
    } catch (e) {
      // The database is away: the others find this node silent instead.
      this.report(e, { loop: "presence" });
    }
  }

  private decide(userId: string, holding: boolean): void {
    try {
      this.write(() => {
        this.d.store.serialize(lockOf(userId));
        if (holding) {
          this.nodes?.hold(userId);
          this.users.settlePresence(userId, "online");
        } else if (!this.nodes || this.nodes.release(userId) === 0) this.users.settlePresence(userId, "offline");
      });
    } catch (e) {
      this.dirty = this.nodes !== null;
      this.report(e, { loop: "presence" });
    }
  }

  private arm(): void {
    this.timer = this.d.clock.setTimeout(() => this.beat(), BEAT_MS);
  }

  /** Every BEAT_MS on Postgres: beat (joining again if the others took this node for dead), then let go of dead nodes' holds. */
  private beat(): void {
    try {
      const alive = this.write(() => this.nodes!.beat());
      if (!alive || this.dirty) {
        this.write(() => this.nodes!.join());
        this.reconcile();
      }
      this.sweep();
    } catch (e) {
      this.report(e, { loop: "presence" });
    } finally {
      this.arm();
    }
  }

  /** The database's holds for this node made equal to what it holds in memory, each user decided again. */
  private reconcile(): void {
    this.dirty = false;
    const stored = new Set(this.nodes!.heldHere());
    for (const userId of this.held.keys()) if (!stored.has(userId)) this.decide(userId, true);
    for (const userId of stored) if (!this.held.has(userId)) this.decide(userId, false);
  }

  /**
   * Offline, user by user, whoever shows otherwise with no live node holding them: each
   * checked again under the user's lock, so a user that another node is taking hold of
   * at this moment is left to it.
   */
  private releaseUnheld(): void {
    const nodes = this.nodes!;
    for (const userId of nodes.showingUnheld())
      try {
        this.write(() => {
          this.d.store.serialize(lockOf(userId));
          if (nodes.liveHoldsOn(userId) === 0) this.users.settlePresence(userId, "offline");
        });
      } catch (e) {
        this.report(e, { loop: "presence" });
      }
  }

  /** Dead nodes' holds go, user by user; whoever no live node holds goes offline. */
  private sweep(): void {
    const nodes = this.nodes!;
    for (const dead of this.write(() => nodes.dead(this.d.clock.now()))) {
      for (const userId of nodes.heldBy(dead))
        this.write(() => {
          this.d.store.serialize(lockOf(userId));
          if (nodes.dropDead(dead, userId) === 0) this.users.settlePresence(userId, "offline");
        });
      this.write(() => nodes.forget(dead));
    }
  }

  private write<T>(fn: () => T): T {
    return this.d.store.write(fn);
  }
}
