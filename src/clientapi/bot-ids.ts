/**
 * The ids bots see, for the web client's developer mode ("Copy server ID", "Copy channel
 * ID", "Copy message ID", "Copy user ID"): a person writing a bot needs the snowflake
 * their bot will meet (a channel to post in, a server to register commands in), and the
 * people's API speaks internal ids only. Each answers only for what the person can see,
 * checked by the core's own doors (a member of the server; a channel and a message they
 * can read; someone they share a server or a DM with), and a 404 otherwise, so an id
 * reveals nothing a bot in the same place would not see.
 */
import * as C from "../contract";
import type { ClientContext } from "./context";
import { pathId, route, type PeopleRoute } from "./http";
import { DomainError } from "../core";

export function botIdRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const answer = (internal: string) => ({ id: p.flakes.of(internal) });
  return [
    route({
      method: "GET",
      path: "/guilds/{guild_id}/bot-id",
      caller: "session",
      summary: "A server's id as bots see it (a snowflake); a server one is not in is 404",
      answer: C.BotId,
      handler: ({ caller: { user: me }, params }) => {
        const g = pathId(params.guild_id, "guild");
        if (!core.guilds.isMember(g, me.id)) throw DomainError.notFound("guild");
        return answer(g);
      },
    }),
    route({
      method: "GET",
      path: "/channels/{channel_id}/bot-id",
      caller: "session",
      summary: "A channel's id as bots see it, for a channel one can see",
      answer: C.BotId,
      handler: ({ caller: { user: me }, params }) => answer(core.channels.get(me.id, pathId(params.channel_id, "channel")).id),
    }),
    route({
      method: "GET",
      path: "/channels/{channel_id}/messages/{message_id}/bot-id",
      caller: "session",
      summary: "A message's id as bots see it, for a message one can read",
      answer: C.BotId,
      handler: ({ caller: { user: me }, params }) =>
        answer(core.messages.fetch(me.id, pathId(params.channel_id, "channel"), pathId(params.message_id, "message")).id),
    }),
    route({
      method: "GET",
      path: "/users/{user_id}/bot-id",
      caller: "session",
      summary: "A person's or a bot's user id as bots see it: oneself, or someone one shares a server or a DM with",
      answer: C.BotId,
      handler: ({ caller: { user: me }, params }) => answer(core.profiles.profile(me.id, pathId(params.user_id, "user")).user.id),
    }),
  ];
}
