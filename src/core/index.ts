/**
 * The chat service itself. No HTTP, no snowflakes, no reference-platform JSON: internal
 * UUIDv7 ids, domain rules, permissions, read models and an event bus fed after each
 * commit. Surfaces get the services below; the store never leaves the core.
 * Longer than 400 lines because it is the core's one wiring list and its one face: every
 * service, and every name a surface may use, in one place.
 */
import type { Clock } from "./clock";
import { IdGenerator } from "./ids";
import { Passwords, Sealer, type PasswordCost } from "./crypto";
import { EventBus, type DomainEvent } from "./events";
import type { Store } from "../store/db";
import type { CoreDeps, CoreFastPaths } from "./deps";
import { IdMap } from "./idmap";
import { Users } from "./users";
import { Guilds } from "./guilds";
import { Applications } from "./applications";
import { Messages } from "./messages";
import { Dms } from "./dms";
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
import { InteractionResponses } from "./interaction-responses";
import { Reads } from "./reads";
import { ReadStates } from "./read-states";
import { World } from "./world";
import { Devices } from "./devices";
import type { Sessions, SessionPolicy } from "./sessions";
import { reportToStderr, type Report } from "./report";
import { Accounts } from "./accounts";
import { Search } from "./search";
import { SearchIndex } from "./search-index";
import { Fts5Engine } from "./search-fts5";
import { PgSearchEngine } from "./search-pg";
import type { SearchEngine } from "./search-engine";
import { Pins } from "./pins";
import { Notifications } from "./notifications";
import { Instance } from "./instance";
import { Servers } from "./servers";
import { PasswordResets } from "./password-resets";
import { SetupLink } from "./setup-link";
import { Profiles } from "./profiles";
import { Stats } from "./stats";
import type { DevicePolicy } from "./devices";
import { Media } from "./media";
import { MediaCollector } from "./media-gc";
import { Emojis } from "./emojis";
import { Presences } from "./presence";
import { DEFAULT_MEDIA_LIMITS, type MediaLimits } from "./deps";
import { DiskMediaStore, type MediaStore } from "../store/media";

export interface Core {
  clock: Clock;
  bus: EventBus;
  ids: IdGenerator;
  /** The boundary's id map storage (the wire layer mints snowflakes into it). */
  idmap: IdMap;
  users: Users;
  /** Online and offline as live sessions and connections open and close, on every node (core/presence.ts). */
  presence: Presences;
  /** People's sessions: sign-in tokens, their expiry, the list, revoke (core/sessions.ts). */
  sessions: Sessions;
  guilds: Guilds;
  apps: Applications;
  messages: Messages;
  dms: Dms;
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
  /** The bot's answers to interactions, through their tokens. */
  interactionResponses: InteractionResponses;
  /** Read models for serializers (core/reads). */
  reads: Reads;
  /** How far each person has read each channel: unread marks and mention counts. */
  readStates: ReadStates;
  /** The world as rows, for the operator's export and import. */
  world: World;
  /** People's devices: the public keys their clients encrypt DMs for (src/e2e). */
  devices: Devices;
  /** A person's account as a whole: list, disable, delete, administrator or not (an administrator's acts). */
  accounts: Accounts;
  /** Searching a server's messages, and a person's mentions inbox (core/search.ts). */
  search: Search;
  /** Pins of a channel's messages (core/pins.ts). */
  pins: Pins;
  /** How each person is notified, per server, channel and DM (core/notifications.ts). */
  notifications: Notifications;
  /** The instance's settings (who may sign up, who may create servers) and its sign-up invites. */
  instance: Instance;
  /** A server as a whole: create, edit, give away, delete; the administrators' list. */
  servers: Servers;
  /** One-time password reset links an administrator makes. */
  passwordResets: PasswordResets;
  /** The link that makes a new instance's first administrator from the browser. */
  setup: SetupLink;
  /** Display names and profile cards. */
  profiles: Profiles;
  /** The administrators' overview: counts, sizes, the last 30 days. */
  stats: Stats;
  /**
   * The serving process's own work, from when it listens: presence starts over
   * (core/presence.ts), then expiring unused devices and counting requests and messages
   * per day. Operator commands never call it.
   */
  serve(): void;
  /** Files: upload slots, their bytes, avatars and icons (core/media.ts). */
  media: Media;
  /** What removes files nothing names any more (core/media-gc.ts). */
  mediaCollector: MediaCollector;
  /** A server's own emoji (core/emojis.ts). */
  emojis: Emojis;
  /**
   * Run several core calls as one transaction: all of them commit, or none does, and
   * their events are published after the commit, in order.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Run a request's core calls in the group commit (the bot API's pipeline): its writes
   * share one commit with the other requests of this event-loop turn, and the promise
   * settles only once that commit is durable (src/store/db.ts). Synchronous when fn is and
   * nothing is waiting to commit.
   */
  batched<T>(fn: () => Promise<T>): Promise<T>;
  batched<T>(fn: () => T | Promise<T>): T | Promise<T>;
  /** Empty the world (the harness's reset): every row goes, then world.reset is published. */
  wipe(): void;
  /** Commit what is open and close the database. */
  close(): void;
}

