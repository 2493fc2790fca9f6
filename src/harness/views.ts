import { EPHEMERAL, type Message } from "../core";
import { messageJson } from "../wire/serializers/message";
import type { HarnessContext } from "./context";

/**
 * A message as the harness shows it: the bot API's shape with full content whatever any
 * bot's intents, and ephemeral messages marked with flag 64 for the person they are for.
 */
export function harnessMessage(p: HarnessContext, m: Message, viewerId: string | null): Record<string, unknown> {
  const out = messageJson(p.flakes, p.core.reads.messages.message(m, { viewerId }), { content: true });
  if (m.ephemeral_user_id) out.flags = (m.flags | EPHEMERAL) >>> 0;
  return out;
}
