/**
 * What the people's API answers: each JSON shape as a TypeBox schema and its type. The
 * server's views are typed by these (clientapi/views.ts), the routes declare them (the
 * API description), the web client imports the types, and the test helpers check every
 * success against its route's schema. Ids are internal UUIDs, times ISO 8601 in UTC.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.String();
const Time = Type.String();

export const User = Type.Object({
  id: Id,
  username: Type.String(),
  global_name: Nullable(Type.String()),
  bot: Type.Boolean(),
  presence: Type.String(),
  /** The avatar's hash (`/avatars/{id}/{hash}.png`); absent without one. */
  avatar: Type.Optional(Nullable(Type.String())),
});
// Extensions spread the properties: Type.Composite costs about 8 ms each at start-up.
/** The signed-in person. */
export const Me = Type.Object({ ...User.properties, admin: Type.Boolean(), created_at: Time });
/** What sign-up and sign-in answer: the new session's token, shown once. */
export const SignedIn = Type.Object({ token: Type.String(), user: Me });

export const Session = Type.Object({
  id: Id,
  label: Type.String(),
  created_at: Time,
  last_used_at: Time,
  expires_at: Time,
  current: Type.Boolean(),
});

export const Role = Type.Object({
  id: Id,
  name: Type.String(),
  /** A decimal bitfield. */
  permissions: Type.String(),
  color: Type.Integer(),
  hoist: Type.Boolean(),
  mentionable: Type.Boolean(),
  position: Type.Integer(),
  everyone: Type.Boolean(),
});

export const ChannelOverwrite = Type.Object({
  target_id: Id,
  type: Type.Union([Type.Literal("role"), Type.Literal("member")]),
  allow: Type.String(),
  deny: Type.String(),
});

/** A server channel (`guild_id` set: name, topic, overwrites, ...) or a DM (`guild_id` null: its recipients, end-to-end encrypted). */
export const Channel = Type.Object({
  id: Id,
  type: Type.Integer(),
  guild_id: Nullable(Id),
  name: Type.Optional(Nullable(Type.String())),
  topic: Type.Optional(Nullable(Type.String())),
  position: Type.Optional(Type.Integer()),
  parent_id: Type.Optional(Nullable(Id)),
  nsfw: Type.Optional(Type.Boolean()),
  rate_limit_per_user: Type.Optional(Type.Integer()),
  overwrites: Type.Optional(Type.Array(ChannelOverwrite)),
  recipients: Type.Optional(Type.Array(User)),
  e2e: Type.Boolean(),
  last_message_id: Nullable(Id),
  created_at: Time,
});

export const Guild = Type.Object({
  id: Id,
  name: Type.String(),
  description: Nullable(Type.String()),
  owner_id: Id,
  system_channel_id: Nullable(Id),
  member_count: Type.Integer(),
  /** The asking person's permissions in the server, a decimal bitfield. */
  my_permissions: Type.String(),
  /** What a member is notified of unless they say otherwise: 0 every message, 1 only @mentions. */
  default_message_notifications: Type.Integer(),
  channels: Type.Array(Channel),
  roles: Type.Array(Role),
  /** The icon's hash (`/icons/{id}/{hash}.png`); absent without one. */
  icon: Type.Optional(Nullable(Type.String())),
  /** The server's own emoji; absent when it has none. */
  emojis: Type.Optional(Type.Array(Type.Object({ id: Id, name: Type.String(), animated: Type.Boolean(), url: Type.String() }))),
  created_at: Time,
});

export const Member = Type.Object({ user: User, roles: Type.Array(Id), nick: Nullable(Type.String()), joined_at: Time });

const Picture = Type.Object({ url: Type.Optional(Type.String()), proxy_url: Type.Optional(Type.String()) });
/** An embed as the bot sent it (the bot API checked it); `proxy_*` links are the server's image proxy, when the operator turned it on. */
export const Embed = Type.Object({
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  color: Type.Optional(Type.Integer()),
  timestamp: Type.Optional(Type.String()),
  author: Type.Optional(
    Type.Object({
      name: Type.Optional(Type.String()),
      url: Type.Optional(Type.String()),
      icon_url: Type.Optional(Type.String()),
      proxy_icon_url: Type.Optional(Type.String()),
    }),
  ),
  footer: Type.Optional(
    Type.Object({
      text: Type.Optional(Type.String()),
      icon_url: Type.Optional(Type.String()),
      proxy_icon_url: Type.Optional(Type.String()),
    }),
  ),
  image: Type.Optional(Picture),
  thumbnail: Type.Optional(Picture),
  fields: Type.Optional(
    Type.Array(
      Type.Object({ name: Type.Optional(Type.String()), value: Type.Optional(Type.String()), inline: Type.Optional(Type.Boolean()) }),
    ),
  ),
});

