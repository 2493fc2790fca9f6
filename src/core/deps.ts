import type { Clock } from "./clock";
import type { IdGenerator } from "./ids";
import type { Store } from "../store/db";
import type { EventBus, DomainEvent } from "./events";
import type { Sealer } from "./crypto";
import type { SearchIndex } from "./search-index";

/** What every core service is built from; passed explicitly by the composition root. */
export interface CoreDeps {
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  bus: EventBus;
  /** Seals the secrets the server must show again (webhook tokens). */
  sealer: Sealer;
  /** The core's fast paths (config/fast-paths.ts), each on unless the root says otherwise. */
  fastPaths: CoreFastPaths;
  /** The search index, told of every message written, changed or removed in the same transaction (core/search-index.ts). */
  search: SearchIndex;
}

/** The switches of config/fast-paths.ts the core honours (the core does not import config: the root passes its FastPaths, which has these). */
export interface CoreFastPaths {
  /** Off: every Memo get loads (core/memo.ts). */
  memo: boolean;
  /** Off: a bot token's digest is computed on every request, not kept per secret once verified (core/applications.ts). */
  tokenMemo: boolean;
}

export function emit(deps: CoreDeps, e: DomainEvent): void {
  deps.store.emit(e);
}
