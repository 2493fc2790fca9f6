/**
 * More of what people do (design/harness.md: act as any person): edit their own
 * messages, delete their own (or, as a moderator, another's), start typing, make an
 * invite, join a server by invite and leave it. The same core operations as the people's
 * API run them; a test never needs the people's API or internal ids to play a person.
 */
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError, MAX_CONTENT } from "../core";
import { Snowflake } from "../wire/validation";
import { textIn } from "../wire/mentions";
import { route } from "./http";
import { Lookup } from "./lookup";
import type { DmClient } from "./dms";

export const EditBody = Type.Object({ content: Type.String({ maxLength: MAX_CONTENT }) }, { additionalProperties: false });
export const ChannelBody = Type.Object({ channel_id: Snowflake }, { additionalProperties: false });
export const InviteBody = Type.Object(
  {
    channel_id: Snowflake,
    max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800 })),
    max_uses: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);
const CODE = /^[A-Za-z0-9-]{2,32}$/;

export function harnessActions(p: HarnessContext, dms: DmClient): Route<HarnessContext>[] {
  const look = new Lookup(p);
  return [...messageActions(p, dms, look), ...otherActions(p, look)];
}

/** Edit and delete, as a person (a DM's new text is encrypted again). */
function messageActions(p: HarnessContext, dms: DmClient, look: Lookup): Route<HarnessContext>[] {
  const { core } = p;
  /** A message and its channel, by the message's snowflake. */
  const messageOf = (flake: string) => {
    const m = core.messages.get(look.internal(flake, "message", "message_id"));
    if (!m) throw DomainError.notFound("message");
    return m;
  };
  return [
    route({
      method: "PATCH",
      path: "/users/{user}/messages/{message_id}",
      caller: "harness",
      summary: "Edit a person's own message (a DM is encrypted again)",
      body: EditBody,
      handler: async ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const m = messageOf(params.message_id);
        const ch = core.people.channel(me.id, m.channel_id);
        if (ch.guild_id) core.people.edit(me.id, ch.id, m.id, { content: textIn(b.content, p.flakes) });
        else await dms.edit(me, m, b.content);
      },
    }),
    route({
      method: "DELETE",
      path: "/users/{user}/messages/{message_id}",
      caller: "harness",
      summary: "Delete a message as a person",
      handler: ({ params }) => {
        const me = look.person(params.user);
        const m = messageOf(params.message_id);
        core.messages.deleteAs(me.id, m.channel_id, m.id);
      },
    }),
  ];
}

/** Typing, invites and leaving, as a person. */
function otherActions(p: HarnessContext, look: Lookup): Route<HarnessContext>[] {
  const { core } = p;
  return [
    route({
      method: "POST",
      path: "/users/{user}/typing",
      caller: "harness",
      summary: "Start typing as a person",
      body: ChannelBody,
      handler: ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        core.channels.typing(me.id, look.internal(b.channel_id, "channel", "channel_id"));
      },
    }),
    route({
      method: "POST",
      path: "/users/{user}/invites",
      caller: "harness",
      summary: "Make an invite as a person",
      body: InviteBody,
      handler: ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const inv = core.invites.create(me.id, look.internal(b.channel_id, "channel", "channel_id"), {
          maxAge: b.max_age,
          maxUses: b.max_uses,
        });
        return { code: inv.code };
      },
    }),
    route({
      method: "POST",
      path: "/users/{user}/invites/{code}",
      caller: "harness",
      summary: "Join a server by invite as a person",
      handler: ({ params }) => {
        const me = look.person(params.user);
        if (!CODE.test(params.code)) throw DomainError.notFound("invite");
        return { guild_id: p.flakes.of(core.invites.join(params.code, me.id).id) };
      },
    }),
    route({
      method: "DELETE",
      path: "/users/{user}/guilds/{guild_id}",
      caller: "harness",
      summary: "Leave a server as a person",
      handler: ({ params }) => {
        const me = look.person(params.user);
        core.people.leave(me.id, look.internal(params.guild_id, "guild", "guild_id"));
      },
    }),
  ];
}
