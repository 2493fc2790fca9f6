/**
 * What the people's API takes: every request body, as the TypeBox schema the server
 * validates with (its limits included). Ids are internal UUIDs. The limits the core
 * keeps are restated here so that a body too long names the same one
 * (test/unit/contract.test.ts checks they agree).
 */
import { Type, type Static } from "@sinclair/typebox";

/** The core's limits, as the contract states them. */
export const LIMITS = {
  /** Characters of a message's content (core/people.ts MAX_CONTENT). */
  content: 2000,
  /** An invite's longest life, in seconds, and most uses (core/invites.ts). */
  inviteMaxAge: 604_800,
  inviteMaxUses: 100,
  /** How much of a banned person's history a ban may delete, in seconds (core/moderation.ts). */
  banDeleteSeconds: 604_800,
} as const;

/** A person's presence (core/users.ts PRESENCES). */
export const PRESENCES = ["online", "idle", "dnd", "offline"] as const;

export const Uuid = Type.String({ pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" });
/** Permission names or a decimal bitfield (other bits than the 13 honoured ones are dropped, spec 2.9). */
export const PermissionList = Type.Union([
  Type.String({ pattern: "^[0-9]{1,20}$" }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
]);
/** Intent names or a bitfield. */
export const IntentList = Type.Union([
  Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
]);

// ---- accounts and sessions ----

export const SignUp = Type.Object(
  {
    username: Type.String({ minLength: 2, maxLength: 32 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
    global_name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    /** An instance invite, when registration is invite-only. */
    invite: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export const SignIn = Type.Object(
  { username: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
);
export const ChangePassword = Type.Object(
  { current_password: Type.String({ maxLength: 256 }), new_password: Type.String({ minLength: 8, maxLength: 256 }) },
  { additionalProperties: false },
);
export const SetPresence = Type.Object({ status: Type.Union(PRESENCES.map((s) => Type.Literal(s))) }, { additionalProperties: false });

// ---- servers, channels, roles, moderation, invites ----

export const CreateGuild = Type.Object({ name: Type.String({ minLength: 2, maxLength: 100 }) }, { additionalProperties: false });
export const EditGuild = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
    /** What members are notified of unless they say otherwise: 0 every message, 1 only @mentions. */
    default_message_notifications: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  },
  { additionalProperties: false },
);

export const CreateChannel = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(4), Type.Literal(5)])),
    topic: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    parent_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    nsfw: Type.Optional(Type.Boolean()),
    rate_limit_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 21600 })),
  },
  { additionalProperties: false },
);
/** One entry of a channel's whole list of overwrites, shaped as a channel shows them (`overwrites`), so a category's list is sent as it is read. */
const OverwriteEntry = Type.Object(
  {
    target_id: Uuid,
    type: Type.Union([Type.Literal("role"), Type.Literal("member")]),
    allow: Type.Optional(PermissionList),
    deny: Type.Optional(PermissionList),
  },
  { additionalProperties: false },
);
/** `overwrites` replaces the channel's whole list (MANAGE_ROLES as well): "Sync permissions" sends its category's. */
export const EditChannel = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(5)])),
    topic: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    parent_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    nsfw: Type.Optional(Type.Boolean()),
    rate_limit_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 21600 })),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    /** Up to the core's cap a channel (core/guilds.ts MAX_CHANNEL_OVERWRITES). */
    overwrites: Type.Optional(Type.Array(OverwriteEntry, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export const Overwrite = Type.Object(
  {
    type: Type.Union([Type.Literal("role"), Type.Literal("member")]),
    allow: Type.Optional(PermissionList),
    deny: Type.Optional(PermissionList),
  },
  { additionalProperties: false },
);

const RoleFields = {
  permissions: Type.Optional(PermissionList),
  color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff })),
  hoist: Type.Optional(Type.Boolean()),
  mentionable: Type.Optional(Type.Boolean()),
};
export const CreateRole = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), ...RoleFields },
  { additionalProperties: false },
);
export const EditRole = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...RoleFields },
  { additionalProperties: false },
);
export const ReorderRoles = Type.Array(
  Type.Object({ id: Uuid, position: Type.Integer({ minimum: 0, maximum: 1000 }) }, { additionalProperties: false }),
  {
    maxItems: 250,
  },
);

export const BanBody = Type.Object({
  delete_message_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.banDeleteSeconds })),
  reason: Type.Optional(Type.String({ maxLength: 512 })),
});
export const ReasonBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 512 })) });

export const CreateInvite = Type.Object(
  {
    max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.inviteMaxAge })),
    max_uses: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.inviteMaxUses })),
  },
  { additionalProperties: false },
);

// ---- messages, DMs, reading, interactions ----