const ComponentEmoji = Type.Object({ name: Type.Optional(Nullable(Type.String())), id: Type.Optional(Nullable(Type.String())) });
/** A message component as the bot sent it: buttons, selects, rows, and the layout pieces. */
export const Component = Type.Recursive((This) =>
  Type.Object({
    type: Type.Integer(),
    style: Type.Optional(Type.Integer()),
    label: Type.Optional(Type.String()),
    emoji: Type.Optional(ComponentEmoji),
    custom_id: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    disabled: Type.Optional(Type.Boolean()),
    placeholder: Type.Optional(Type.String()),
    min_values: Type.Optional(Type.Integer()),
    max_values: Type.Optional(Type.Integer()),
    options: Type.Optional(
      Type.Array(
        Type.Object({
          label: Type.String(),
          value: Type.String(),
          description: Type.Optional(Type.String()),
          emoji: Type.Optional(Type.Object({ name: Type.Optional(Nullable(Type.String())) })),
          default: Type.Optional(Type.Boolean()),
        }),
      ),
    ),
    components: Type.Optional(Type.Array(This)),
    accessory: Type.Optional(This),
    content: Type.Optional(Type.String()),
    accent_color: Type.Optional(Nullable(Type.Integer())),
  }),
);

export const Reaction = Type.Object({ emoji: Type.String(), count: Type.Integer(), me: Type.Boolean() });

/**
 * A file on a message: `url` is a signed link on this origin (wire/files.ts); `inline`
 * says whether it is shown (a safe image within the pixel budget, video, audio, text)
 * or offered as a download.
 */
export const Attachment = Type.Object({
  id: Id,
  filename: Type.String(),
  size: Type.Integer(),
  url: Type.String(),
  content_type: Type.String(),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  description: Nullable(Type.String()),
  inline: Type.Boolean(),
  spoiler: Type.Boolean(),
});

/** An upload slot: PUT the file's bytes to `upload_url` (the people's API), then name `id` in a message or a setting. */
export const Upload = Type.Object({
  id: Id,
  filename: Type.String(),
  size: Type.Integer(),
  purpose: Type.String(),
  upload_url: Type.String(),
  expires_at: Time,
});

/** A server's emoji as its settings list them. */
export const CustomEmoji = Type.Object({
  id: Id,
  name: Type.String(),
  animated: Type.Boolean(),
  url: Type.String(),
  creator_id: Nullable(Id),
});

export const Message = Type.Object({
  id: Id,
  channel_id: Id,
  author: User,
  /** Server channels: the text; DMs: empty (the text is in `ciphertext`). */
  content: Type.String(),
  ciphertext: Nullable(Type.String()),
  embeds: Type.Array(Embed),
  components: Type.Array(Component),
  flags: Type.Integer(),
  ephemeral: Type.Boolean(),
  reply_to: Nullable(Id),
  /** 0 a message, 19 a reply, 6 the notice that a message (`reply_to`) was pinned, ... (the reference's types). */
  type: Type.Integer(),
  pinned: Type.Boolean(),
  mentions: Type.Array(User),
  mention_roles: Type.Array(Id),
  mention_everyone: Type.Boolean(),
  /** The command a bot's message answers ("alice used /roll"); `type` 1 slash, 2 user, 3 message command (null: a component). */
  interaction: Nullable(Type.Object({ id: Id, name: Nullable(Type.String()), type: Type.Optional(Nullable(Type.Integer())), user: User })),
  reactions: Type.Array(Reaction),
  /** A person's files, in order; absent when there are none. */
  attachments: Type.Optional(Type.Array(Attachment)),
  created_at: Time,
  edited_at: Nullable(Time),
});

export const Invite = Type.Object({
  code: Type.String(),
  /** `icon` is the server icon's hash (`/icons/{id}/{hash}.png`), null without one: the invite page shows it to anyone. */
  guild: Nullable(Type.Object({ id: Id, name: Type.String(), icon: Nullable(Type.String()), member_count: Type.Integer() })),
  channel: Nullable(Type.Object({ id: Id, name: Nullable(Type.String()) })),
  inviter_id: Nullable(Id),
  max_age: Type.Integer(),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  expires_at: Nullable(Time),
  created_at: Time,
});

export const ReadState = Type.Object({ channel_id: Id, last_read_id: Nullable(Id), unread: Type.Boolean(), mention_count: Type.Integer() });

/** The id a bot sees for something the person sees: a snowflake, as the bot API and the gateway write it (developer mode's "Copy ID"). */
export const BotId = Type.Object({ id: Type.String({ pattern: "^[0-9]{1,20}$" }) });

/** A device's public keys for end-to-end encrypted DMs (raw, base64url; null for a curve it lacks); never anything secret. */
export const Device = Type.Object({
  id: Id,
  user_id: Id,
  name: Type.String(),
  keys: Type.Object({ x25519: Nullable(Type.String()), p256: Nullable(Type.String()) }),
  created_at: Time,
  removed_at: Nullable(Time),
  /** When its person last used it (their own devices; null where not shown). */
  last_used_at: Type.Optional(Nullable(Time)),
  /** A key backup (its private keys are on the server, sealed under the person's passphrase). */
  backup: Type.Boolean(),
});
/** A key backup for its own person: the device and its sealed private keys, which only the passphrase opens. */
export const KeyBackup = Type.Object({ ...Device.properties, sealed: Nullable(Type.String()) });

