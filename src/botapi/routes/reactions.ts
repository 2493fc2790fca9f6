import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Req } from "../http";
import { DomainError } from "../../core";
import { parseEmoji } from "../../wire/emoji";
import { userJson } from "../../wire/serializers/user";
import { flakeParam, known, limitParam } from "./ids";

function target(req: Req) {
  const { ctx: api, params, caller: bot } = req;
  const channelId = known(api, params.channel_id, "channel");
  api.core.messages.access(bot.botUserId, channelId);
  const messageId = known(api, params.message_id, "message");
  api.core.messages.fetch(bot.botUserId, channelId, messageId);
  return { channelId, messageId };
}

const BASE = "/channels/{channel_id}/messages/{message_id}/reactions";

export const reactionRoutes: BotRoute[] = [
  route({
    method: "PUT",
    path: `${BASE}/{emoji}/@me`,
    summary: "React to a message",
    limit: { limit: 1, windowMs: 250 },
    caller: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.ctx.core.reactions.add(req.caller.botUserId, messageId, parseEmoji(req.params.emoji, req.ctx.flakes), { channelId });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: `${BASE}/{emoji}/@me`,
    summary: "Take the bot's own reaction back",
    limit: { limit: 1, windowMs: 250 },
    caller: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.ctx.core.reactions.remove(req.caller.botUserId, messageId, parseEmoji(req.params.emoji, req.ctx.flakes), { channelId });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: `${BASE}/{emoji}/{user_id}`,
    summary: "Remove someone's reaction (MANAGE_MESSAGES)",
    caller: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      const emoji = parseEmoji(req.params.emoji, req.ctx.flakes);
      const userId = known(req.ctx, req.params.user_id, "user");
      req.ctx.core.reactions.removeUser(req.caller.botUserId, messageId, emoji, userId, { channelId });
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: `${BASE}/{emoji}`,
    summary: "Who reacted with an emoji",
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      after: Type.Optional(Type.String()),
      type: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    }),
    caller: "bot",
    handler: (req) => {
      const limit = limitParam(req.query.get("limit"), 25, 1, 100);
      const after = flakeParam(req.query.get("after"), "after");
      const type = req.query.get("type");
      if (type !== null && type !== "0" && type !== "1")
        throw DomainError.invalid("type", `Value "${type}" is not a valid reaction type.`, "BASE_TYPE_CHOICES");
      const { channelId, messageId } = target(req);
      const emoji = parseEmoji(req.params.emoji, req.ctx.flakes);
      // Parley has no burst ("super") reactions: type 1 lists nobody.
      if (type === "1") return ok([]);
      const page = { after: after && req.ctx.flakes.bound(after, true), limit, channelId };
      const users = req.ctx.core.reactions.usersSeenBy(req.caller.botUserId, messageId, emoji, page);
      return ok(users.map((u) => userJson(req.ctx.flakes, u)));
    },
  }),
  route({
    method: "DELETE",
    path: `${BASE}/{emoji}`,
    summary: "Remove every reaction with an emoji",
    caller: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.ctx.core.reactions.removeAll(req.caller.botUserId, messageId, parseEmoji(req.params.emoji, req.ctx.flakes), { channelId });
      return noContent();
    },
  }),
  route({
    method: "DELETE",
    path: BASE,
    summary: "Remove every reaction",
    caller: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.ctx.core.reactions.removeAll(req.caller.botUserId, messageId, null, { channelId });
      return noContent();
    },
  }),
];
