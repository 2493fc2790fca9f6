/**
 * Application commands, global and per guild (spec 2.4, 4 rule 5). The application in
 * the path must be the token's own: any other id is 403 50001, as the reference refuses
 * acting on an application one does not hold (and a 404 would let a bot probe ids).
 */
import { Type, type Static } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Method, type Reply, type Req } from "../http";
import { type CommandInput, DomainError } from "../../core";
import { commandJson } from "../../wire/serializers/command";
import { Nullable } from "../../wire/validation";

const Localizations = Type.Optional(Nullable(Type.Record(Type.String({ maxLength: 16 }), Type.String({ maxLength: 100 }))));

const Choice = Type.Object({
  name: Type.String({ maxLength: 100 }),
  value: Type.Union([Type.String({ maxLength: 100 }), Type.Number()]),
  name_localizations: Localizations,
});

const OptionSchema = Type.Recursive((This) =>
  Type.Object({
    type: Type.Integer({ minimum: 1, maximum: 11 }),
    name: Type.String({ minLength: 1, maxLength: 32 }),
    description: Type.String({ minLength: 1, maxLength: 100 }),
    required: Type.Optional(Type.Boolean()),
    choices: Type.Optional(Nullable(Type.Array(Choice, { maxItems: 25 }))),
    options: Type.Optional(Nullable(Type.Array(This, { maxItems: 25 }))),
    channel_types: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 20 }), { maxItems: 20 }))),
    min_value: Type.Optional(Nullable(Type.Number())),
    max_value: Type.Optional(Nullable(Type.Number())),
    min_length: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 6000 }))),
    max_length: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 6000 }))),
    autocomplete: Type.Optional(Type.Boolean()),
    name_localizations: Localizations,
    description_localizations: Localizations,
  }),
);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 32 }),
  type: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  description: Type.Optional(Type.String({ maxLength: 100 })),
  options: Type.Optional(Nullable(Type.Array(OptionSchema, { maxItems: 25 }))),
  default_member_permissions: Type.Optional(
    Nullable(Type.Union([Type.String({ pattern: "^[0-9]{1,20}$" }), Type.Integer({ minimum: 0 })])),
  ),
  dm_permission: Type.Optional(Nullable(Type.Boolean())),
  nsfw: Type.Optional(Nullable(Type.Boolean())),
  contexts: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 2 }), { maxItems: 3 }))),
  integration_types: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 1 }), { maxItems: 2 }))),
  name_localizations: Localizations,
  description_localizations: Localizations,
};

export const CommandSchema = Type.Object(fields);
export const CommandPatchSchema = Type.Partial(Type.Object({ ...fields, type: Type.Integer({ minimum: 1, maximum: 3 }) }));
export const BulkSchema = Type.Array(CommandSchema);

function input(b: Static<typeof CommandSchema> | Partial<Static<typeof CommandSchema>>): CommandInput {
  const { options, ...rest } = b;
  return { ...rest, options: options ?? undefined } as CommandInput;
}

/** The scope a path names: the token's application, and the guild (which the bot must be in). */
function scope(req: Req): { appId: string; guildId: string | null } {
  const { ctx: api, params, caller: bot } = req;
  // On the reference an application's id is its bot user's id, so bots and tutorials name
  // it by the bot's own (`Routes.applicationCommands(client.user.id)`, discord.py's
  // `bot.user.id`). Parley's two ids differ, so the bot's user id names its application too.
  const named = api.flakes.uuid(params.application_id);
  if (named !== bot.app.id && named !== bot.botUserId) throw DomainError.forbidden("You cannot manage another application's commands");
  if (params.guild_id === undefined) return { appId: bot.app.id, guildId: null };
  const guildId = api.flakes.uuid(params.guild_id);
  if (!guildId || !api.core.guilds.get(guildId)) throw DomainError.notFound("guild");
  if (!api.core.guilds.isMember(guildId, bot.botUserId)) throw DomainError.forbidden("Missing Access");
  return { appId: bot.app.id, guildId };
}

function commandId(req: Req): string {
  const id = req.ctx.flakes.uuid(req.params.command_id);
  if (!id) throw DomainError.notFound("application command");
  return id;
}

const list = (req: Req): Reply => {
  const s = scope(req);
  return ok(req.ctx.core.commands.list(s.appId, s.guildId).map((c) => commandJson(req.ctx.flakes, c)));
};

const create = (req: Req<Static<typeof CommandSchema>>): Reply => {
  const s = scope(req);
  const body = req.body();
  const { command, created } = req.ctx.core.commands.upsert(s.appId, s.guildId, input(body));
  return { status: created ? 201 : 200, body: commandJson(req.ctx.flakes, command) };
};

const overwrite = (req: Req<Static<typeof BulkSchema>>): Reply => {
  const s = scope(req);
  const body = req.body();
  return ok(req.ctx.core.commands.overwrite(s.appId, s.guildId, body.map(input)).map((c) => commandJson(req.ctx.flakes, c)));
};

const getOne = (req: Req): Reply => {
  const s = scope(req);
  return ok(commandJson(req.ctx.flakes, req.ctx.core.commands.require(s.appId, s.guildId, commandId(req))));
};

const patch = (req: Req<Static<typeof CommandPatchSchema>>): Reply => {
  const s = scope(req);
  const id = commandId(req);
  req.ctx.core.commands.require(s.appId, s.guildId, id);
  const body = req.body();
  return ok(commandJson(req.ctx.flakes, req.ctx.core.commands.update(s.appId, s.guildId, id, input(body))));
};

const remove = (req: Req): Reply => {
  const s = scope(req);
  req.ctx.core.commands.delete(s.appId, s.guildId, commandId(req));
  return noContent();
};

const refused = (): Reply => {
  throw DomainError.notImplemented("501: Not Implemented. Command permissions are not supported by Parley.");
};

const G = "/applications/{application_id}/commands";
const L = "/applications/{application_id}/guilds/{guild_id}/commands";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const PERMISSION_PATHS = [`${G}/permissions`, `${L}/permissions`, `${G}/{command_id}/permissions`, `${L}/{command_id}/permissions`];

export const commandRoutes: BotRoute[] = [
  ...PERMISSION_PATHS.flatMap((path) =>
    METHODS.map((method) =>
      route({ method, path, caller: "any", summary: "Command permissions: refused (501), Parley does not support them", handler: refused }),
    ),
  ),
  ...[G, L].flatMap((base) => {
    const where = base === G ? "global" : "a server's";
    return [
      route({ method: "GET", path: base, caller: "bot", summary: `The application's ${where} commands`, handler: list }),
      route({
        method: "POST",
        path: base,
        caller: "bot",
        summary: `Create (201) or replace (200) one of the ${where} commands`,
        body: CommandSchema,
        handler: create,
      }),
      route({
        method: "PUT",
        path: base,
        caller: "bot",
        summary: `Replace every one of the ${where} commands`,
        body: BulkSchema,
        handler: overwrite,
      }),
      route({ method: "GET", path: `${base}/{command_id}`, caller: "bot", summary: `One of the ${where} commands`, handler: getOne }),
      route({
        method: "PATCH",
        path: `${base}/{command_id}`,
        caller: "bot",
        summary: `Edit one of the ${where} commands`,
        body: CommandPatchSchema,
        handler: patch,
      }),
      route({
        method: "DELETE",
        path: `${base}/{command_id}`,
        caller: "bot",
        summary: `Delete one of the ${where} commands`,
        handler: remove,
      }),
    ];
  }),
];
