import { Type, type Static } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Req } from "../http";
import { Nullable, Snowflake } from "../../wire/validation";
import { DomainError, INTENTS, type Member, type MemberPatch } from "../../core";
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
function editCurrentMember(req: Req<Static<typeof EditCurrentMemberBody>>): Member {
  const gid = memberGuild(req);
  const b = req.body();
  return req.ctx.core.moderation.editMember(gid, req.caller.botUserId, req.caller.botUserId, { nick: b.nick }, req.auditReason);
}

function memberPatch(req: Req<Static<typeof EditMemberBody>>): MemberPatch {
  const b = req.body();
  // Parley stores no member flags, so only "no flags" can truthfully be set.
  if (b.flags) throw DomainError.invalid("flags", "Parley has no editable member flags", "MEMBER_FLAGS_INVALID");
  const patch: MemberPatch = { nick: b.nick, mute: b.mute, deaf: b.deaf, communicationDisabledUntil: b.communication_disabled_until };
  if (b.roles !== undefined) patch.roles = b.roles === null ? null : b.roles.map((r) => req.ctx.flakes.uuid(String(r)));
  if ("channel_id" in b) patch.channelId = b.channel_id === null || b.channel_id === undefined ? null : String(b.channel_id);
  return patch;
}

export const memberRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/guilds/{guild_id}/members",
    summary: "A server's members (needs the GUILD_MEMBERS intent)",
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), after: Type.Optional(Type.String()) }),
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      // Reference-gaps 2.3: listing members needs the privileged GUILD_MEMBERS intent.
      if (!(req.caller.intents & INTENTS.GUILD_MEMBERS))
        throw DomainError.forbidden("Missing Access: listing members needs the GUILD_MEMBERS intent");
      const limit = intQuery(req, "limit", 1, 1, 1000);
      const after = boundQuery(req, "after", true);
      const rows = req.ctx.core.moderation.members(gid, req.caller.botUserId, after, limit);
      return ok(rows.map((m) => memberOut(req.ctx, m)));
    },
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/members/search",
    summary: "Members whose username or nickname starts with the query (discord.js guild.members.search)",
    query: Type.Object({ query: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const query = req.query.get("query") ?? "";
      if (!query) throw DomainError.invalid("query", "This field is required", "BASE_TYPE_REQUIRED");
      const limit = intQuery(req, "limit", 1, 1, 1000);
      return ok(req.ctx.core.moderation.searchMembers(gid, req.caller.botUserId, query, limit).map((m) => memberOut(req.ctx, m)));
    },
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/members/{user_id}",
    summary: "One member",
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const m = req.ctx.core.moderation.member(gid, req.caller.botUserId, idParam(req, "user_id", "member"));
      return ok(memberOut(req.ctx, m));
    },
  }),
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}/members/@me",
    summary: "Edit the bot's own member (its nick)",
    caller: "bot",
    body: EditCurrentMemberBody,
    bodyOptional: true,
    handler: (req) => ok(memberOut(req.ctx, editCurrentMember(req))),
  }),
  route({
    // The reference's deprecated alias, still served (discord.py's guild.me.edit(nick=...)
    // calls it): the same edit and rate-limit window as the route above; it answers {nick}.
    method: "PATCH",
    path: "/guilds/{guild_id}/members/@me/nick",
    summary: "Edit the bot's own nick (the deprecated alias; answers {nick})",
    limitAs: "/guilds/{guild_id}/members/@me",
    caller: "bot",
    body: EditCurrentMemberBody,
    bodyOptional: true,
    handler: (req) => ok({ nick: editCurrentMember(req).nick }),
  }),
  route({
    method: "PATCH",
    path: "/guilds/{guild_id}/members/{user_id}",
    summary: "Edit a member (nick, roles, timeout, ...)",
    caller: "bot",
    body: EditMemberBody,
    bodyOptional: true,
    limit: { limit: 10, windowMs: 10_000 },
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      const patch = memberPatch(req);
      const m = req.ctx.core.moderation.editMember(gid, req.caller.botUserId, uid, patch, req.auditReason);
      return ok(memberOut(req.ctx, m));
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/{guild_id}/members/{user_id}",
    summary: "Kick a member",
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      req.ctx.core.moderation.kick(gid, req.caller.botUserId, idParam(req, "user_id", "member"), req.auditReason);
      return noContent();
    },
  }),
  route({
    method: "PUT",
    path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
    summary: "Give a member a role",
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      req.ctx.core.moderation.addRole(gid, req.caller.botUserId, uid, idParam(req, "role_id", "role"), req.auditReason);
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
    summary: "Take a role from a member",
    caller: "bot",
    handler: (req) => {
      const gid = memberGuild(req);
      const uid = idParam(req, "user_id", "member");
      req.ctx.core.moderation.removeRole(gid, req.caller.botUserId, uid, idParam(req, "role_id", "role"), req.auditReason);
      return noContent();
    },
  }),
];
