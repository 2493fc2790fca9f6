import type { Req, RouteDef } from "../http";
import { noContent, ok } from "../http";
import { DomainError } from "../../core/errors";
import { parseEmoji } from "../../wire/emoji";
import { userJson } from "../../wire/serializers/user";
import { flakeParam, known, limitParam } from "./ids";

function target(req: Req) {
  const { api, params, bot } = req;
  const channelId = known(api, params.channel_id, "channel");
  api.core.messages.access(bot.botUserId, channelId);
  const messageId = known(api, params.message_id, "message");
  api.core.messages.fetch(bot.botUserId, channelId, messageId);
  return { channelId, messageId };
}

const BASE = "/channels/{channel_id}/messages/{message_id}/reactions";

export const reactionRoutes: RouteDef[] = [
  {
    method: "PUT",
    path: `${BASE}/{emoji}/@me`,
    auth: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.api.core.reactions.add(req.bot.botUserId, messageId, parseEmoji(req.params.emoji), { channelId });
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: `${BASE}/{emoji}/@me`,
    auth: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.api.core.reactions.remove(req.bot.botUserId, messageId, parseEmoji(req.params.emoji), { channelId });
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: `${BASE}/{emoji}/{user_id}`,
    auth: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      const emoji = parseEmoji(req.params.emoji);
      const userId = known(req.api, req.params.user_id, "user");
      req.api.core.reactions.removeUser(req.bot.botUserId, messageId, emoji, userId, { channelId });
      return noContent();
    },
  },
  {
    method: "GET",
    path: `${BASE}/{emoji}`,
    auth: "bot",
    handler: (req) => {
      const limit = limitParam(req.query.get("limit"), 25, 1, 100);
      const after = flakeParam(req.query.get("after"), "after");
      const type = req.query.get("type");
      if (type !== null && type !== "0" && type !== "1") throw DomainError.invalid("type", `Value "${type}" is not a valid reaction type.`, "BASE_TYPE_CHOICES");
      const { messageId } = target(req);
      const emoji = parseEmoji(req.params.emoji);
      // Parley has no burst ("super") reactions: type 1 lists nobody.
      if (type === "1") return ok([]);
      const users = req.api.core.reactions.users(messageId, emoji, { after: after && req.api.flakes.bound(after, true), limit });
      return ok(users.map((u) => userJson(req.api.flakes, u)));
    },
  },
  {
    method: "DELETE",
    path: `${BASE}/{emoji}`,
    auth: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.api.core.reactions.removeAll(req.bot.botUserId, messageId, parseEmoji(req.params.emoji), { channelId });
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: BASE,
    auth: "bot",
    handler: (req) => {
      const { channelId, messageId } = target(req);
      req.api.core.reactions.removeAll(req.bot.botUserId, messageId, null, { channelId });
      return noContent();
    },
  },
];