export const CommandOption = Type.Recursive((This) =>
  Type.Object({
    type: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    required: Type.Boolean(),
    choices: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: Type.Union([Type.String(), Type.Number()]) }))),
    options: Type.Optional(Type.Array(This)),
    channel_types: Type.Optional(Type.Array(Type.Integer())),
    min_value: Type.Optional(Type.Number()),
    max_value: Type.Optional(Type.Number()),
    min_length: Type.Optional(Type.Integer()),
    max_length: Type.Optional(Type.Integer()),
  }),
);
/** A command a person may run in a channel, with the bot that answers it. */
export const Command = Type.Object({
  id: Id,
  application_id: Id,
  application_name: Type.String(),
  bot_user_id: Id,
  name: Type.String(),
  description: Type.String(),
  options: Type.Array(CommandOption),
});

/** What a person's interaction did: whether a live bot received it (the spec drops it otherwise). */
export const InteractionSent = Type.Object({ id: Id, delivered: Type.Boolean() });

/**
 * An application as its owner sees it in the portal (administrators' lists add its owner).
 * `install_url` is the page that installs its bot; `guilds` are the servers its bot is in.
 */
export const Application = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.String(),
  owner_id: Id,
  bot_user_id: Id,
  intents: Type.Array(Type.String()),
  granted_intents: Type.Array(Type.String()),
  token_intents: Type.Array(Type.String()),
  privileged_requested: Type.Array(Type.String()),
  privileged_approved: Type.Array(Type.String()),
  privileged_denied: Type.Array(Type.String()),
  public_key: Type.String(),
  interactions_endpoint_url: Nullable(Type.String()),
  install_url: Type.String(),
  token_version: Type.Integer(),
  guild_ids: Type.Array(Id),
  guilds: Type.Array(Type.Object({ id: Id, name: Type.String() })),
  created_at: Time,
  /** In administrators' lists only. */
  owner: Type.Optional(Nullable(User)),
});
/** A new application, with its bot's token (shown once). */
export const NewApplication = Type.Object({ application: Application, token: Type.String() });
/** A bot token, shown once (a rotation). */
export const Token = Type.Object({ token: Type.String() });
/** What the install page shows of an application: anyone signed in may look it up. */
/** `installed_in`: the asker's servers that already hold the bot, so the install page does not offer them as new. */
export const InstallInfo = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.String(),
  bot_user_id: Id,
  installed_in: Type.Array(Id),
});
export const PresenceSet = Type.Object({ status: Type.String() });

export type User = Static<typeof User>;
export type Me = Static<typeof Me>;
export type SignedIn = Static<typeof SignedIn>;
export type Session = Static<typeof Session>;
export type Role = Static<typeof Role>;
export type ChannelOverwrite = Static<typeof ChannelOverwrite>;
export type Channel = Static<typeof Channel>;
export type Guild = Static<typeof Guild>;
export type Member = Static<typeof Member>;
export type Embed = Static<typeof Embed>;
export type Component = Static<typeof Component>;
export type Reaction = Static<typeof Reaction>;
export type Message = Static<typeof Message>;
export type Attachment = Static<typeof Attachment>;
export type Upload = Static<typeof Upload>;
export type CustomEmoji = Static<typeof CustomEmoji>;
export type Invite = Static<typeof Invite>;
export type ReadState = Static<typeof ReadState>;
export type BotId = Static<typeof BotId>;
export type Device = Static<typeof Device>;
export type KeyBackup = Static<typeof KeyBackup>;
export type CommandOption = Static<typeof CommandOption>;
export type Command = Static<typeof Command>;
export type InteractionSent = Static<typeof InteractionSent>;
export type Application = Static<typeof Application>;
export type NewApplication = Static<typeof NewApplication>;
export type InstallInfo = Static<typeof InstallInfo>;

// ---- conversations: search, the mentions inbox, pins, notification settings ----

/** A search's page: how many match (counted up to 1000), newest first; `problems` says what of the query was not understood. */
export const SearchResults = Type.Object({
  total: Type.Integer(),
  messages: Type.Array(Message),
  problems: Type.Array(Type.String()),
  indexing: Type.Boolean(),
});

/** A channel's pins, most recently pinned first. */
export const PinsPage = Type.Object({ items: Type.Array(Type.Object({ pinned_at: Time, message: Message })), has_more: Type.Boolean() });

/** How a server (scope = the server) or a channel or DM (scope = the channel) notifies the person; null: as the scope above says. */
export const NotificationSetting = Type.Object({
  scope_id: Id,
  guild_id: Nullable(Id),
  channel_id: Nullable(Id),
  /** 0 every message, 1 only @mentions, 2 nothing. */
  level: Nullable(Type.Integer()),
  muted_until: Nullable(Time),
});

export type SearchResults = Static<typeof SearchResults>;
export type PinsPage = Static<typeof PinsPage>;
export type NotificationSetting = Static<typeof NotificationSetting>;
