/**
 * People's reactions (/api/client/v1, internal ids). The same core rules as for bots;
 * the emoji segment is parsed exactly as the bot API parses it.
 */
import { Elysia } from "elysia";
import type { ClientContext } from "./context";
import { person } from "./http";
import { parseEmoji } from "../wire/emoji";

const PATH = "/channels/:channel_id/messages/:message_id/reactions/:emoji";

export function reactionsPlugin(p: ClientContext) {
  return new Elysia()
    .put(PATH, person(p, ({ me, params }) => {
      p.core.reactions.add(me.id, params.message_id, parseEmoji(params.emoji), { channelId: params.channel_id });
    }))
    .delete(PATH, person(p, ({ me, params }) => {
      p.core.reactions.remove(me.id, params.message_id, parseEmoji(params.emoji), { channelId: params.channel_id });
    }));
}
