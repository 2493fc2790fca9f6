/**
 * The developer portal's operations: applications (the token is shown once, at
 * creation or rotation), intents and privileged-intent approval (approve, deny,
 * revoke), the interactions endpoint URL, and installing a bot into a server.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { Approve, CreateApp, EditApp, Install, Intents, SetImage } from "../contract";
import * as C from "../contract";
import { type Application, DomainError, PRIVILEGED_INTENTS } from "../core";
import { createApplicationWithToken, rotateToken } from "../wire/tokens";
import { SNOWFLAKE } from "../wire/snowflakes";
import { pathId, route, type PeopleRoute } from "./http";
import { applicationView as viewOf, userView } from "./views";
import { intentBits } from "./schemas";

function privilegedOnly(bits: number): number {
  if (bits & ~PRIVILEGED_INTENTS)
    throw DomainError.invalid("intents", "Only GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT need approval", "BASE_TYPE_CHOICES");
  return bits;
}

/** The portal: applications, their approval by an administrator, and installing bots. */
export function portalRoutes(p: ClientContext): PeopleRoute[] {
  return [...applicationRoutes(p), ...botRoutes(p), ...approvalRoutes(p), ...installRoutes(p)];
}

/**
 * The ids a bot program knows an application by (snowflakes, as on the bot API), and the
 * servers its bot is in, by their page ids (what a deploy script registers a server's
 * commands under: `Routes.applicationGuildCommands(app, server)`, `discord.Object(id=…)`).
 */
const BotIds = Type.Object({
  application_id: Type.String(),
  bot_user_id: Type.String(),
  guild_ids: Type.Record(Type.String(), Type.String()),
});

/** An application's icon: the hash of its bot's avatar (`/avatars/{bot_user_id}/{hash}.png`), null without one. */
const AppIcon = Type.Object({ icon: Type.Union([Type.String(), Type.Null()]) });

/**
 * The bot as its program knows it: its ids, and its icon, which is its bot's avatar
 * (core/media.ts): what people see beside the bot's messages and in member lists, and
 * what a bot library reads as the bot's avatar.
 */
function botRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const owned = owner(p);
  return [
    route({
      method: "GET",
      path: "/applications/{application_id}/icon",
      caller: "session",
      summary: "An application's icon (its bot's avatar)",
      answer: AppIcon,
      handler: ({ caller: { user: me }, params }) => ({
        icon: core.users.get(owned(params.application_id, me.id).bot_user_id)?.avatar ?? null,
      }),
    }),
    route({
      method: "GET",
      path: "/applications/{application_id}/bot-ids",
      caller: "session",
      summary:
        "The snowflakes a bot program knows the application by: its Application ID (to register commands with), its bot user's, and its servers'",
      answer: BotIds,
      // The one place the pages meet a snowflake besides the token: a bot author needs the
      // Application ID for a command-deploy script or a library's `applicationId`, and here
      // it is not the bot user's id (docs/compatibility.md).
      handler: ({ caller: { user: me }, params }) => {
        const a = owned(params.application_id, me.id);
        return {
          application_id: p.flakes.of(a.id),
          bot_user_id: p.flakes.of(a.bot_user_id),
          // Only the servers its bot is in: what the bot itself is told of.
          guild_ids: Object.fromEntries(core.guilds.guildIdsOf(a.bot_user_id).map((g) => [g, p.flakes.of(g)])),
        };
      },
    }),
    route({
      method: "PUT",
      path: "/applications/{application_id}/icon",
      caller: "session",
      summary: "Set an application's icon (its bot's avatar) from a filled avatar upload slot, or clear it",
      answer: AppIcon,
      body: SetImage,
      handler: async ({ caller: { user: me }, params, body }) => {
        const a = owned(params.application_id, me.id);
        const b = body();
        const bot = await core.media.setApplicationIcon(me.id, a.id, b.upload_id === null ? null : { uploadId: b.upload_id });
        return { icon: bot.avatar ?? null };
      },
    }),
  ];
}

/** The portal's address is known once the server listens, so it is read per answer. */
function applicationView(p: ClientContext, a: Application) {
  return viewOf(p.core, a, p.urls.portal);
}

/**
 * The application an install link names: its internal id, or the snowflake its bot
 * knows it by (spec 5.10 writes `<application_id>`, and a bot author has only that one),
 * or its bot user's snowflake (what a bot printing its own link has as `client.user.id`).
 */
function linkedApp(p: ClientContext, raw: string | undefined): Application {
  const id = raw && SNOWFLAKE.test(raw) ? p.flakes.uuid(raw) : pathId(raw, "application");
  if (!id) throw DomainError.notFound("application");
  return p.core.apps.requireLinked(id);
}

function owner(p: ClientContext) {
  return (id: string | undefined, me: string) => p.core.apps.requireOwned(pathId(id, "application"), me);
}

