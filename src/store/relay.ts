/**
 * Events across processes. An operator command runs in a process of its own beside the
 * server (WAL lets it); its writes reach the server's reads at once (changes.ts), but the
 * events they produced would reach only the command's own bus, and the server's live
 * connections would never hear of them: a rotated token's gateway session going on, a
 * disabled person's open client still fed. So a command's store keeps each write's
 * events in `relayed_events`, in the write's own transaction, and the server, looking
 * every quarter second (changes.ts says cheaply whether anyone else committed), publishes
 * them on its bus as if written there, and deletes them.
 */
import type { Database } from "bun:sqlite";
import type { Changes } from "./changes";

export class Relay {
  private from = 0;
  private looked = -1;

  constructor(
    private readonly db: Database,
    private readonly changes: Changes,
    /** This store is a command's beside a server: its writes' events are kept. */
    private readonly sends: boolean,
  ) {}

  /** At the end of a write, inside its transaction: a command keeps the write's events. Returns `result`. */
  kept<T>(result: T, events: unknown[]): T {
    if (this.sends && events.length) this.db.query("INSERT INTO relayed_events (events) VALUES (?)").run(JSON.stringify(events));
    return result;
  }

  /** The server, as it starts listening: what was kept while no server ran is for nobody. */
  skip(): void {
    this.from = (this.db.query("SELECT coalesce(max(id), 0) AS n FROM relayed_events").get() as { n: number }).n;
    this.db.query("DELETE FROM relayed_events WHERE id <= ?").run(this.from);
  }

  /** The server: each write's events kept by other processes since the last look, oldest first. */
  take(): unknown[][] {
    const foreign = this.changes.othersCommitted();
    if (foreign === this.looked) return [];
    this.looked = foreign;
    const rows = this.db.query("SELECT id, events FROM relayed_events WHERE id > ? ORDER BY id").all(this.from) as { id: number; events: string }[];
    if (!rows.length) return [];
    this.from = rows[rows.length - 1].id;
    this.db.query("DELETE FROM relayed_events WHERE id <= ?").run(this.from);
    return rows.map((r) => JSON.parse(r.events) as unknown[]);
  }
}
