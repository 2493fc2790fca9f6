import type { Clock } from "./clock";
import type { IdGenerator } from "./ids";
import type { Store } from "../store/db";
import type { EventBus, DomainEvent } from "./events";

/** What every core service is built from; passed explicitly by the composition root. */
export interface CoreDeps {
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  bus: EventBus;
}

export function emit(deps: CoreDeps, e: DomainEvent): void {
  deps.store.emit(e);
}
