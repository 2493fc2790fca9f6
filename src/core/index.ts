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
import { Reactions } from "./reactions";
import { Channels } from "./channels";
import { Audit } from "./audit";
import { Roles } from "./roles";
import { Moderation } from "./moderation";
import { Webhooks } from "./webhooks";
import { Invites } from "./invites";
import { People } from "./people";
import { Commands } from "./commands";
import { Interactions } from "./interactions";

export interface Core extends CoreDeps {
  users: Users;
  guilds: Guilds;
  apps: Applications;
  messages: Messages;
  reactions: Reactions;
  channels: Channels;
  audit: Audit;
  roles: Roles;
  moderation: Moderation;
  webhooks: Webhooks;
  invites: Invites;
  people: People;
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
  const audit = new Audit(deps);
  const messages = new Messages(deps, guilds, users, audit);
  const reactions = new Reactions(deps, guilds, messages);
  const channels = new Channels(deps, guilds, audit);
  const invites = new Invites(deps, guilds);
  const people = new People(deps, users, guilds, messages);
  const roles = new Roles(deps, guilds, audit);
  const moderation = new Moderation(deps, guilds, users, audit, roles.hierarchy);
  const webhooks = new Webhooks(deps, guilds, messages, audit, (u) => apps.byBotUser(u)?.id ?? null);
  const commands = new Commands(deps, guilds);
  const interactions = new Interactions(deps, guilds, users, apps, commands, messages);
  return { ...deps, users, guilds, apps, messages, reactions, channels, invites, people, audit, roles, moderation, webhooks, commands, interactions };
}