/**
 * Longer than 80 lines because it is the core's one wiring list: every service built once,
 * in the order they depend on each other, and handed out as the face above.
 */
export function createCore(opts: {
  clock: Clock;
  store: Store;
  key: Uint8Array;
  sessions: SessionPolicy;
  /** What a password hash costs (the root passes config.passwordCost); absent: the OWASP baseline. */
  passwordCost?: PasswordCost;
  /** Where subscriber failures go (core/report.ts). */
  report?: Report;
  /** The fast paths the core honours; the root passes config.fastPaths. Absent: all on. */
  fastPaths?: Partial<CoreFastPaths>;
  /** Where the search index lives; absent: the store engine's own (FTS5 on SQLite, core/search-pg.ts on Postgres). */
  searchEngine?: SearchEngine;
  /** When unused devices expire (config.devices). Absent: never. */
  devices?: DevicePolicy;
  /** Where files' bytes live (absent: a temporary directory) and their limits (the root passes config.media). */
  media?: { store?: MediaStore; limits?: Partial<MediaLimits> };
  /**
   * Called inside the write that inserts a message, with its id. The root pairs the id
   * with its snowflake there (wire/snowflakes.ts), so the number commits with the message
   * whoever posted it: every answer and every node's dispatch reads that one number, none
   * mints its own afterwards (two nodes doing so at once was a lost event), and no post
   * costs a second commit. Absent: nothing (a core without the bot API's boundary).
   */
  numberNew?: (id: string, position: number | null) => void;
}): Core {
  const { store } = opts;
  const bus = new EventBus(opts.report, store.relay.order);
  store.onCommit((events, at) => bus.publish(events as DomainEvent[], at));
  const { memo = true, tokenMemo = true, flushBehind = true, placeBehind = true } = opts.fastPaths ?? {};
  const fastPaths: CoreFastPaths = { memo, tokenMemo, flushBehind, placeBehind: placeBehind && flushBehind };
  // Each engine searches with its own index: FTS5 on SQLite, a tsvector table on Postgres.
  const engine = opts.searchEngine ?? (store.engine.kind === "postgres" ? new PgSearchEngine(store.db) : new Fts5Engine(store));
  const search = new SearchIndex(store, engine);
  const media = { store: opts.media?.store ?? new DiskMediaStore(null), limits: { ...DEFAULT_MEDIA_LIMITS, ...opts.media?.limits } };
  const deps: CoreDeps = {
    clock: opts.clock,
    ids: new IdGenerator(opts.clock),
    store,
    bus,
    sealer: new Sealer(opts.key),
    passwords: new Passwords(opts.passwordCost),
    fastPaths,
    search,
    media,
    numberNew: opts.numberNew ?? (() => {}),
  };
  const instance = new Instance(deps);
  const users = new Users(deps, opts.sessions, instance);
  const guilds = new Guilds(deps);
  const audit = new Audit(deps, guilds);
  const apps = new Applications(deps, users, guilds, audit);
  const dms = new Dms(deps, users);
  const messages = new Messages(deps, guilds, users, audit, dms);
  const files = new Media(deps, guilds, users, apps, audit);
  const emojis = new Emojis(deps, guilds, files, audit);
  const reactions = new Reactions(deps, guilds, messages, emojis);
  const channels = new Channels(deps, guilds, audit, dms);
  const invites = new Invites(deps, guilds, audit);
  const servers = new Servers(deps, guilds, users, audit, instance);
  const people = new People(deps, users, guilds, messages, dms, servers);
  const roles = new Roles(deps, guilds, audit);
  const moderation = new Moderation(deps, guilds, users, audit, roles.hierarchy, messages);
  const webhooks = new Webhooks(deps, guilds, messages, audit, (u) => apps.byBotUser(u)?.id ?? null);
  const commands = new Commands(deps, guilds);
  const interactions = new Interactions(deps, guilds, users, apps, commands, messages);
  const interactionResponses = new InteractionResponses(deps, apps, messages, interactions);
  const reads = new Reads(deps, { guilds, users, apps, messages, interactions, webhooks, invites, emojis });
  const collector = new MediaCollector(deps);
  const devices = new Devices(deps, users, people, opts.devices);
  const stats = new Stats(deps);
  const presence = new Presences(deps, users, opts.report ?? reportToStderr);
  let serving = false;
  const serve = () => {
    serving = true;
    presence.start();
    devices.startExpiry();
    stats.start();
  };
  return {
    clock: deps.clock,
    bus,
    ids: deps.ids,
    idmap: new IdMap(store),
    users,
    presence,
    sessions: users.sessions,
    guilds,
    apps,
    messages,
    dms,
    reactions,
    channels,
    invites,
    people,
    audit,
    roles,
    moderation,
    webhooks,
    commands,
    interactions,
    interactionResponses,
    reads,
    readStates: new ReadStates(deps, guilds, dms),
    world: new World(deps),
    devices,
    accounts: new Accounts(deps, users, guilds, apps, devices),
    search: new Search(deps, guilds, messages),
    pins: new Pins(deps, messages, audit),
    notifications: new Notifications(deps, guilds, audit),
    instance,
    servers,
    passwordResets: new PasswordResets(deps, users),
    setup: new SetupLink(deps, users),
    profiles: new Profiles(deps, users, guilds),
    stats,
    serve,
    media: files,
    mediaCollector: collector,
    emojis,
    transaction: (fn) => store.write(fn),
    batched: <T>(fn: () => T | Promise<T>) => store.batched(fn),
    wipe() {
      store.wipe();
      deps.ids.reset();
      search.forget();
      bus.publish([{ type: "world.reset" }]);
      // A reset drops the clock's timers: the serving process's own start again.
      if (serving) serve();
    },
    close() {
      if (serving) stats.flush();
      if (serving) presence.stop();
      collector.stop();
      store.close();
      media.store.close();
    },
  };
}

