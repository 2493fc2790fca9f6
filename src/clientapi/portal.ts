/**
 * The developer portal's operations: applications (the token is shown once, at
 * creation or rotation), intents and privileged-intent approval (approve, deny,
 * revoke), the interactions endpoint URL, and installing a bot into a server.
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { DomainError } from "../core/errors";
import { PRIVILEGED_INTENTS } from "../core/permissions";
import { createApplicationWithToken, rotateToken } from "../wire/tokens";
import { SNOWFLAKE } from "../wire/snowflakes";
import type { ApplicationRow } from "../core/types";
import { pathId, person } from "./http";
import { applicationView as viewOf, userView } from "./views";
import { IntentList, intentBits, Uuid } from "./schemas";

export const CreateApp = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 32 }),
    description: Type.Optional(Type.String({ maxLength: 400 })),
    intents: Type.Optional(IntentList),
  },
  { additionalProperties: false },
);
export const EditApp = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 32 })),
    description: Type.Optional(Type.String({ maxLength: 400 })),
    interactions_endpoint_url: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const Intents = Type.Object({ intents: IntentList }, { additionalProperties: false });
/** `deny` refuses a pending request; `revoke` withdraws an approval: both leave the intents denied. */
export const Approve = Type.Object(
  { intents: IntentList, revoke: Type.Optional(Type.Boolean()), deny: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const Install = Type.Object({ guild_id: Uuid }, { additionalProperties: false });

function privilegedOnly(bits: number): number {
  if (bits & ~PRIVILEGED_INTENTS)
    throw DomainError.invalid("intents", "Only GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT need approval", "BASE_TYPE_CHOICES");
  return bits;
}

/** The portal: applications, their approval by an administrator, and installing bots. */
export function portalRoutes(p: ClientContext) {
  return new Elysia().use(applicationRoutes(p)).use(approvalRoutes(p)).use(installRoutes(p));
}

/** The portal's address is known once the server listens, so it is read per answer. */
function applicationView(p: ClientContext, a: ApplicationRow) {
  return viewOf(p.core, a, p.urls.portal);
}

/**
 * The application an install link names: its internal id, or the snowflake its bot
 * knows it by (spec 5.10 writes `<application_id>`, and a bot author has only that one).
 */
function linkedApp(p: ClientContext, raw: string | undefined): ApplicationRow {
  const id = raw && SNOWFLAKE.test(raw) ? p.flakes.uuid(raw) : pathId(raw, "application");
  if (!id) throw DomainError.notFound("application");
  return p.core.apps.require(id);
}

function owner(p: ClientContext) {
  return (id: string | undefined, me: string) => p.core.apps.requireOwned(pathId(id, "application"), me);
}

/** An application's owner manages it (spec 2.2: nobody else can see it). */
function applicationRoutes(p: ClientContext) {
  const core = p.core;
  const owned = owner(p);
  return new Elysia()
    .get(
      "/applications",
      person(p, ({ me }) => core.apps.listOwned(me.id).map((a) => applicationView(p, a))),
    )
    .post(
      "/applications",
      person(p, async ({ me, body }) => {
        const b = await body(CreateApp);
        const intents = b.intents === undefined ? undefined : intentBits(b.intents, "intents");
        const { app, token } = createApplicationWithToken(p.core.apps, p.flakes, { ownerId: me.id, name: b.name, description: b.description, intents });
        return { application: applicationView(p, core.apps.require(app.id)), token };
      }),
    )
    .get(
      "/applications/:application_id",
      person(p, ({ me, params }) => applicationView(p, owned(params.application_id, me.id))),
    )
    .patch(
      "/applications/:application_id",
      person(p, async ({ me, params, body }) => {
        const a = owned(params.application_id, me.id);
        const b = await body(EditApp);
        const next = core.apps.update(a.id, {
          name: b.name,
          description: b.description,
          interactionsEndpointUrl: b.interactions_endpoint_url,
        });
        return applicationView(p, next);
      }),
    )
    .delete(
      "/applications/:application_id",
      person(p, ({ me, params }) => {
        core.apps.delete(owned(params.application_id, me.id).id);
      }),
    )
    .post(
      "/applications/:application_id/token",
      person(p, ({ me, params }) => ({ token: rotateToken(p.core.apps, p.flakes, owned(params.application_id, me.id).id) })),
    )
    .put(
      "/applications/:application_id/intents",
      person(p, async ({ me, params, body }) => {
        const a = owned(params.application_id, me.id);
        const b = await body(Intents);
        return applicationView(p, core.apps.setIntents(a.id, intentBits(b.intents, "intents")));
      }),
    )
    .post(
      "/applications/:application_id/privileged-requests",
      person(p, async ({ me, params, body }) => {
        const a = owned(params.application_id, me.id);
        const bits = privilegedOnly(intentBits((await body(Intents)).intents, "intents"));
        return applicationView(p, core.apps.requestPrivileged(a.id, bits));
      }),
    );
}

/** Privileged intents need an administrator's approval (spec 5.8). */
function approvalRoutes(p: ClientContext) {
  const core = p.core;
  const requireAdmin = (me: { is_admin: number }) => {
    if (!me.is_admin) throw DomainError.forbidden("Only an administrator can do this");
  };
  // An administrator sees whose application it is.
  const adminView = (a: ApplicationRow) => {
    const owner = core.users.get(a.owner_id);
    return { ...applicationView(p, a), owner: owner ? userView(owner) : null };
  };
  return new Elysia()
    .get(
      "/admin/privileged-requests",
      person(p, ({ me }) => {
        requireAdmin(me);
        return core.apps.awaitingApproval().map(adminView);
      }),
    )
    .get(
      "/admin/privileged-grants",
      person(p, ({ me }) => {
        requireAdmin(me);
        return core.apps.withApprovals().map(adminView);
      }),
    )
    .post(
      "/admin/applications/:application_id/privileged",
      person(p, async ({ me, params, body }) => {
        requireAdmin(me);
        const id = pathId(params.application_id, "application");
        const b = await body(Approve);
        const bits = privilegedOnly(intentBits(b.intents, "intents"));
        return adminView(core.apps.approvePrivileged(id, me.id, bits, b.revoke !== true && b.deny !== true));
      }),
    );
}

/** Installing a bot into a server (spec 5.10), and its owner removing it from one. */
function installRoutes(p: ClientContext) {
  const core = p.core;
  const owned = owner(p);
  return new Elysia()
    .get(
      "/applications/:application_id/install",
      person(p, ({ params }) => {
        // What the install page shows: any signed-in person may look an application up by id.
        const a = linkedApp(p, params.application_id);
        return { id: a.id, name: a.name, description: a.description, bot_user_id: a.bot_user_id };
      }),
    )
    .post(
      "/applications/:application_id/install",
      person(p, async ({ me, params, body }) => {
        const a = linkedApp(p, params.application_id);
        const b = await body(Install);
        core.people.guild(me.id, b.guild_id);
        core.apps.install(a.id, b.guild_id, me.id);
      }),
    )
    .delete(
      "/applications/:application_id/guilds/:guild_id",
      person(p, ({ me, params }) => {
        const a = owned(params.application_id, me.id);
        core.apps.uninstall(a.id, pathId(params.guild_id, "guild"), me.id);
      }),
    );
}
