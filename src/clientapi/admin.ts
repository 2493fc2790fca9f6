/**
 * The instance's administration for its administrators (/admin in the web client; every
 * act also a `parley` command, cli/admin.ts): the overview, people (search, disable,
 * delete, reset links, administrators), registration and sign-up invites, and servers.
 * The core refuses anyone but an administrator (core/admins.ts); this file reads ids and
 * shapes answers. Privileged intents are portal.ts's.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { CreateInstanceInvite, DisableAccount, RegistrationSettings, SetAdministrator } from "../contract";
import * as C from "../contract";
import { DomainError } from "../core";
import { pathId, route, type PeopleRoute } from "./http";
import { isoUtc } from "../wire/time";
import { meView } from "./views";
import { accountView, deletionView, instanceInviteView, overviewView, serverView } from "./community-views";

const Deleted = Type.Object({ username: Type.String(), messages: Type.Integer(), servers: Type.Integer() });

/** Longer than 80 lines because it is a table: one declaration per route. */
export function adminRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/admin/overview",
      caller: "session",
      summary: "Counts, sizes, and messages, active people and requests per day over 30 days (administrators)",
      answer: C.AdminOverview,
      handler: ({ caller: { user: me } }) => overviewView(core.stats.overview(me.id), p.about),
    }),
    route({
      method: "GET",
      path: "/admin/users",
      caller: "session",
      summary: "People, by username or display name (administrators)",
      query: Type.Object({ q: Type.Optional(Type.String()), after: Type.Optional(Type.String()) }),
      answer: Type.Array(C.Account),
      handler: ({ caller: { user: me }, query }) => {
        const q = query.get("q") ?? "";
        if (q.length > 64) throw DomainError.invalid("q", "Must be 64 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
        const after = query.get("after");
        return core.accounts.list(me.id, { search: q, limit: 100, ...(after ? { after: pathId(after, "user") } : {}) }).map(accountView);
      },
    }),
    route({
      method: "POST",
      path: "/admin/users/{user_id}/disable",
      caller: "session",
      summary: "Disable or enable a person (and, with applications, their bots) (administrators)",
      answer: C.Me,
      body: DisableAccount,
      handler: ({ caller: { user: me }, params, body }) => {
        const b = body();
        return meView(
          core.accounts.setDisabled(me.id, pathId(params.user_id, "user"), b.disabled, { applications: b.applications === true }),
        );
      },
    }),
    route({
      method: "DELETE",
      path: "/admin/users/{user_id}",
      caller: "session",
      summary: "Delete a person: their messages stay, shown as from Deleted User (administrators)",
      answer: Deleted,
      handler: ({ caller: { user: me }, params }) => core.accounts.delete(me.id, pathId(params.user_id, "user")),
    }),
    route({
      method: "POST",
      path: "/admin/users/{user_id}/password-reset",
      caller: "session",
      summary: "A one-time password reset link for a person (administrators)",
      answer: C.ResetLink,
      handler: ({ caller: { user: me }, params }) => {
        const issued = core.passwordResets.issue(me.id, pathId(params.user_id, "user"));
        return { url: `${p.urls.base}/reset-password/${issued.token}`, expires_at: isoUtc(issued.expiresAt) };
      },
    }),
    route({
      method: "PUT",
      path: "/admin/users/{user_id}/admin",
      caller: "session",
      summary: "Make or unmake an administrator; the last one is never unmade (administrators)",
      answer: C.Me,
      body: SetAdministrator,
      handler: ({ caller: { user: me }, params, body }) =>
        meView(core.accounts.setAdmin(me.id, pathId(params.user_id, "user"), body().admin)),
    }),
    route({
      method: "GET",
      path: "/instance",
      caller: "none",
      summary: "Who may sign up here, who may create servers, and whether anyone administers it yet (anyone: the sign-in page says so)",
      answer: C.InstanceAbout,
      handler: () => {
        const s = core.instance.settings();
        return { registration: s.registration, guild_creation: s.guildCreation, administered: !core.setup.waiting() };
      },
    }),
    route({
      method: "PUT",
      path: "/admin/registration",
      caller: "session",
      summary: "Set who may sign up (open, invite, closed) and who may create servers (administrators)",
      answer: C.Registration,
      body: RegistrationSettings,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        const s = core.instance.update(me.id, {
          ...(b.registration === undefined ? {} : { registration: b.registration }),
          ...(b.guild_creation === undefined ? {} : { guildCreation: b.guild_creation }),
        });
        return { registration: s.registration, guild_creation: s.guildCreation };
      },
    }),
    route({
      method: "GET",
      path: "/admin/instance-invites",
      caller: "session",
      summary: "Sign-up invites that still admit someone (administrators)",
      answer: Type.Array(C.InstanceInvite),
      handler: ({ caller: { user: me } }) => core.instance.invites(me.id).map(instanceInviteView),
    }),
    route({
      method: "POST",
      path: "/admin/instance-invites",
      caller: "session",
      summary: "Make a sign-up invite; its code is shown this once (administrators)",
      answer: C.NewInstanceInvite,
      body: CreateInstanceInvite,
      bodyOptional: true,
      handler: ({ caller: { user: me }, body }) => {
        const b = body();
        const made = core.instance.createInvite(me.id, {
          maxUses: b.max_uses,
          ...(b.max_age === undefined ? {} : { expiresInMs: b.max_age === 0 ? null : b.max_age * 1000 }),
        });
        return { code: made.code, invite: instanceInviteView(made.invite) };
      },
    }),
    route({
      method: "DELETE",
      path: "/admin/instance-invites/{invite_id}",
      caller: "session",
      summary: "Revoke a sign-up invite (administrators)",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.instance.revokeInvite(me.id, pathId(params.invite_id, "invite"));
      },
    }),
    route({
      method: "GET",
      path: "/admin/guilds",
      caller: "session",
      summary: "Every server, with its owner and members (administrators)",
      query: Type.Object({ q: Type.Optional(Type.String()) }),
      answer: Type.Array(C.ServerSummary),
      handler: ({ caller: { user: me }, query }) => core.servers.list(me.id, (query.get("q") ?? "").slice(0, 100)).map(serverView),
    }),
    route({
      method: "DELETE",
      path: "/admin/guilds/{guild_id}",
      caller: "session",
      summary: "Delete a server and everything in it (administrators only, owners included)",
      answer: C.GuildDeletion,
      handler: ({ caller: { user: me }, params }) =>
        deletionView(core.servers.delete(me.id, pathId(params.guild_id, "guild"), { asAdministrator: true })),
    }),
  ];
}
