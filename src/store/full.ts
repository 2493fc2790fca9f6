/**
 * Whether SQLite is refusing writes for lack of space (SQLITE_FULL: the disk, or the
 * database's page limit), as /readyz reports it. The write check of health() cannot see
 * it: taking the write lock needs no room, and a write that fits in free pages still
 * goes through. So the store notes each refusal with the database's size then, and the
 * note stands until the database has grown past that size, which only a write that found
 * room can do. While it stands the node is degraded, not unready: reads, sign-ins and the
 * gateway still work, the refused write answered 507 with nothing lost, and turning the
 * only node (one server per data directory) away from its balancer would stop those too.
 */
export class DiskFullWatch {
  private seen: { since: number; pages: number } | null = null;

  constructor(private readonly pageCount: () => number) {}

  /** Called with every failed write: notes it when it was a full disk. */
  saw(e: unknown): void {
    if ((e as { code?: unknown } | null)?.code !== "SQLITE_FULL") return;
    // The latest refusal's size is the one to grow past; the first says since when.
    this.seen = { since: this.seen?.since ?? Date.now(), pages: this.pageCount() };
  }

  /** The notice for /readyz's `degraded`, or none once a write has found room since. */
  notice(): string | null {
    if (!this.seen) return null;
    if (this.pageCount() > this.seen.pages) {
      this.seen = null;
      return null;
    }
    return `disk full: writes that need room are refused (507) since ${new Date(this.seen.since).toISOString()}`;
  }
}
