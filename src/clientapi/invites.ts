/** Invites: create one for a channel, look one up, join by its code, delete it. */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { DomainError } from "../core/errors";
import { INVITE_MAX_AGE, INVITE_MAX_USES } from "../core/invites";
import { pathId, person } from "./http";
import { guildView, inviteView } from "./views";

export const CreateInvite = Type.Object(
  {
    max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: INVITE_MAX_AGE })),
    max_uses: Type.Optional(Type.Integer({ minimum: 0, maximum: INVITE_MAX_USES })),
  },
  { additionalProperties: false },
);

function code(raw: string | undefined): string {
  if (!raw || !/^[A-Za-z0-9]{1,32}$/.test(raw)) throw DomainError.notFound("invite");
  return raw;
}

export function inviteRoutes(p: ClientContext) {
  const core = p.core;
  return new Elysia()
    .post(
      "/channels/:channel_id/invites",
      person(p, async ({ me, params, body }) => {
        const c = pathId(params.channel_id, "channel");
        const b = (await body(Type.Union([CreateInvite, Type.Undefined()]))) ?? {};
        return inviteView(core, core.invites.create(me.id, c, { maxAge: b.max_age, maxUses: b.max_uses }));
      }),
    )
    .get(
      "/invites/:code",
      person(p, ({ params }) => inviteView(core, core.invites.require(code(params.code)))),
    )
    .post(
      "/invites/:code",
      person(p, ({ me, params }) => guildView(core, core.invites.join(code(params.code), me.id), me.id)),
    )
    .delete(
      "/invites/:code",
      person(p, ({ me, params }) => inviteView(core, core.invites.delete(code(params.code), me.id))),
    );
}