// ---- the core's face: everything a surface may name, and nothing deeper ----

export type * from "./models";
export type * from "./composites";
export { DomainError, isDomainError, type ErrorKind, type FieldIssue } from "./errors";
export type { CommitOrder, DomainEvent, EventType, SessionEndReason } from "./events";
export { reportToStderr, type Report, type ReportWhere } from "./report";
export { EARLIEST_TIME, settableInstant, SwitchableClock, type Clock, type TimerHandle } from "./clock";
export { positionOf, uuidBound, uuidTime } from "./ids";
export { sha256Hex } from "./crypto";
export {
  PERMISSIONS,
  ALL_PERMISSIONS,
  INTENTS,
  PRIVILEGED_INTENTS,
  NON_PRIVILEGED_INTENTS,
  hasPermission,
  maskPermissions,
  permissionsFromList,
  intentsFromList,
  intentBit,
  intentNames,
  type PermissionName,
  type IntentName,
} from "./permissions";
export { CHANNEL_TYPES, TEXT_CHANNEL_TYPES } from "./channel-types";
export {
  EPHEMERAL,
  MAX_CONTENT,
  MESSAGE_TYPE,
  SUPPRESS_EMBEDS,
  type AllowedMentions,
  type EditInput,
  type MessagePatch,
  type Page,
  type SendInput,
} from "./message-types";
export type { PersonMessage } from "./people";
export { PRESENCES, type Presence } from "./users";
export { INVITE_MAX_AGE, INVITE_MAX_USES, MAX_GUILD_INVITES } from "./invites";
export { MAX_BAN_DELETE_SECONDS, type MemberPatch, type UserPage } from "./moderation";
export { CREATABLE_TYPES, UNSUPPORTED_TYPES, type ChannelInput } from "./channels";
export type { RoleFields, ReorderItem } from "./roles";
export type { ReadState } from "./read-states";
export type { MintedSecret } from "./applications";
export { DELETED_NAME, type Deleted } from "./accounts";
export {
  CALLBACK,
  COMMAND_TYPE,
  INTERACTION_TTL_MS,
  INTERACTION_TYPE,
  LOADING,
  type CommandInvocation,
  type InteractionState,
  type Invocation,
  type RawOption,
  RawOptionSchema,
  RawOptionsSchema,
  type ResponseMessage,
} from "./interactions";
export { MAX_WEBHOOKS_PER_CHANNEL, WEBHOOK_MESSAGE_FLAGS, type NewWebhook, type WebhookPatch, type WebhookPost } from "./webhooks";
export { MENTION_TOKEN } from "./mentions";
export { AUDIT, type AuditActionType, type AuditChange, type AuditQuery } from "./audit";
export { OPT, MAX_COMMANDS_PER_SCOPE } from "./command-types";
export { validEmoji, type Emoji } from "./reactions";
export type { NewDevice } from "./devices";
export type { SessionPolicy } from "./sessions";
export type { CoreFastPaths } from "./deps";
export type { WorldSnapshot } from "./world";
export type { IdMap } from "./idmap";
export type { Users } from "./users";
export type { Sessions } from "./sessions";
export type { Guilds } from "./guilds";
export type { Applications } from "./applications";
export type { Messages } from "./messages";
export type { Dms } from "./dms";
export type { Reactions } from "./reactions";
export type { Channels } from "./channels";
export type { Audit } from "./audit";
export type { Roles } from "./roles";
export type { Moderation } from "./moderation";
export type { Webhooks } from "./webhooks";
export type { Invites } from "./invites";
export type { People } from "./people";
export type { Commands } from "./commands";
export type { Interactions } from "./interactions";
export type { InteractionResponses } from "./interaction-responses";
export type { Reads } from "./reads";
export type { ReadStates } from "./read-states";
export type { World } from "./world";
export type { Devices } from "./devices";
export type { Accounts } from "./accounts";
export type { Instance } from "./instance";
export type { Servers } from "./servers";
export type { PasswordResets } from "./password-resets";
export type { SetupLink } from "./setup-link";
export type { Profiles } from "./profiles";
export type { Stats } from "./stats";
export { OPERATOR, type Actor } from "./admins";
export {
  REGISTRATION_MODES,
  GUILD_CREATORS,
  INSTANCE_INVITE_MAX_USES,
  type InstanceSettings,
  type InstanceInvite,
  type RegistrationMode,
  type GuildCreators,
} from "./instance";
export type { GuildPatch, GuildDeletion, ServerSummary } from "./servers";
export { RESET_LINK_TTL_MS, type IssuedReset } from "./password-resets";
export { MAX_DISPLAY_NAME, type ProfileModel } from "./profiles";
export { OVERVIEW_DAYS, type DayFigures, type Overview } from "./stats";
export type { AccountModel, AccountQuery } from "./accounts";
export type { ChannelMove } from "./channels";
export { CHANNEL_LIMITS } from "./channels";
export type { DevicePolicy } from "./devices";
export type { EventBus } from "./events";
export { SEARCH_MAX_TOTAL, SEARCH_PAGE, INBOX_PAGE, type SearchCriteria, type SearchResult, type SearchScope } from "./search";
export type { Search } from "./search";
export { NoSearchEngine, type HasKind, type SearchEngine } from "./search-engine";
export { MAX_PINS, PINS_PAGE, type PinnedMessage, type PinsPage } from "./pins";
export type { Pins } from "./pins";
export type { NotificationPatch, Notifications } from "./notifications";
export type { Media } from "./media";
export type { MediaCollector, SweepReport } from "./media-gc";
export type { Emojis } from "./emojis";
export { displayHash, UPLOAD_TTL_MS, MAX_FILENAME_LENGTH, MAX_DESCRIPTION_LENGTH, type FileRequest, type ImageSource } from "./media";
export { IMAGE_TYPES, TEXT_PLAIN, cleanFilename } from "./media-types";
export { ATTACHMENT_SPOILER } from "./message-attachments";
export { EMOJI_NAME, MAX_EMOJIS, type NewEmoji } from "./emojis";
export { DEFAULT_MEDIA_LIMITS, type MediaLimits } from "./deps";
export type { AttachmentEdit, AttachmentInput } from "./message-types";
export { UUID } from "./mentions";
