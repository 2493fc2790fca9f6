/**
 * The two world documents (docs/harness.md, docs/operations.md): a seed (people, servers,
 * applications by name, created fresh) and an export (the `parley` header, with every
 * internal id, restored as it was). Both are validated whole before anything is written.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";

const Name = Type.String({ minLength: 1, maxLength: 100 });
const PermList = Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }), Type.String({ pattern: "^[0-9]{1,20}$" })]);
const IntentList = Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }), Type.Integer({ minimum: 0 })]);

/**
 * A test world's options (docs/harness.md "World options"): departures from the spec that
 * a test may ask for, for the world it seeds, on a test-mode server only (seed.ts refuses
 * them elsewhere). Each stays until the next reset; a world that leaves one out leaves it
 * as it is.
 */
const WorldOptionsSchema = {
  /** The reference's 3-second first-response rule (reference-gaps 5.1): an interaction still pending after it expires (10062). */
  interaction_deadline: Type.Optional(Type.Boolean()),
  /** Reference DMs: a person's DM to a bot carries its text, as on the reference platform (a departure from spec 1.6). */
  reference_dms: Type.Optional(Type.Boolean()),
};

/** The world options' names, in the document's order. */
export const WORLD_OPTIONS = ["interaction_deadline", "reference_dms"] as const satisfies readonly (keyof typeof WorldOptionsSchema)[];

export const WorldSchema = Type.Object({
  /** ISO 8601: the world starts at this instant on the virtual clock, so ids and timestamps repeat run after run. */
  start_time: Type.Optional(Type.String({ maxLength: 64 })),
  ...WorldOptionsSchema,
  users: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 32 }),
        admin: Type.Optional(Type.Boolean()),
        password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
        global_name: Type.Optional(Type.String({ maxLength: 32 })),
      }),
      { maxItems: 1000 },
    ),
  ),
  guilds: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 100 }),
        owner: Name,
        /** A person's name, or `{name, nick}` for a member with a nickname in this server. */
        members: Type.Optional(
          Type.Array(Type.Union([Name, Type.Object({ name: Name, nick: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) })]), {
            maxItems: 1000,
          }),
        ),
        /** Invite links, each made by `creator` (default the owner) in `channel` (default the first). */
        invites: Type.Optional(
          Type.Array(
            Type.Object({
              channel: Type.Optional(Name),
              creator: Type.Optional(Name),
              max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800 })),
              max_uses: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
            }),
            { maxItems: 100 },
          ),
        ),
        roles: Type.Optional(
          Type.Array(
            Type.Object({
              name: Name,
              permissions: Type.Optional(PermList),
              members: Type.Optional(Type.Array(Name, { maxItems: 1000 })),
              color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff })),
              hoist: Type.Optional(Type.Boolean()),
              mentionable: Type.Optional(Type.Boolean()),
            }),
            { maxItems: 250 },
          ),
        ),
        channels: Type.Optional(
          Type.Array(
            Type.Object({
              name: Type.String({ minLength: 1, maxLength: 100 }),
              type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(4), Type.Literal(5)])),
              topic: Type.Optional(Type.String({ maxLength: 1024 })),
              parent: Type.Optional(Name),
              nsfw: Type.Optional(Type.Boolean()),
              rate_limit_per_user: Type.Optional(Type.Integer({ minimum: 0, maximum: 21600 })),
              overwrites: Type.Optional(
                Type.Array(
                  Type.Object({
                    role: Type.Optional(Name),
                    user: Type.Optional(Name),
                    allow: Type.Optional(PermList),
                    deny: Type.Optional(PermList),
                  }),
                  { maxItems: 100 },
                ),
              ),
            }),
            { maxItems: 500 },
          ),
        ),
      }),
      { maxItems: 100 },
    ),
  ),
  applications: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 2, maxLength: 32 }),
        owner: Name,
        description: Type.Optional(Type.String({ maxLength: 400 })),
        intents: Type.Optional(IntentList),
        approved_privileged: Type.Optional(IntentList),
        install: Type.Optional(Type.Array(Name, { maxItems: 100 })),
      }),
      { maxItems: 100 },
    ),
  ),
});

export type World = Static<typeof WorldSchema>;

export interface SeedAnswer {
  users: Record<string, { id: string; token: string }>;
  /** `invites`: the codes of the document's invites, in its order. */
  guilds: Record<string, { id: string; channels: Record<string, string>; roles: Record<string, string>; invites: string[] }>;
  applications: Record<string, { id: string; bot_user_id: string; token: string; public_key: string }>;
}

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Opt = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Loose = <P extends Record<string, TSchema>>(props: P) => Type.Object(props, { additionalProperties: true });

export const EXPORT_FORMAT = 1;

/** Loose on purpose: the database's own constraints (checked at commit) catch the rest. */
export const ExportSchema = Type.Object({
  parley: Type.Object({
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Optional(Type.String()),
    exported_at: Type.Optional(Type.String()),
  }),
  users: Type.Array(Loose({ id: Id, name: Type.String() }), { maxItems: 1_000_000 }),
  guilds: Type.Array(
    Loose({
      id: Id,
      name: Type.String(),
      owner: Type.String(),
      members: Type.Array(Loose({ user: Id })),
      roles: Type.Array(Loose({ id: Id, name: Type.String(), members: Opt(Type.Array(Id)) })),
      channels: Type.Array(Loose({ id: Id, messages: Opt(Type.Array(Loose({ id: Id, author: Id }))) })),
    }),
  ),
  applications: Type.Array(
    Loose({ id: Id, name: Type.String(), owner: Type.String(), bot_user_id: Id, commands: Opt(Type.Array(Loose({ id: Id }))) }),
  ),
  snowflakes: Type.Optional(Type.Record(Type.String(), Type.String({ pattern: "^[0-9]{1,20}$" }))),
  /** Files the world names (avatars, icons, emoji, attachments), by SHA-256; their bytes travel beside the document. */
  files: Type.Optional(
    Type.Array(
      Loose({ sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }), size: Type.Integer({ minimum: 0 }), content_type: Type.String() }),
    ),
  ),
});
export type ExportedWorld = Static<typeof ExportSchema>;
