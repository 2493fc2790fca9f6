/**
 * People's reactions (/api/client/v1, internal ids). The same core rules as for bots;
 * the emoji segment is parsed exactly as the bot API parses it.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import * as C from "../contract";
import { DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { userView } from "./views";
import { parseEmoji } from "../wire/emoji";

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PATH = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}";

/**
 * The emoji of the path: one that is not an emoji at all is a malformed request (400),
 * whether read, added or taken back; an emoji of the right form that names no emoji of
 * the server is the core's Unknown Emoji (10014), as for bots.
 */
function emojiParam(raw: string) {
  try {
    return parseEmoji(raw);
  } catch {
    throw DomainError.invalid("emoji", "Not an emoji: a unicode emoji, or a server's emoji as name:id.");
  }
}

/** `limit` 1-100 (25) and `after` a user's id, as the bot API's list of who reacted. */
function page(q: URLSearchParams): { limit: number; after?: string } {
  const raw = q.get("limit");
  const limit = raw === null ? 25 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw DomainError.invalid("limit", "Must be between 1 and 100.", "NUMBER_TYPE_MAX");
  const after = q.get("after");
  if (after !== null && !USER_ID.test(after)) throw DomainError.invalid("after", "Must be a user's id.");
  return { limit, after: after ?? undefined };
}

export function reactionsPlugin(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "GET",
      path: PATH,
      caller: "session",
      summary: "Who reacted with an emoji (limit, after)",
      query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), after: Type.Optional(Type.String()) }),
      answer: Type.Array(C.User),
      handler: ({ caller: { user: me }, params, query }) => {
        const channelId = pathId(params.channel_id, "channel");
        const messageId = pathId(params.message_id, "message");
        const emoji = emojiParam(params.emoji);
        const users = p.core.reactions.usersSeenBy(me.id, messageId, emoji, { ...page(query), channelId });
        return users.map(userView);
      },
    }),
    route({
      method: "PUT",
      path: PATH,
      caller: "session",
      summary: "React",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        p.core.reactions.add(me.id, params.message_id, emojiParam(params.emoji), { channelId: params.channel_id });
      },
    }),
    route({
      method: "DELETE",
      path: PATH,
      caller: "session",
      summary: "Take one's reaction back",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        p.core.reactions.remove(me.id, params.message_id, emojiParam(params.emoji), { channelId: params.channel_id });
      },
    }),
  ];
}
