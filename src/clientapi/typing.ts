/** A person's typing indicator (/api/client/v1): 204, and TYPING_START reaches the bots. */
import type { ClientContext } from "./context";

import { route, type PeopleRoute } from "./http";

export function typingPlugin(p: ClientContext): PeopleRoute[] {
  return [
    route({
      method: "POST",
      path: "/channels/{channel_id}/typing",
      caller: "session",
      summary: "Say one is typing",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        p.core.channels.typing(me.id, params.channel_id);
      },
    }),
  ];
}
