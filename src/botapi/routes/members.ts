import { Type } from "@sinclair/typebox";
import { noContent, ok, type Req, type RouteDef } from "../http";
import { Nullable, Snowflake } from "../../wire/validation";
import { DomainError } from "../../core/errors";
import { INTENTS } from "../../core/permissions";
import type { MemberPatch } from "../../core/moderation";
import type { MemberRow } from "../../core/types";
import { memberOut } from "../present";
import { boundQuery, idParam, intQuery, memberGuild } from "./guilds";

export const EditMemberBody = Type.Object({
  nick: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  roles: Type.Optional(Nullable(Type.Array(Snowflake, { maxItems: 250 }))),
  mute: Type.Optional(Nullable(Type.Boolean())),
  deaf: Type.Optional(Nullable(Type.Boolean())),
  channel_id: Type.Optional(Nullable(Snowflake)),
  communication_disabled_until: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  flags: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
});

export const EditCurrentMemberBody = Type.Object({ nick: Type.Optional(Nullable(Type.String({ maxLength: 32 }))) });

/** The bot's own member edit: only its nick, which needs no permission. */
async function editCurrentMember(req: Req): Promise<MemberRow> {
  const gid = memberGuild(req);
  const raw = await req.json();
  const b = raw === undefined ? {} : await req.body(EditCurrentMemberBody);
  return req.api.core.moderation.editMember(gid, req.bot.botUserId, req.bot.botUserId, { nick: b.nick }, req.auditReason);
}

async function memberPatch(req: Req): Promise<MemberPatch> {
  const raw = await req.json();
  const b = raw === undefined ? {} : await req.body(EditMemberBody);
  // Parley stores no member flags, so only "no flags" can truthfully be set.
  if (b.flags) throw DomainError.invalid("flags", "Parley has no editable member flags", "MEMBER_FLAGS_INVALID");
  const patch: MemberPatch = { nick: b.nick, mute: b.mute, deaf: b.deaf, communicationDisabledUntil: b.communication_disabled_until };
  if (b.roles !== undefined) patch.roles = b.roles === null ? null : b.roles.map((r) => req.api.flakes.uuid(String(r)));
  if ("channel_id" in b) patch.channelId = b.channel_id === null || b.channel_id === undefined ? null : String(b.channel_id);
  return patch;
}

export const memberRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/guilds/{guild_id}/members",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      // Reference-gaps 2.3: listing members needs the privileged GUILD_MEMBERS intent.
      if (!(req.bot.intents & INTENTS.GUILD_MEMBERS))
        throw DomainError.forbidden("Missing Access: listing members needs the GUILD_MEMBERS intent");
      const limit = intQuery(req, "limit", 1, 1, 1000);
      const after = boundQuery(req, "after", true);
      const rows = req.api.core.moderation.members(gid, req.bot.botUserId, after, limit);
      return ok(rows.map((m) => memberOut(req.api, m)));
    },
  },
  {
    method: "GET",
    path: "/guilds/{guild_id}/members/{user_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const m = req.api.core.moderation.member(gid, req.bot.botUserId, idParam(req, "user_id", "member"));
      return ok(memberOut(req.api, m));
    },
  },
  {
    method: "PATCH",
    path: "/guilds/{guild_id}/members/@me",
    auth: "bot",
    handler: async (req) => ok(memberOut(req.api, await editCurrentMember(req))),
  },
  {
    // The reference's deprecated alias, still served (discord.py's guild.me.edit(nick=...)
    // calls it): the same edit and rate-limit window as the route above; it answers {nick}.
    method: "PATCH",
    path: "/guilds/{guild_id}/members/@me/nick",
    limitAs: "/guilds/{guild_id}/members/@me",
    auth: "bot",
    handler: async (req) => ok({ nick: (await editCurrentMember(req)).nick }),
  },
  {
    method: "PATCH",
    path: "/guilds/{guild_id}/members/{user_id}",
    auth: "bot",
    handler: async (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      const patch = await memberPatch(req);
      const m = req.api.core.moderation.editMember(gid, req.bot.botUserId, uid, patch, req.auditReason);
      return ok(memberOut(req.api, m));
    },
  },
  {
    method: "DELETE",
    path: "/guilds/{guild_id}/members/{user_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      req.api.core.moderation.kick(gid, req.bot.botUserId, idParam(req, "user_id", "member"), req.auditReason);
      return noContent();
    },
  },
  {
    method: "PUT",
    path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      req.api.core.moderation.addRole(gid, req.bot.botUserId, uid, idParam(req, "role_id", "role"), req.auditReason);
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
    auth: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      req.api.core.moderation.removeRole(gid, req.bot.botUserId, uid, idParam(req, "role_id", "role"), req.auditReason);
      return noContent();
    },
  },
];
