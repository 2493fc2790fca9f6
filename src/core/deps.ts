import type { Clock } from "./clock";
import type { IdGenerator } from "./ids";
import type { Store } from "../store/db";
import type { EventBus, DomainEvent } from "./events";
import type { Sealer } from "./crypto";

/** What every core service is built from; passed explicitly by the composition root. */
export interface CoreDeps {
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  bus: EventBus;
  /** Seals the secrets the server must show again (webhook tokens). */
  sealer: Sealer;
}

export function emit(deps: CoreDeps, e: DomainEvent): void {
  deps.store.emit(e);
}
