/**
 * Whatever ends a credential or a grant (a bot token rotated, an application deleted or
 * disabled, a privileged intent revoked, people's sessions ended) becomes a domain event
 * on the bus, whichever process wrote it: the gateway and the people's live connection
 * act on the event and know nothing of where it came from (docs/security.md, Findings 4
 * to 6).
 *
 * In this process the event is published after its commit, as every domain event is.
 * It is also written down, in the same transaction, in `credential_events` with this
 * process's origin, so that another process on the same database hears of it: the
 * operator's `parley app rotate` beside a live server. That server looks for other
 * writers' commits four times a second (store/changes.ts: the WAL index header, then
 * PRAGMA data_version, a pread when nothing happened) and, when one came, publishes the
 * events the others wrote since its last look, in order. Its own rows it skips: they were
 * published at their commit.
 *
 * The table is the transport, and only that: a cluster swaps it for its own (Postgres
 * LISTEN/NOTIFY, Redis) behind emit() and the bus, and the surfaces do not change.
 */
import type { CoreDeps } from "./deps";
import type { DomainEvent } from "./events";
import { randomSecret } from "./crypto";

/** The domain events that end a credential or narrow a grant. */
export type CredentialEvent = Extract<
  DomainEvent,
  { type: "application.token_rotated" | "application.intents_changed" | "application.deleted" | "application.disabled" | "person.sessions_ended" }
>;

/**
 * How often another process's writes are looked for: within a second, a rotation by the
 * CLI ends the sessions it must. Host time, not the shared clock: this is transport
 * timing, and a virtual clock that only moves when told would never look.
 */
const POLL_MS = 250;
/** Rows kept: far more than any server falls behind by in POLL_MS. */
const KEEP = 1000;

interface Row {
  seq: number;
  origin: string;
  event: string;
}

export class CredentialEvents {
  /** Which process wrote a row: its own are published at their commit. */
  private readonly origin = randomSecret(12);
  /** The newest row already published (or skipped as our own). */
  private last: number;
  /** The other writers' commits already looked at (store/changes.ts counts them). */
  private seen: number;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly d: CoreDeps) {
    this.last = (d.store.db.query("SELECT coalesce(max(seq), 0) AS n FROM credential_events").get() as { n: number }).n;
    this.seen = d.store.changes.othersCommitted();
    // An in-memory database has no other writer to hear from.
    if (!d.store.changes.alone) {
      this.timer = setInterval(() => this.poll(), POLL_MS);
      this.timer.unref();
    }
  }

  /** Inside a write: published after the commit here, and written down for the other processes. */
  emit(e: CredentialEvent): void {
    const db = this.d.store.db;
    db.query("INSERT INTO credential_events (origin, event, at) VALUES (?, ?, ?)").run(this.origin, JSON.stringify(e), this.d.clock.now());
    db.query("DELETE FROM credential_events WHERE seq <= last_insert_rowid() - ?").run(KEEP);
    this.d.store.emit(e);
  }

  /** Publish what other processes wrote since the last look, if any of them committed. */
  poll(): void {
    if (this.d.store.closed) return this.stop();
    // Not inside an open transaction (a group commit): rows read there could still be rolled back.
    if (this.d.store.db.inTransaction) return;
    const n = this.d.store.changes.othersCommitted();
    if (n === this.seen) return;
    this.seen = n;
    const rows = this.d.store.db.query("SELECT seq, origin, event FROM credential_events WHERE seq > ? ORDER BY seq").all(this.last) as Row[];
    const events: DomainEvent[] = [];
    for (const r of rows) {
      this.last = r.seq;
      if (r.origin !== this.origin) events.push(JSON.parse(r.event) as DomainEvent);
    }
    if (events.length) this.d.bus.publish(events);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
