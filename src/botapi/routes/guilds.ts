import { Type } from "@sinclair/typebox";
import { ok, route, type BotRoute, type Req, type TokenReq } from "../http";
import { DomainError } from "../../core";
import { guildJson } from "../../wire/serializers/guild";
import { iso } from "../../wire/time";

/** The internal id of a path snowflake; unknown ids are 404 (spec 7: any not-found is 10003). */
export function idParam(req: Req, name: string, what = "object"): string {
  const id = req.ctx.flakes.uuid(req.params[name] ?? "");
  if (!id) throw DomainError.notFound(what);
  return id;
}

/** A guild the calling bot belongs to; any other guild does not exist for it. */
export function memberGuild(req: Req): string {
  const id = req.ctx.flakes.uuid(req.params.guild_id ?? "");
  if (!id || !req.ctx.core.guilds.get(id) || !req.ctx.core.guilds.isMember(id, req.caller.botUserId)) throw DomainError.notFound("guild");
  return id;
}

/** An integer query parameter within bounds, or the default; 50035 naming it otherwise. */
export function intQuery(req: Req, name: string, def: number, min: number, max: number): number {
  const v = req.query.get(name);
  if (v === null || v === "") return def;
  if (!/^-?\d+$/.test(v)) throw DomainError.invalid(name, `Value "${v}" is not int.`, "NUMBER_TYPE_COERCE");
  const n = Number(v);
  if (n < min || n > max)
    throw DomainError.invalid(name, `Must be between ${min} and ${max}.`, n < min ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX");
  return n;
}

/** A snowflake query parameter used as a pagination bound (any well-formed id works). */
export function boundQuery(req: Req, name: string, upper: boolean): string | undefined {
  const v = req.query.get(name);
  if (v === null || v === "") return undefined;
  if (!/^[0-9]{1,20}$/.test(v)) throw DomainError.invalid(name, `Value "${v}" is not snowflake.`, "NUMBER_TYPE_COERCE");
  return req.ctx.flakes.bound(v, upper);
}

export function boolQuery(req: TokenReq, name: string): boolean {
  return /^(true|1)$/i.test(req.query.get(name) ?? "");
}

export const guildRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/guilds/{guild_id}",
    summary: "A server the bot is in",
    query: Type.Object({ with_counts: Type.Optional(Type.Boolean()) }),
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const me = req.ctx.core.guilds.requireMember(gid, req.caller.botUserId);
      return ok({
        ...guildJson(req.ctx.flakes, req.ctx.core.reads.guilds.guild(gid, { counts: boolQuery(req, "with_counts") })),
        joined_at: iso(me.joined_at),
      });
    },
  }),
];
