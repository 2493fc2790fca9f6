/** A person's typing indicator (/api/client/v1): 204, and TYPING_START reaches the bots. */
import { Elysia } from "elysia";
import type { ClientContext } from "./context";
import { person } from "./http";

export function typingPlugin(p: ClientContext) {
  return new Elysia().post("/channels/:channel_id/typing", person(p, ({ me, params }) => {
    p.core.channels.typing(me.id, params.channel_id);
  }));
}
