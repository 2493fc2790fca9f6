/** Invites: create one for a channel, look one up, join by its code, delete it. */
import type { ClientContext } from "./context";
import { CreateInvite } from "../contract";
import * as C from "../contract";
import { DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { guildView, inviteView } from "./views";

function code(raw: string | undefined): string {
  if (!raw || !/^[A-Za-z0-9]{1,32}$/.test(raw)) throw DomainError.notFound("invite");
  return raw;
}

export function inviteRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "POST",
      path: "/channels/{channel_id}/invites",
      caller: "session",
      summary: "Create an invite",
      answer: C.Invite,
      body: CreateInvite,
      bodyOptional: true,
      handler: ({ caller: { user: me }, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = body();
        return inviteView(core, core.invites.create(me.id, c, { maxAge: b.max_age, maxUses: b.max_uses }));
      },
    }),
    route({
      method: "GET",
      path: "/invites/{code}",
      caller: "none",
      summary: "An invite: the server's name and member count, to anyone who has the link",
      answer: C.Invite,
      handler: ({ params }) => {
        // Signed out, a visitor sees which server it is; never its channels or who made it.
        const v = inviteView(core, core.invites.require(code(params.code)));
        return { ...v, channel: null, inviter_id: null };
      },
    }),
    route({
      method: "POST",
      path: "/invites/{code}",
      caller: "session",
      summary: "Accept an invite (join its server)",
      answer: C.Guild,
      handler: ({ caller: { user: me }, params }) => guildView(core, core.invites.join(code(params.code), me.id), me.id),
    }),
    route({
      method: "DELETE",
      path: "/invites/{code}",
      caller: "session",
      summary: "Delete an invite",
      answer: C.Invite,
      handler: ({ caller: { user: me }, params }) => inviteView(core, core.invites.delete(code(params.code), me.id)),
    }),
  ];
}
