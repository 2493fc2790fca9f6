import type { BotApi } from "../../botapi/context";
import type { MessageRow } from "../../core/types";
import type { InteractionRow, StoredOption } from "../../core/interactions";
import { interactionContext } from "../../core/interactions";
import { OPT } from "../../core/commands";
import { PERMISSIONS } from "../../core/permissions";
import { userJson } from "./user";
import { memberJson } from "./member";
import { roleJson } from "./role";
import { channelJson } from "./channel";
import { messageJson } from "./message";

/** Reference-shaped upload limit; Parley itself takes no uploads (spec 1.5). */
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

/**
 * INTERACTION_CREATE's payload for one stored interaction (spec 6.3, reference-gaps
 * 4.1), or null if it no longer exists or its token is no longer held. The gateway
 * calls this for every `interaction.created` event.
 */
export function interactionCreateJson(api: BotApi, interactionId: string): Record<string, unknown> | null {
  const core = api.core;
  const row = core.interactions.get(interactionId);
  const token = row ? core.interactions.tokenFor(row.id) : null;
  const app = row ? core.apps.get(row.application_id) : null;
  const ch = row ? core.guilds.channel(row.channel_id) : null;
  const user = row ? core.users.get(row.user_id) : null;
  if (!row || !token || !app || !ch || !user) return null;
  const f = api.flakes;
  const guildId = row.guild_id;
  const invokerPerms = guildId ? core.guilds.permissions(guildId, user.id, ch.id) : 0;
  const botInChannel = core.messages.canSee(ch, app.bot_user_id);
  const context = interactionContext(row, botInChannel);

  const out: Record<string, unknown> = {
    id: f.of(row.id),
    application_id: f.of(app.id),
    type: row.type,
    token,
    version: 1,
    channel_id: f.of(ch.id),
    channel: { ...channelJson(api, ch, app.bot_user_id), permissions: String(invokerPerms) },
    app_permissions: String(guildId ? core.guilds.permissions(guildId, app.bot_user_id, ch.id) : PERMISSIONS.ATTACH_FILES),
    locale: user.locale,
    entitlements: [],
    authorizing_integration_owners: { "0": guildId ? f.of(guildId) : "0" },
    context,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  };
  if (guildId) {
    const g = core.guilds.require(guildId);
    const mem = core.guilds.member(guildId, user.id);
    out.guild_id = f.of(guildId);
    out.guild = { id: f.of(guildId), features: [], locale: g.preferred_locale };
    out.guild_locale = g.preferred_locale;
    if (mem) out.member = { ...memberJson(api, mem, true), permissions: String(invokerPerms) };
  } else {
    out.user = userJson(f, user);
  }

  const data = core.interactions.data(row);
  if (data.kind === "command") {
    const d: Record<string, unknown> = { id: f.of(data.commandId), name: data.name, type: data.type };
    if (data.commandGuildId) d.guild_id = f.of(data.commandGuildId);
    if (data.options.length) d.options = data.options.map((o) => optionJson(api, o));
    const resolved = resolvedJson(api, row, data.options);
    if (resolved) d.resolved = resolved;
    out.data = d;
  } else {
    const d: Record<string, unknown> = { custom_id: data.customId, component_type: data.componentType };
    if (data.values) d.values = data.values;
    out.data = d;
    const m = row.message_id ? core.messages.get(row.message_id) : null;
    if (m) out.message = messageJson(api, m, { content: true, viewerId: app.bot_user_id });
  }
  return out;
}

const ID_TYPES: readonly number[] = [OPT.USER, OPT.CHANNEL, OPT.ROLE, OPT.MENTIONABLE];

function optionJson(api: BotApi, o: StoredOption): Record<string, unknown> {
  if (o.options) return { name: o.name, type: o.type, options: o.options.map((x) => optionJson(api, x)) };
  const value = ID_TYPES.includes(o.type) ? api.flakes.of(String(o.value)) : o.value;
  return { name: o.name, type: o.type, value };
}

/** `resolved` for user, member, role and channel options (reference-gaps 4.1). */
function resolvedJson(api: BotApi, row: InteractionRow, options: StoredOption[]): Record<string, unknown> | null {
  const core = api.core;
  const f = api.flakes;
  const users: Record<string, unknown> = {};
  const members: Record<string, unknown> = {};
  const roles: Record<string, unknown> = {};
  const channels: Record<string, unknown> = {};
  const visit = (o: StoredOption) => {
    o.options?.forEach(visit);
    if (!ID_TYPES.includes(o.type) || typeof o.value !== "string") return;
    const id = o.value;
    const u = core.users.get(id);
    if (u && (o.type === OPT.USER || o.type === OPT.MENTIONABLE)) {
      users[f.of(id)] = userJson(f, u);
      const mem = row.guild_id ? core.guilds.member(row.guild_id, id) : null;
      if (mem) {
        const { user: _u, deaf: _d, mute: _m, ...rest } = memberJson(api, mem, false) as Record<string, unknown>;
        members[f.of(id)] = { ...rest, permissions: String(core.guilds.permissions(row.guild_id!, id, row.channel_id)) };
      }
      return;
    }
    const role = row.guild_id ? core.guilds.role(row.guild_id, id) : null;
    if (role) {
      roles[f.of(id)] = roleJson(f, role);
      return;
    }
    const c = core.guilds.channel(id);
    if (c) {
      const perms = c.guild_id ? core.guilds.permissions(c.guild_id, row.user_id, c.id) : 0;
      const app = core.apps.get(row.application_id);
      const appPerms = c.guild_id && app ? core.guilds.permissions(c.guild_id, app.bot_user_id, c.id) : 0;
      channels[f.of(id)] = { ...channelJson(api, c, row.user_id), permissions: String(perms), app_permissions: String(appPerms) };
    }
  };
  options.forEach(visit);
  const out: Record<string, unknown> = {};
  if (Object.keys(users).length) out.users = users;
  if (Object.keys(members).length) out.members = members;
  if (Object.keys(roles).length) out.roles = roles;
  if (Object.keys(channels).length) out.channels = channels;
  return Object.keys(out).length ? out : null;
}

/**
 * `interaction_metadata` (reference-gaps 3.8) and the deprecated `interaction` of a
 * message an interaction produced; {} for other messages.
 */
export function interactionMetadataJson(api: BotApi, m: MessageRow): Record<string, unknown> {
  if (!m.interaction_id) return {};
  const row = api.core.interactions.get(m.interaction_id);
  const user = row ? api.core.users.get(row.user_id) : null;
  if (!row || !user) return {};
  const f = api.flakes;
  const meta: Record<string, unknown> = {
    id: f.of(row.id),
    type: row.type,
    user: userJson(f, user),
    authorizing_integration_owners: { "0": row.guild_id ? f.of(row.guild_id) : "0" },
  };
  if (row.response_message_id && row.response_message_id !== m.id) meta.original_response_message_id = f.of(row.response_message_id);
  if (row.message_id) meta.interacted_message_id = f.of(row.message_id);
  const out: Record<string, unknown> = { interaction_metadata: meta };
  const data = api.core.interactions.data(row);
  if (data.kind === "command") {
    out.interaction = { id: f.of(row.id), type: row.type, name: data.name, user: userJson(f, user) };
  }
  return out;
}
