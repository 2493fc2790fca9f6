/**
 * People's reactions (/api/client/v1, internal ids). The same core rules as for bots;
 * the emoji segment is parsed exactly as the bot API parses it.
 */
import type { ClientContext } from "./context";

import { route, type PeopleRoute } from "./http";
import { parseEmoji } from "../wire/emoji";

const PATH = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}";

export function reactionsPlugin(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "PUT",
      path: PATH,
      caller: "session",
      summary: "React",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        p.core.reactions.add(me.id, params.message_id, parseEmoji(params.emoji), { channelId: params.channel_id });
      },
    }),
    route({
      method: "DELETE",
      path: PATH,
      caller: "session",
      summary: "Take one's reaction back",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        p.core.reactions.remove(me.id, params.message_id, parseEmoji(params.emoji), { channelId: params.channel_id });
      },
    }),
  ];
}
