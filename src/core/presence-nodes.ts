/**
 * What the nodes on one Postgres database share of presence (core/presence.ts), in the
 * tables of migration 21 (pg/schema-later.ts PG_021): which node holds a live session or
 * connection for which user, and which nodes are alive.
 *
 * Liveness is a beat, not a time: each node counts up its row's `beat` every BEAT_MS,
 * and every other node notes, on its own clock, since when it has seen the same count.
 * A count unchanged for LIVENESS_MS means the node is gone (kill -9, a machine lost, a
 * node cut off from the database), and the first node to see it so marks it dead. No
 * node compares its clock with another's, so nodes whose clocks disagree never take each
 * other for dead. A node marked dead that is still running finds out at its next beat
 * (its row says dead) and claims its holds again.
 *
 * Used only on Postgres: a SQLite database has one serving node, which keeps its counts
 * in memory (core/presence.ts), and has none of these tables.
 */
import type { CoreDeps } from "./deps";

/** How often a node beats. */
export const BEAT_MS = 5_000;
/** A node whose beat has not moved for this long, on the observer's clock, is dead. */
export const LIVENESS_MS = 15_000;

export class NodeHolds {
  /** This process: a new id each start, so a restarted node never inherits a dead one's holds. */
  readonly id = crypto.randomUUID();
  /** The other nodes' beats as last seen, and since when (this node's clock). */
  private readonly seen = new Map<string, { beat: number; since: number }>();

  constructor(private readonly d: CoreDeps) {}

  private get db() {
    return this.d.store.db;
  }

  /** Alive (again): a row of its own, not dead. */
  join(): void {
    this.db
      .query(
        "INSERT INTO parley_nodes (id, beat, dead) VALUES (?, 0, 0) ON CONFLICT (id) DO UPDATE SET dead = 0, beat = parley_nodes.beat + 1",
      )
      .run(this.id);
  }

  /** One beat; false when the others have marked this node dead (or its row is gone): it must join again. */
  beat(): boolean {
    return this.db.query("UPDATE parley_nodes SET beat = beat + 1 WHERE id = ? AND dead = 0").run(this.id).changes > 0;
  }

  /** Stopping: the others let go of whatever this node still holds, at their next beat. */
  leave(): void {
    this.db.query("UPDATE parley_nodes SET dead = 1 WHERE id = ?").run(this.id);
  }

  /** Inside the user's presence lock: this node holds a live session or connection for them. */
  hold(userId: string): void {
    this.db.query("INSERT OR IGNORE INTO presence_holds (node_id, user_id) VALUES (?, ?)").run(this.id, userId);
  }

  /** Inside the user's presence lock: this node lets go; answers how many holds on the user remain, on any node. */
  release(userId: string): number {
    this.db.query("DELETE FROM presence_holds WHERE node_id = ? AND user_id = ?").run(this.id, userId);
    return this.holdsOn(userId);
  }

  /** The users this node's row says it holds. */
  heldHere(): string[] {
    return this.heldBy(this.id);
  }

  heldBy(nodeId: string): string[] {
    return (this.db.query("SELECT user_id FROM presence_holds WHERE node_id = ?").all(nodeId) as { user_id: string }[]).map(
      (r) => r.user_id,
    );
  }

  /**
   * The nodes that are dead: those marked so, and those whose beat has not moved for
   * LIVENESS_MS as this node has watched it (marked dead now, unless they beat meanwhile).
   */
  dead(now: number): string[] {
    const rows = this.db.query("SELECT id, beat, dead FROM parley_nodes WHERE id != ?").all(this.id) as {
      id: string;
      beat: number;
      dead: number;
    }[];
    const out: string[] = [];
    const present = new Set(rows.map((r) => r.id));
    for (const id of this.seen.keys()) if (!present.has(id)) this.seen.delete(id);
    for (const r of rows) {
      const beat = Number(r.beat);
      const was = this.seen.get(r.id);
      if (Number(r.dead)) out.push(r.id);
      else if (!was || was.beat !== beat) this.seen.set(r.id, { beat, since: now });
      else if (now - was.since >= LIVENESS_MS && this.markDead(r.id, beat)) out.push(r.id);
    }
    return out;
  }

  private markDead(nodeId: string, beat: number): boolean {
    return this.db.query("UPDATE parley_nodes SET dead = 1 WHERE id = ? AND beat = ? AND dead = 0").run(nodeId, beat).changes > 0;
  }

  /**
   * Inside the user's presence lock: a dead node's hold on them goes (unless the node
   * came back meanwhile); answers how many holds on the user remain.
   */
  dropDead(nodeId: string, userId: string): number {
    this.db
      .query(
        "DELETE FROM presence_holds WHERE node_id = ? AND user_id = ? AND EXISTS (SELECT 1 FROM parley_nodes WHERE id = ? AND dead = 1)",
      )
      .run(nodeId, userId, nodeId);
    return this.holdsOn(userId);
  }

  /** A dead node holding nothing any more is forgotten. */
  forget(nodeId: string): void {
    this.db
      .query("DELETE FROM parley_nodes WHERE id = ? AND dead = 1 AND NOT EXISTS (SELECT 1 FROM presence_holds WHERE node_id = ?)")
      .run(nodeId, nodeId);
    this.seen.delete(nodeId);
  }

  /** Users whose presence is not offline and whom no live node holds (read outside their locks: check again under each). */
  showingUnheld(): string[] {
    return (
      this.db
        .query(
          `SELECT u.id FROM users u WHERE u.presence != 'offline' AND u.deleted_at IS NULL AND NOT EXISTS (
             SELECT 1 FROM presence_holds h JOIN parley_nodes n ON n.id = h.node_id WHERE h.user_id = u.id AND n.dead = 0)`,
        )
        .all() as { id: string }[]
    ).map((r) => r.id);
  }

  /** Inside the user's presence lock: the holds on them by nodes not marked dead. */
  liveHoldsOn(userId: string): number {
    return Number(
      (
        this.db
          .query("SELECT count(*) AS n FROM presence_holds h JOIN parley_nodes n ON n.id = h.node_id WHERE h.user_id = ? AND n.dead = 0")
          .get(userId) as { n: number }
      ).n,
    );
  }

  private holdsOn(userId: string): number {
    return Number((this.db.query("SELECT count(*) AS n FROM presence_holds WHERE user_id = ?").get(userId) as { n: number }).n);
  }
}
