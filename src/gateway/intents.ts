/**
 * Intent filtering, in one place (spec 6.2): which intent gates an event family, and
 * whether a session hears a delivery. Live dispatch asks here; RESUME replays frames
 * that were already filtered when they were recorded.
 */
import { INTENTS } from "../core";
import type { ContentViewer } from "../wire/visibility";
import type { Session } from "./session";

/** The intent an event family needs: its server form, or its DM form. */
export const GATES = {
  messages: (inGuild: boolean) => (inGuild ? INTENTS.GUILD_MESSAGES : INTENTS.DIRECT_MESSAGES),
  reactions: (inGuild: boolean) => (inGuild ? INTENTS.GUILD_MESSAGE_REACTIONS : INTENTS.DIRECT_MESSAGE_REACTIONS),
  typing: (inGuild: boolean) => (inGuild ? INTENTS.GUILD_MESSAGE_TYPING : INTENTS.DIRECT_MESSAGE_TYPING),
  guilds: INTENTS.GUILDS,
  members: INTENTS.GUILD_MEMBERS,
  presences: INTENTS.GUILD_PRESENCES,
  /** READY, RESUMED, INTERACTION_CREATE and a bot's own member updates. */
  always: 0,
} as const;

/** Whether a session's IDENTIFY intents let it hear a delivery gated by `intent` (0: always). */
export function hears(s: Pick<Session, "intents">, intent: number): boolean {
  return intent === 0 || (s.intents & intent) !== 0;
}

/** Whether GUILD_CREATE carries presences for this session. */
export function seesPresences(s: Pick<Session, "intents">): boolean {
  return (s.intents & INTENTS.GUILD_PRESENCES) !== 0;
}

/**
 * The session as a viewer of message content: the gateway judges by IDENTIFY's intents
 * (spec 5.7). Kept on the session: asked for every message it may receive.
 */
export function contentViewer(s: Session): ContentViewer {
  return (s.viewer ??= { botUserId: s.owner.botUserId, intents: s.intents });
}
