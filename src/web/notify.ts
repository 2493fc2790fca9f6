/**
 * Desktop notifications and the person's notification settings (docs/people-api.md).
 * The client decides, from the shared `message.created`, whether a message notifies
 * (src/text/notify.ts: the channel's level, else the server's, else the server's
 * default; mutes; mentions of me, my roles or everyone; every DM): the server sends no
 * frame per person for it. A notification shows when the tab is hidden or another
 * channel is open, and only once the browser's permission is granted.
 */
import { signal } from "@preact/signals";
import { api } from "./api";
import { channelLabel, channelOf, guildOf, me, memberName, members, route } from "./state";
import type { Channel, Message } from "./types";
import type { NotificationSetting } from "../contract";
import { decideNotification, type NotifySetting } from "../text/notify";
import { showMentions } from "../text/mentions";

/** The browser's permission to show notifications, shared by every control that asks for it. */
export const desktopPermission = signal<NotificationPermission | "unsupported">(
  typeof Notification === "undefined" ? "unsupported" : Notification.permission,
);

export async function askDesktopPermission(): Promise<void> {
  if (typeof Notification === "undefined") return;
  desktopPermission.value = await Notification.requestPermission();
}

/** The person's settings by scope (a server's or a channel's id). */
export const notifySettings = signal<Record<string, NotificationSetting>>({});

export async function loadNotifySettings(): Promise<void> {
  const list = await api<NotificationSetting[]>("GET", "/users/@me/notification-settings").catch(() => []);
  notifySettings.value = Object.fromEntries(list.map((s) => [s.scope_id, s]));
}

export function putNotifySetting(s: NotificationSetting): void {
  notifySettings.value = { ...notifySettings.value, [s.scope_id]: s };
}

/**
 * Whether a channel is muted now, by its own setting (`channel`) or its server's too
 * (`either`): a muted channel shows no unread mark, and neither it nor a channel of a
 * muted server marks its server unread; mentions in them still count (text/notify.ts).
 */
export function mutedNow(channel: Pick<Channel, "id" | "guild_id">): { channel: boolean; either: boolean } {
  const at = (scope: string | null) => {
    const until = scope ? notifySettings.value[scope]?.muted_until : null;
    return !!until && Date.parse(until) > Date.now();
  };
  const own = at(channel.id);
  return { channel: own, either: own || at(channel.guild_id) };
}

const asRule = (s: NotificationSetting | undefined): NotifySetting | null =>
  s ? { level: s.level as NotifySetting["level"], muted_until: s.muted_until === null ? null : Date.parse(s.muted_until) } : null;

export function desktopNotify(m: Message): void {
  const id = me.value?.id;
  if (!id || m.author.id === id || m.ephemeral || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (!document.hidden && route.value.channel === m.channel_id) return;
  const channel = channelOf(m.channel_id);
  const guildId = channel?.guild_id ?? null;
  const guild = guildId ? guildOf(guildId) : undefined;
  const decision = decideNotification(
    {
      author_id: m.author.id,
      guild_id: guildId,
      flags: m.flags,
      mention_everyone: m.mention_everyone,
      mentions: m.mentions.map((u) => u.id),
      mention_roles: m.mention_roles,
    },
    {
      me: id,
      myRoles: guildId ? (members.value[guildId]?.find((x) => x.user.id === id)?.roles ?? []) : [],
      channel: asRule(notifySettings.value[m.channel_id]),
      guild: guildId ? asRule(notifySettings.value[guildId]) : null,
      serverDefault: guild?.default_message_notifications ?? 0,
      now: Date.now(),
    },
  );
  if (!decision.notify) return;
  const author = memberName(m.author.id, guildId);
  const body =
    m.ciphertext !== null
      ? "New encrypted message"
      : showMentions(m.content, (kind, x) =>
          kind === "user"
            ? memberName(x, guildId)
            : kind === "role"
              ? (guild?.roles.find((r) => r.id === x)?.name ?? null)
              : channelLabel(channelOf(x)).slice(1),
        ).slice(0, 200);
  try {
    new Notification(guildId ? `${author} in ${channelLabel(channel)}` : author, { body, tag: m.id });
  } catch {
    // Some browsers allow notifications only from a service worker: nothing to show then.
  }
}
