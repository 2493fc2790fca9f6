/**
 * The people's API JSON for running a community (contract/community.ts): bans, audit
 * entries with their actors' names, profile cards, accounts, instance invites, servers
 * and the administrators' overview. Pure functions of core models, as in views.ts.
 */
import type {
  AccountModel,
  AuditChange,
  AuditEntry,
  GuildDeletion,
  InstanceInvite,
  Overview,
  ProfileModel,
  ServerSummary,
  User,
} from "../core";
import { isoUtc } from "../wire/time";
import type * as C from "../contract";
import { meView, roleView, userView } from "./views";

export function banView(b: { ban: { reason: string | null }; user: User }): C.Ban {
  return { user: userView(b.user), reason: b.ban.reason };
}

export function auditEntryView(row: AuditEntry, actor: User | null, target: User | null): C.AuditEntry {
  return {
    id: row.id,
    action_type: row.action_type,
    actor: actor ? userView(actor) : null,
    target_id: row.target_id,
    target_user: target ? userView(target) : null,
    changes: JSON.parse(row.changes) as AuditChange[],
    options: row.options ? (JSON.parse(row.options) as Record<string, unknown>) : null,
    reason: row.reason,
    created_at: isoUtc(row.created_at),
  };
}

export function deletionView(d: GuildDeletion): C.GuildDeletion {
  return {
    id: d.guild.id,
    name: d.guild.name,
    channels: d.channels,
    categories: d.categories,
    messages: d.messages,
    members: d.members,
    roles: d.roles,
  };
}

export function profileView(p: ProfileModel): C.Profile {
  return { user: userView(p.user), nick: p.member?.nick ?? null, roles: p.roles.map(roleView), mutual_guild_ids: p.mutualGuildIds };
}

export function accountView(a: AccountModel): C.Account {
  return {
    user: meView(a.user),
    disabled: a.user.disabled_at !== null,
    applications: a.applications.map((x) => ({ id: x.id, name: x.name, disabled: x.disabled_at !== null })),
    owned_guilds: a.ownedGuilds,
  };
}

export function instanceInviteView(i: InstanceInvite): C.InstanceInvite {
  return {
    id: i.id,
    created_by: i.created_by,
    max_uses: i.max_uses,
    uses: i.uses,
    expires_at: i.expires_at === null ? null : isoUtc(i.expires_at),
    created_at: isoUtc(i.created_at),
  };
}

export function serverView(s: ServerSummary): C.ServerSummary {
  return {
    id: s.guild.id,
    name: s.guild.name,
    owner: s.owner ? userView(s.owner) : null,
    member_count: s.memberCount,
    channel_count: s.channelCount,
    created_at: isoUtc(s.guild.created_at),
  };
}

export function overviewView(o: Overview, about?: { version: string; uptimeSeconds(): number }): C.AdminOverview {
  const c = o.counts;
  return {
    version: about?.version ?? null,
    uptime_seconds: about ? about.uptimeSeconds() : null,
    counts: {
      people: c.people,
      disabled_people: c.disabledPeople,
      administrators: c.administrators,
      applications: c.applications,
      servers: c.servers,
      channels: c.channels,
      messages: c.messages,
    },
    database_bytes: o.databaseBytes,
    media_bytes: o.mediaBytes,
    days: o.days.map((d) => ({ day: d.day, messages: d.messages, active_people: d.activePeople, requests: d.requests })),
    at: isoUtc(o.at),
  };
}
