/**
 * The chat service itself. No HTTP, no snowflakes, no reference-platform JSON: internal
 * UUIDv7 ids, domain rules, permissions and an event bus fed after each commit.
 */
import type { Clock } from "./clock";
import { IdGenerator } from "./ids";
import { EventBus, type DomainEvent } from "./events";
import { Store } from "../store/db";
import type { CoreDeps } from "./deps";
import { Users } from "./users";
import { Guilds } from "./guilds";
import { Applications } from "./applications";
import { Messages } from "./messages";
import { Commands } from "./commands";
import { Interactions } from "./interactions";

export interface Core extends CoreDeps {
  users: Users;
  guilds: Guilds;
  apps: Applications;
  messages: Messages;
  commands: Commands;
  interactions: Interactions;
}

export function createCore(opts: { clock: Clock; store: Store }): Core {
  const bus = new EventBus();
  opts.store.onCommit((events) => bus.publish(events as DomainEvent[]));
  const deps: CoreDeps = { clock: opts.clock, ids: new IdGenerator(opts.clock), store: opts.store, bus };
  const users = new Users(deps);
  const guilds = new Guilds(deps);
  const apps = new Applications(deps, users, guilds);
  const messages = new Messages(deps, guilds, users);
  const commands = new Commands(deps, guilds);
  const interactions = new Interactions(deps, guilds, users, apps, commands, messages);
  return { ...deps, users, guilds, apps, messages, commands, interactions };
}
