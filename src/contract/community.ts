/**
 * The people's API contract for running a community (docs/people-api.md): server
 * management (members, bans, invites, the audit log, channel order, ownership), one's
 * own profile and devices, and the instance's administration. Bodies first, answers
 * after, as in bodies.ts and answers.ts.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Me, Role, User } from "./answers";
import { Uuid } from "./bodies";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.String({ maxLength: 64 });
const Time = Type.String();

// ---- bodies ----

/** A member's nickname (null or "" clears it) and, when given, their whole set of roles. */
export const EditMember = Type.Object(
  {
    nick: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
    roles: Type.Optional(Type.Array(Id, { maxItems: 250 })),
    reason: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
/** Channels moved at once: only the listed ones change; at most one changes category. */
export const ReorderChannels = Type.Array(
  Type.Object(
    {
      id: Id,
      position: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
      parent_id: Type.Optional(Nullable(Id)),
      lock_permissions: Type.Optional(Nullable(Type.Boolean())),
    },
    { additionalProperties: false },
  ),
  { maxItems: 500 },
);
export const TransferOwnership = Type.Object(
  { owner_id: Id, reason: Type.Optional(Type.String({ maxLength: 512 })) },
  { additionalProperties: false },
);
/**
 * One's own profile, each field optional: the display name (any script, up to 32
 * characters as a reader counts them, checked in the core; null or "" clears it) and the
 * avatar (a filled upload slot, or null to clear it).
 */
export const EditMe = Type.Object(
  {
    global_name: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
    avatar_upload: Type.Optional(Nullable(Uuid)),
  },
  { additionalProperties: false },
);
export const RenameDevice = Type.Object({ name: Type.String({ maxLength: 256 }) }, { additionalProperties: false });
/** Signing out may also remove the browser's end-to-end device. */
export const SignOut = Type.Object({ remove_device: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const RedeemReset = Type.Object(
  { token: Type.String({ maxLength: 128 }), new_password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
);
/** The setup link `parley serve` prints while nobody administers the instance: a new account that does, or one's own made one. */
export const SetUpAdministrator = Type.Object(
  {
    token: Type.String({ maxLength: 128 }),
    username: Type.String({ minLength: 2, maxLength: 32 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    global_name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false },
);
export const UseSetupLink = Type.Object({ token: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
export const DisableAccount = Type.Object(
  { disabled: Type.Boolean(), applications: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const SetAdministrator = Type.Object({ admin: Type.Boolean() }, { additionalProperties: false });
export const RegistrationSettings = Type.Object(
  {
    registration: Type.Optional(Type.Union([Type.Literal("open"), Type.Literal("invite"), Type.Literal("closed")])),
    guild_creation: Type.Optional(Type.Union([Type.Literal("everyone"), Type.Literal("admins")])),
  },
  { additionalProperties: false },
);
/** An instance invite: max_uses 0 = unlimited; max_age in seconds, 0 = never expires (default 7 days). */
export const CreateInstanceInvite = Type.Object(
  {
    max_uses: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 * 86_400 })),
  },
  { additionalProperties: false },
);

export type ReorderChannelsBody = Static<typeof ReorderChannels>;

// ---- answers ----

export const Ban = Type.Object({ user: User, reason: Nullable(Type.String()) });
/** One audit log entry, its actor's name resolved (null: the system, or a deleted actor). */
export const AuditEntry = Type.Object({
  id: Id,
  action_type: Type.Integer(),
  actor: Nullable(User),
  target_id: Nullable(Id),
  /** The person or bot acted on, when the target is one (a name for the log even after they left). */
  target_user: Nullable(User),
  changes: Type.Array(
    Type.Object({ key: Type.String(), old_value: Type.Optional(Type.Unknown()), new_value: Type.Optional(Type.Unknown()) }),
  ),
  /**
   * The reference's details of some actions (internal ids): an overwrite's `id` and `type`
   * ("0" role, "1" member) and `role_name`; a deletion's `channel_id` and `count`; a pin's
   * `channel_id` and `message_id`.
   */
  options: Nullable(Type.Record(Type.String(), Type.Unknown())),
  reason: Nullable(Type.String()),
  created_at: Time,
});
/** What deleting a server took (or would take) with it. */
export const GuildDeletion = Type.Object({
  id: Id,
  name: Type.String(),
  /** Channels people talk in; the categories holding them are counted apart. */
  channels: Type.Integer(),
  categories: Type.Integer(),
  messages: Type.Integer(),
  members: Type.Integer(),
  roles: Type.Integer(),
});
/** A profile card: names, and in the server asked about the nickname and roles there (highest first). */
export const Profile = Type.Object({
  user: User,
  nick: Nullable(Type.String()),
  roles: Type.Array(Role),
  mutual_guild_ids: Type.Array(Id),
});
export const Account = Type.Object({
  user: Me,
  disabled: Type.Boolean(),
  applications: Type.Array(Type.Object({ id: Id, name: Type.String(), disabled: Type.Boolean() })),
  owned_guilds: Type.Integer(),
});
export const Registration = Type.Object({ registration: Type.String(), guild_creation: Type.String() });
/** What anyone may know of the instance before signing in: who may sign up, and whether anyone administers it yet. */
export const InstanceAbout = Type.Object({ registration: Type.String(), guild_creation: Type.String(), administered: Type.Boolean() });
export const InstanceInvite = Type.Object({
  id: Id,
  created_by: Nullable(Id),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  expires_at: Nullable(Time),
  created_at: Time,
});
/** A new instance invite: its code is shown this once. */
export const NewInstanceInvite = Type.Object({ code: Type.String(), invite: InstanceInvite });
export const ResetLink = Type.Object({ url: Type.String(), expires_at: Time });
export const ServerSummary = Type.Object({
  id: Id,
  name: Type.String(),
  owner: Nullable(User),
  member_count: Type.Integer(),
  /** Categories not counted. */
  channel_count: Type.Integer(),
  created_at: Time,
});
export const AdminOverview = Type.Object({
  counts: Type.Object({
    people: Type.Integer(),
    disabled_people: Type.Integer(),
    administrators: Type.Integer(),
    applications: Type.Integer(),
    servers: Type.Integer(),
    channels: Type.Integer(),
    messages: Type.Integer(),
  }),
  /** This build's version, and how long its process has run (null where the server does not say). */
  version: Nullable(Type.String()),
  uptime_seconds: Nullable(Type.Integer()),
  database_bytes: Type.Integer(),
  media_bytes: Type.Integer(),
  days: Type.Array(Type.Object({ day: Type.String(), messages: Type.Integer(), active_people: Type.Integer(), requests: Type.Integer() })),
  at: Time,
});

export type Ban = Static<typeof Ban>;
export type AuditEntry = Static<typeof AuditEntry>;
export type GuildDeletion = Static<typeof GuildDeletion>;
export type Profile = Static<typeof Profile>;
export type Account = Static<typeof Account>;
export type Registration = Static<typeof Registration>;
export type InstanceInvite = Static<typeof InstanceInvite>;
export type NewInstanceInvite = Static<typeof NewInstanceInvite>;
export type ResetLink = Static<typeof ResetLink>;
export type ServerSummary = Static<typeof ServerSummary>;
export type AdminOverview = Static<typeof AdminOverview>;
