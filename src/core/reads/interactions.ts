import type { CoreDeps } from "../deps";
import type { Guilds } from "../guilds";
import type { Users } from "../users";
import type { Applications } from "../applications";
import type { Messages } from "../messages";
import { interactionContext, type Interactions, type StoredOption } from "../interactions";
import { OPT } from "../commands";
import { PERMISSIONS } from "../permissions";
import { canSee } from "../access";
import type { GuildReads } from "./guilds";
import type { MessageReads } from "./messages";
import type { InteractionModel, ResolvedModel } from "../composites";
import { handedFile } from "../interaction-files";

const ID_TYPES: readonly number[] = [OPT.USER, OPT.CHANNEL, OPT.ROLE, OPT.MENTIONABLE];

/** The read model of INTERACTION_CREATE. */
export class InteractionReads {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly apps: Applications,
    private readonly messages: Messages,
    private readonly interactions: Interactions,
    private readonly guildReads: GuildReads,
    private readonly messageReads: MessageReads,
  ) {}

  /** Null if it no longer exists or its token is no longer held (its 15 minutes are over). */
  create(interactionId: string, sent?: string): InteractionModel | null {
    const row = this.interactions.get(interactionId);
    // `sent`: the token the event carried (the interaction may have begun on another node).
    const token = row ? (this.interactions.tokenFor(row.id) ?? sent ?? null) : null;
    const app = row ? this.apps.get(row.application_id) : null;
    const ch = row ? this.guilds.channel(row.channel_id) : null;
    const user = row ? this.users.get(row.user_id) : null;
    if (!row || !token || !app || !ch || !user) return null;
    const guildId = row.guild_id;
    const data = this.interactions.data(row);
    const message = row.message_id ? this.messages.get(row.message_id) : null;
    return {
      interaction: row,
      token,
      app,
      channel: this.guildReads.channelOf(ch),
      user,
      data,
      context: interactionContext(row, canSee(this.d, this.guilds, ch, app.bot_user_id)),
      invokerPermissions: guildId ? this.guilds.permissions(guildId, user.id, ch.id) : 0,
      attachmentSizeLimit: this.d.media.limits.maxFileBytes,
      appPermissions: guildId ? this.guilds.permissions(guildId, app.bot_user_id, ch.id) : PERMISSIONS.ATTACH_FILES,
      guild: guildId ? this.guilds.require(guildId) : null,
      member: guildId ? this.guildReads.member(guildId, user.id) : null,
      resolved:
        data.kind === "command"
          ? this.resolved(row.guild_id, row.channel_id, row.user_id, app.bot_user_id, data.options, data.targetId)
          : emptyResolved(),
      message: message ? this.messageReads.message(message, { viewerId: app.bot_user_id }) : null,
    };
  }

  /** The users, members, roles and channels that id-typed options name (reference-gaps 4.1). */
  private resolved(
    guildId: string | null,
    channelId: string,
    invokerId: string,
    botUserId: string,
    options: StoredOption[],
    targetId?: string,
  ): ResolvedModel {
    const out = emptyResolved();
    const seen = new Set<string>();
    // A context-menu target resolves as a user option would (a user command), or as the message itself.
    if (targetId) {
      const m = this.messages.get(targetId);
      if (m) {
        out.messages.push(this.messageReads.message(m, { viewerId: botUserId }));
        seen.add(targetId);
      } else options = [{ name: "target", type: OPT.USER, value: targetId }, ...options];
    }
    const visit = (o: StoredOption) => {
      o.options?.forEach(visit);
      if (o.type === OPT.ATTACHMENT && typeof o.value === "string" && !seen.has(o.value)) {
        seen.add(o.value);
        const file = handedFile(this.d, o.value);
        if (file) out.attachments.push(file);
        return;
      }
      if (!ID_TYPES.includes(o.type) || typeof o.value !== "string" || seen.has(o.value)) return;
      const id = o.value;
      seen.add(id);
      const u = this.users.get(id);
      if (u && (o.type === OPT.USER || o.type === OPT.MENTIONABLE)) {
        out.users.push(u);
        const member = guildId ? this.guildReads.member(guildId, id) : null;
        if (member) out.members.push({ member, permissions: this.guilds.permissions(guildId!, id, channelId) });
        return;
      }
      const role = guildId ? this.guilds.role(guildId, id) : null;
      if (role) {
        out.roles.push(role);
        return;
      }
      const c = this.guilds.channel(id);
      if (c) {
        const permissions = c.guild_id ? this.guilds.permissions(c.guild_id, invokerId, c.id) : 0;
        const appPermissions = c.guild_id ? this.guilds.permissions(c.guild_id, botUserId, c.id) : 0;
        out.channels.push({ channel: this.guildReads.channelOf(c), permissions, appPermissions });
      }
    };
    options.forEach(visit);
    return out;
  }
}

function emptyResolved(): ResolvedModel {
  return { users: [], members: [], roles: [], channels: [], messages: [], attachments: [] };
}