/** An application's owner manages it (spec 2.2: nobody else can see it). Longer than 80 lines because it is a table: one declaration per route. */
function applicationRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const owned = owner(p);
  return [
    route({
      method: "GET",
      path: "/applications",
      caller: "session",
      summary: "One's applications",
      answer: Type.Array(C.Application),
      handler: ({ caller: { user: me } }) => core.apps.listOwned(me.id).map((a) => applicationView(p, a)),
    }),
    route({
      method: "POST",
      path: "/applications",
      caller: "session",
      summary: "Create an application (its token is shown once)",
      answer: C.NewApplication,
      body: CreateApp,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        const intents = b.intents === undefined ? undefined : intentBits(b.intents, "intents");
        const { app, token } = createApplicationWithToken(p.core.apps, p.flakes, {
          ownerId: me.id,
          name: b.name,
          description: b.description,
          intents,
        });
        return { application: applicationView(p, core.apps.require(app.id)), token };
      },
    }),
    route({
      method: "GET",
      path: "/applications/{application_id}",
      caller: "session",
      summary: "An application",
      answer: C.Application,
      handler: ({ caller: { user: me }, params }) => applicationView(p, owned(params.application_id, me.id)),
    }),
    route({
      method: "PATCH",
      path: "/applications/{application_id}",
      caller: "session",
      summary: "Edit an application",
      answer: C.Application,
      body: EditApp,
      handler: ({ caller: { user: me }, params, body }) => {
        const a = owned(params.application_id, me.id);
        const b = body();
        const next = core.apps.update(a.id, {
          name: b.name,
          description: b.description,
          interactionsEndpointUrl: b.interactions_endpoint_url,
        });
        return applicationView(p, next);
      },
    }),
    route({
      method: "DELETE",
      path: "/applications/{application_id}",
      caller: "session",
      summary: "Delete an application",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.apps.delete(owned(params.application_id, me.id).id);
      },
    }),
    route({
      method: "POST",
      path: "/applications/{application_id}/token",
      caller: "session",
      summary: "Rotate the bot token (shown once)",
      answer: C.Token,
      handler: ({ caller: { user: me }, params }) => ({
        token: rotateToken(p.core.apps, p.flakes, owned(params.application_id, me.id).id),
      }),
    }),
    route({
      method: "PUT",
      path: "/applications/{application_id}/intents",
      caller: "session",
      summary: "Set the intents the application asks for",
      answer: C.Application,
      body: Intents,
      handler: ({ caller: { user: me }, params, body }) => {
        const a = owned(params.application_id, me.id);
        const b = body();
        return applicationView(p, core.apps.setIntents(a.id, intentBits(b.intents, "intents")));
      },
    }),
    route({
      method: "POST",
      path: "/applications/{application_id}/privileged-requests",
      caller: "session",
      summary: "Ask the administrator for privileged intents",
      answer: C.Application,
      body: Intents,
      handler: ({ caller: { user: me }, params, body }) => {
        const a = owned(params.application_id, me.id);
        const bits = privilegedOnly(intentBits(body().intents, "intents"));
        return applicationView(p, core.apps.requestPrivileged(a.id, bits));
      },
    }),
  ];
}

/** Privileged intents need an administrator's approval (spec 5.8). */
function approvalRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  // An administrator sees whose application it is.
  const adminView = (a: Application) => {
    const owner = core.users.get(a.owner_id);
    return { ...applicationView(p, a), owner: owner ? userView(owner) : null };
  };
  return [
    route({
      method: "GET",
      path: "/admin/privileged-requests",
      caller: "session",
      summary: "Pending privileged intent requests (administrators)",
      answer: Type.Array(C.Application),
      handler: ({ caller: { user: me } }) => core.apps.privilegedRequests(me.id).map(adminView),
    }),
    route({
      method: "GET",
      path: "/admin/privileged-grants",
      caller: "session",
      summary: "Applications with approved privileged intents (administrators)",
      answer: Type.Array(C.Application),
      handler: ({ caller: { user: me } }) => core.apps.privilegedGrants(me.id).map(adminView),
    }),
    route({
      method: "POST",
      path: "/admin/applications/{application_id}/privileged",
      caller: "session",
      summary: "Approve, deny or revoke privileged intents (administrators)",
      answer: C.Application,
      body: Approve,
      handler: ({ caller: { user: me }, params, body }) => {
        // The core refuses anyone but an administrator (core/admins.ts).
        const id = pathId(params.application_id, "application");
        const b = body();
        const bits = privilegedOnly(intentBits(b.intents, "intents"));
        return adminView(core.apps.approvePrivileged(id, me.id, bits, b.revoke !== true && b.deny !== true));
      },
    }),
  ];
}

/** Installing a bot into a server (spec 5.10), and its owner removing it from one. */
function installRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const owned = owner(p);
  return [
    route({
      method: "GET",
      path: "/applications/{application_id}/install",
      caller: "session",
      summary: "Where the application's bot is installed",
      answer: C.InstallInfo,
      handler: ({ caller: { user: me }, params }) => {
        // What the install page shows: any signed-in person may look an application up by id,
        // and learns where the bot already is only among the servers they are in themselves.
        const a = linkedApp(p, params.application_id);
        const installed_in = core.guilds.guildIdsOf(me.id).filter((g) => core.guilds.isMember(g, a.bot_user_id));
        return { id: a.id, name: a.name, description: a.description, bot_user_id: a.bot_user_id, installed_in };
      },
    }),
    route({
      method: "POST",
      path: "/applications/{application_id}/install",
      caller: "session",
      summary: "Install the bot into a server",
      answers: "empty",
      body: Install,
      handler: ({ caller: { user: me }, params, body }) => {
        const a = linkedApp(p, params.application_id);
        const b = body();
        core.people.guild(me.id, b.guild_id);
        core.apps.install(a.id, b.guild_id, me.id);
      },
    }),
    route({
      method: "DELETE",
      path: "/applications/{application_id}/guilds/{guild_id}",
      caller: "session",
      summary: "Remove the bot from a server",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        const a = owned(params.application_id, me.id);
        core.apps.uninstall(a.id, pathId(params.guild_id, "guild"), me.id);
      },
    }),
  ];
}
