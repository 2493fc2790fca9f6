/**
 * The harness's view of what bots were sent: a bounded in-memory log of dispatch frames
 * with a cursor, and long-polling so tests wait for an event instead of sleeping.
 * Frames are kept as the strings sent and parsed only when read.
 */
export interface LoggedFrame {
  cursor: number;
  applicationId: string; // snowflake
  sessionId: string;
  frame: string;
}

export const EVENT_LOG_CAPACITY = 10_000;
export const MAX_WAIT_MS = 30_000;

export class EventLog {
  private entries: LoggedFrame[] = [];
  private next = 1;
  private waiters = new Set<() => void>();

  constructor(private readonly capacity = EVENT_LOG_CAPACITY) {}

  get cursor(): number {
    return this.next - 1;
  }

  append(applicationId: string, sessionId: string, frame: string): void {
    this.entries.push({ cursor: this.next++, applicationId, sessionId, frame });
    // Amortised trimming: drop a chunk once over capacity rather than shifting per append.
    if (this.entries.length > this.capacity * 1.25) this.entries = this.entries.slice(-this.capacity);
    if (this.waiters.size) {
      const ws = [...this.waiters];
      this.waiters.clear();
      for (const w of ws) w();
    }
  }

  after(cursor: number): LoggedFrame[] {
    const es = this.entries;
    // Cursors are contiguous, so the first wanted entry is found by offset, not by scanning.
    const first = es.length ? es[0].cursor : this.next;
    const start = Math.max(0, cursor + 1 - first);
    const out = es.slice(start);
    return out.length > this.capacity ? out.slice(-this.capacity) : out;
  }

  /**
   * Entries after `cursor`, waiting up to `waitMs` for the first one. The wait is host
   * time on purpose: it is a transport wait of the HTTP request, not domain time, and
   * a virtual clock that only moves when told would hold the request forever.
   */
  async wait(cursor: number, waitMs: number): Promise<LoggedFrame[]> {
    const got = this.after(cursor);
    if (got.length || waitMs <= 0) return got;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(waitMs, MAX_WAIT_MS));
      this.waiters.add(done);
    });
    return this.after(cursor);
  }

  /** How many resets and seeds the server has had: which world a test is talking to (X-Harness-World). */
  generation = 0;

  clear(): void {
    this.generation++;
    this.entries = [];
    // Cursors keep increasing across a reset so that a stale cursor never sees new events as old.
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }
}
