/**
 * The one clock. Everything time-based (token lifetimes, session expiry, heartbeat
 * deadlines, rate-limit windows, snowflake timestamps) asks this, never Date.now().
 * The harness swaps the real clock for a virtual one that only moves when told, so a
 * test of a 15-minute expiry takes milliseconds.
 */
import { reportToStderr, type Report } from "./report";
import { DomainError } from "./errors";

/** The earliest instant a clock may be set to: ids and snowflakes count from it (core/ids.ts, wire/snowflakes.ts). */
export const EARLIEST_TIME = Date.UTC(2025, 0, 1);

/**
 * An ISO 8601 date-time a test sets the clock to (harness POST /clock, a world's
 * start_time), or a refusal naming `field`. Not before 2025: an id made then would
 * stand before every id's epoch, and its snowflake would not sort with the others.
 */
export function settableInstant(field: string, iso: string): number {
  const at = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || !Number.isFinite(at))
    throw DomainError.invalid(field, "Must be an ISO 8601 date-time", "DATE_TIME_INVALID");
  if (at < EARLIEST_TIME)
    throw DomainError.invalid(field, "Must be 2025-01-01T00:00:00Z or later: ids and snowflakes count from there", "DATE_TIME_INVALID");
  return at;
}

/** The longest delay setTimeout honours (a signed 32-bit count of milliseconds). */
const MAX_TIMER_MS = 2 ** 31 - 1;
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  readonly virtual: boolean;
}

interface PendingTimer {
  id: number;
  due: number;
  fn: () => void;
  cancelled: boolean;
  real?: ReturnType<typeof setTimeout>;
}

/**
 * A clock that is real by default and can be switched to virtual time. Timers are
 * kept in one ordered list whichever mode is active, so switching modes never loses
 * a timer: in real mode each timer also has a host timeout; in virtual mode only
 * advance() fires them, in due order.
 */
export class SwitchableClock implements Clock {
  private offset = 0; // virtual: fixed instant; real: 0
  private frozenAt: number | null = null;
  private timers: PendingTimer[] = [];
  private nextId = 1;

  /** `report` is told of a timer that threw: the others still fire, in order (core/report.ts). */
  constructor(private readonly report: Report = reportToStderr) {}

  get virtual(): boolean {
    return this.frozenAt !== null;
  }

  now(): number {
    return this.frozenAt ?? Date.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t: PendingTimer = { id: this.nextId++, due: this.now() + Math.max(0, ms), fn: this.guarded(fn), cancelled: false };
    this.insert(t);
    if (!this.virtual) this.arm(t);
    return {
      cancel: () => {
        t.cancelled = true;
        if (t.real) clearTimeout(t.real);
        this.remove(t);
      },
    };
  }

  /** Switch to virtual time (if not already) and move forward, firing due timers in order. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("advance must be a non-negative number");
    this.freeze();
    this.runUntil(this.now() + ms);
    return this.now();
  }

  /** Switch to virtual time at an absolute instant; moving forward fires due timers. */
  set(at: number): number {
    this.freeze();
    if (at >= this.now()) this.runUntil(at);
    else this.frozenAt = at;
    return this.now();
  }

  /** Back to real time; pending timers are re-armed on the host. */
  reset(): void {
    this.frozenAt = null;
    this.offset = 0;
    for (const t of this.timers) this.arm(t);
  }

  /** Drop every pending timer (used when the world is reset). */
  clearTimers(): void {
    for (const t of this.timers) if (t.real) clearTimeout(t.real);
    this.timers = [];
  }

  private guarded(fn: () => void): () => void {
    return () => {
      try {
        fn();
      } catch (err) {
        this.report(err, { loop: "timer" });
      }
    };
  }

  private freeze(): void {
    if (this.frozenAt !== null) return;
    this.frozenAt = this.now();
    for (const t of this.timers)
      if (t.real) {
        clearTimeout(t.real);
        t.real = undefined;
      }
  }

  private runUntil(target: number): void {
    // Fire strictly in due order; a timer scheduled by a firing timer is honoured too.
    for (;;) {
      const t = this.timers[0];
      if (!t || t.due > target) break;
      this.timers.shift();
      this.frozenAt = Math.max(this.frozenAt ?? t.due, t.due);
      if (!t.cancelled) t.fn();
    }
    this.frozenAt = target;
  }

  private insert(t: PendingTimer): void {
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].due > t.due) i--;
    this.timers.splice(i, 0, t);
  }

  /**
   * Out of the list in place. A filtered copy per timer fired or cancelled was O(n)
   * garbage each: a thousand gateway sessions' heartbeat deadlines, armed together and
   * due together, made a thousand copies of a thousand-entry list at once (16 MiB).
   */
  private remove(t: PendingTimer): void {
    const i = this.timers.indexOf(t);
    if (i >= 0) this.timers.splice(i, 1);
  }

  private arm(t: PendingTimer): void {
    if (t.real) clearTimeout(t.real);
    const wait = Math.max(0, t.due - this.now());
    // A JavaScript timer waits at most 2^31-1 ms (about 24.8 days) and takes anything longer
    // for 1 ms: a longer wait (a device's 90-day expiry) is taken in steps.
    if (wait > MAX_TIMER_MS) {
      t.real = setTimeout(() => this.arm(t), MAX_TIMER_MS);
      return;
    }
    t.real = setTimeout(() => {
      this.remove(t);
      if (!t.cancelled) t.fn();
    }, wait);
  }
}
