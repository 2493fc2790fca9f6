import { OPT, type InteractionModel, type ResolvedModel, type StoredOption } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";
import { memberJson } from "./member";
import { roleJson } from "./role";
import { channelJson } from "./channel";
import { messageJson } from "./message";
import { attachmentJson } from "./attachment";

const ID_TYPES: readonly number[] = [OPT.USER, OPT.CHANNEL, OPT.ROLE, OPT.MENTIONABLE, OPT.ATTACHMENT];

/** INTERACTION_CREATE's payload (spec 6.3, reference-gaps 4.1). */
export function interactionCreateJson(f: Ids, m: InteractionModel): Record<string, unknown> {
  const { interaction: row, app, user } = m;
  const ch = m.channel.channel;
  const out: Record<string, unknown> = {
    id: f.of(row.id),
    application_id: f.of(app.id),
    type: row.type,
    token: m.token,
    version: 1,
    channel_id: f.of(ch.id),
    channel: { ...channelJson(f, m.channel, app.bot_user_id), permissions: String(m.invokerPermissions) },
    app_permissions: String(m.appPermissions),
    locale: user.locale,
    entitlements: [],
    authorizing_integration_owners: { "0": m.guild ? f.of(m.guild.id) : "0" },
    context: m.context,
    attachment_size_limit: m.attachmentSizeLimit,
  };
  if (m.guild) {
    out.guild_id = f.of(m.guild.id);
    out.guild = { id: f.of(m.guild.id), features: [], locale: m.guild.preferred_locale };
    out.guild_locale = m.guild.preferred_locale;
    if (m.member) out.member = { ...memberJson(f, m.member, true), permissions: String(m.invokerPermissions) };
  } else {
    out.user = userJson(f, user);
  }

  const data = m.data;
  if (data.kind === "command") {
    const d: Record<string, unknown> = { id: f.of(data.commandId), name: data.name, type: data.type };
    if (data.commandGuildId) d.guild_id = f.of(data.commandGuildId);
    if (data.targetId) d.target_id = f.of(data.targetId);
    if (data.options.length) d.options = data.options.map((o) => optionJson(f, o));
    const resolved = resolvedJson(f, m.resolved, user.id);
    if (resolved) d.resolved = resolved;
    out.data = d;
  } else {
    const d: Record<string, unknown> = { custom_id: data.customId, component_type: data.componentType };
    if (data.values) d.values = data.values;
    out.data = d;
    if (m.message) out.message = messageJson(f, m.message, { content: true });
  }
  return out;
}

function optionJson(f: Ids, o: StoredOption): Record<string, unknown> {
  if (o.options) return { name: o.name, type: o.type, options: o.options.map((x) => optionJson(f, x)) };
  const value = ID_TYPES.includes(o.type) ? f.of(String(o.value)) : o.value;
  return { name: o.name, type: o.type, value };
}

/** `resolved` for user, member, role, channel and attachment options (reference-gaps 4.1); null when empty. */
function resolvedJson(f: Ids, r: ResolvedModel, invokerId: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  if (r.users.length) out.users = Object.fromEntries(r.users.map((u) => [f.of(u.id), userJson(f, u)]));
  if (r.members.length)
    out.members = Object.fromEntries(
      r.members.map(({ member, permissions }) => {
        const { user: _u, deaf: _d, mute: _m, ...rest } = memberJson(f, member, false);
        return [f.of(member.member.user_id), { ...rest, permissions: String(permissions) }];
      }),
    );
  if (r.roles.length) out.roles = Object.fromEntries(r.roles.map((x) => [f.of(x.id), roleJson(f, x)]));
  if (r.channels.length)
    out.channels = Object.fromEntries(
      r.channels.map(({ channel, permissions, appPermissions }) => [
        f.of(channel.channel.id),
        { ...channelJson(f, channel, invokerId), permissions: String(permissions), app_permissions: String(appPermissions) },
      ]),
    );
  if (r.messages.length)
    out.messages = Object.fromEntries(r.messages.map((x) => [f.of(x.message.id), messageJson(f, x, { content: true })]));
  // A file given to a command is the reference's ephemeral attachment: no message holds it.
  if (r.attachments.length)
    out.attachments = Object.fromEntries(r.attachments.map((a) => [f.of(a.id), { ...attachmentJson(f, a), ephemeral: true }]));
  return Object.keys(out).length ? out : null;
}