const Description = Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]));
/** A filled upload slot to send (uploads: POST .../attachments, then PUT /uploads/{id}). */
const NewAttachment = Type.Object(
  { upload_id: Uuid, description: Description, spoiler: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const SendMessage = Type.Object(
  {
    content: Type.Optional(Type.String({ maxLength: LIMITS.content })),
    ciphertext: Type.Optional(Type.String({ maxLength: 16384 })),
    reply_to: Type.Optional(Type.Union([Uuid, Type.Null()])),
    attachments: Type.Optional(Type.Array(NewAttachment, { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export const EditMessage = Type.Object(
  {
    content: Type.Optional(Type.String({ maxLength: LIMITS.content })),
    ciphertext: Type.Optional(Type.String({ maxLength: 16384 })),
    /** Every attachment to keep, by id (the rest are dropped), and new slots; absent: all kept. */
    attachments: Type.Optional(
      Type.Union([
        Type.Array(Type.Union([Type.Object({ id: Uuid, description: Description }, { additionalProperties: false }), NewAttachment]), {
          maxItems: 50,
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

const FileRequest = Type.Object(
  { filename: Type.String({ minLength: 1, maxLength: 1024 }), size: Type.Integer({ minimum: 0 }), description: Description },
  { additionalProperties: false },
);
/** Slots for a message's files, each named and sized before any byte is sent. */
export const OpenAttachments = Type.Object(
  { files: Type.Array(FileRequest, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);
/** A slot for an image: one's avatar, a server's icon or emoji (`guild_id`). */
export const OpenImageUpload = Type.Object(
  {
    purpose: Type.Union([Type.Literal("avatar"), Type.Literal("icon"), Type.Literal("emoji")]),
    filename: Type.String({ minLength: 1, maxLength: 1024 }),
    size: Type.Integer({ minimum: 0 }),
    guild_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
/** Set an image from a filled slot, or clear it (null). */
export const SetImage = Type.Object({ upload_id: Type.Union([Uuid, Type.Null()]) }, { additionalProperties: false });
export const NewEmoji = Type.Object({ name: Type.String({ maxLength: 64 }), upload_id: Uuid }, { additionalProperties: false });
export const EditEmoji = Type.Object({ name: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
export const OpenDm = Type.Object({ recipient_id: Uuid }, { additionalProperties: false });
export const MarkRead = Type.Object({ message_id: Uuid }, { additionalProperties: false });

const InteractionId = Type.String({ minLength: 1, maxLength: 64 });
export const RawOption = Type.Recursive((This) =>
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 32 }),
    value: Type.Optional(Type.Union([Type.String({ maxLength: 6000 }), Type.Number(), Type.Boolean()])),
    options: Type.Optional(Type.Array(This, { maxItems: 25 })),
  }),
);
/** A component clicked, or a command run (a context-menu command names its target). */
export const InteractionBody = Type.Union([
  Type.Object({
    message_id: InteractionId,
    custom_id: Type.String({ minLength: 1, maxLength: 100 }),
    values: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 25 })),
  }),
  Type.Object({
    application_id: InteractionId,
    name: Type.String({ minLength: 1, maxLength: 32 }),
    type: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    options: Type.Optional(Type.Array(RawOption, { maxItems: 25 })),
    /** A context-menu command's target: a user (type 2) or a message (type 3). */
    target_id: Type.Optional(InteractionId),
  }),
]);

// ---- devices (end-to-end encrypted DMs) ----

// Sizes are checked in the core (src/e2e/format.ts); the schema only fixes types.
const Key = Type.Union([Type.String({ maxLength: 128 }), Type.Null()]);
export const NewDevice = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    keys: Type.Object({ x25519: Type.Optional(Key), p256: Type.Optional(Key) }, { additionalProperties: false }),
    backup: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

// ---- the developer portal ----

export const CreateApp = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 32 }),
    description: Type.Optional(Type.String({ maxLength: 400 })),
    intents: Type.Optional(IntentList),
  },
  { additionalProperties: false },
);
export const EditApp = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 32 })),
    description: Type.Optional(Type.String({ maxLength: 400 })),
    interactions_endpoint_url: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const Intents = Type.Object({ intents: IntentList }, { additionalProperties: false });
/** `deny` refuses a pending request; `revoke` withdraws an approval: both leave the intents denied. */
export const Approve = Type.Object(
  { intents: IntentList, revoke: Type.Optional(Type.Boolean()), deny: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const Install = Type.Object({ guild_id: Uuid }, { additionalProperties: false });

export type SignUpBody = Static<typeof SignUp>;
export type SendMessageBody = Static<typeof SendMessage>;
export type InteractionRequest = Static<typeof InteractionBody>;
export type RawOptionValue = Static<typeof RawOption>;

/** A notification setting: absent keeps, null clears (level: as the scope above; muted_until: not muted). */
export const PutNotificationSetting = Type.Object(
  {
    level: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Null()])),
    /** ISO 8601, or null. */
    muted_until: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type PutNotificationSetting = Static<typeof PutNotificationSetting>;
