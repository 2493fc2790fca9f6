import type { Store } from "../store/db";
import type { Watch } from "../store/changes";

export interface MemoOptions {
  /** How many values at most; past that the memo starts empty again (a miss costs one read). */
  max?: number;
  /**
   * Whether "not found" (null) is kept. Not when the memo follows only existing rows
   * ("messages!"): a row added later would not make the kept null go.
   */
  keepNull?: boolean;
  /** false: keep nothing, every get loads (the `memo` fast path off: config/fast-paths.ts). */
  enabled?: boolean;
}

/**
 * Reads kept in memory while the tables they come from are unchanged: the token row of a
 * bot, users, channel rows, a member's permissions in a channel, recent messages. Every
 * look first asks the store whether any of those tables changed (store/changes.ts: this
 * connection's own writes as they happen, rolled-back writes, and commits by any other
 * process such as the CLI), and starts empty again if so; so a value served from here is
 * always what a fresh read would give, and a rotated token is refused at once.
 *
 * Values are frozen: they are shared by every caller, and a caller changing one would
 * change it for all.
 */
export class Memo<V> {
  private readonly map = new Map<string, V>();
  private readonly watch: Watch;
  private readonly max: number;
  private readonly keepNull: boolean;
  private readonly enabled: boolean;
  private stamp = -1;

  constructor(
    private readonly store: Store,
    tables: readonly string[],
    opts: MemoOptions = {},
  ) {
    // At once, outside any transaction: a trigger created inside one would go with its rollback.
    this.watch = store.changes.watch(tables);
    this.max = opts.max ?? 20_000;
    this.keepNull = opts.keepNull ?? true;
    this.enabled = opts.enabled ?? true;
  }

  get(key: string, load: () => V): V {
    if (!this.enabled) return load();
    this.sync();
    let v = this.map.get(key);
    if (v === undefined) {
      v = load();
      if (v !== null || this.keepNull) this.set(key, v);
    }
    return v;
  }

  /**
   * Keep a value the caller has just written (inside its write), so the next read needs
   * no statement. Counted as a change: if the write rolls back, the memo starts empty.
   */
  put(key: string, v: V): void {
    if (!this.enabled) return;
    this.sync();
    this.store.changes.wrote();
    this.set(key, v);
  }

  private sync(): void {
    const stamp = this.watch.stamp();
    if (stamp !== this.stamp) {
      if (this.map.size) this.map.clear();
      this.stamp = stamp;
    }
  }

  private set(key: string, v: V): void {
    // Freezing again what is frozen (a shared constant) still costs about a microsecond.
    if (v !== null && typeof v === "object" && !Object.isFrozen(v)) Object.freeze(v);
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, v);
  }
}
