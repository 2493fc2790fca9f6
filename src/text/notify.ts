/**
 * Whether a message notifies a person: one pure rule, run by the web client on every
 * message it hears of (desktop notification, tab title) and by the server where it must
 * answer the same question (tests, the settings view). The server sends no per-person
 * notification frame: everyone's client decides from the shared message and its own
 * settings, so a message is published once however many read it. Imports nothing.
 */

/** Levels, as the reference numbers them: every message, only mentions, nothing. */
export const NOTIFY = { ALL: 0, MENTIONS: 1, NOTHING: 2 } as const;
export type NotifyLevel = (typeof NOTIFY)[keyof typeof NOTIFY];

/** `muted_until` for "until I turn it back on": the last millisecond of year 9999. */
export const MUTED_FOREVER = 253_402_300_799_999;

/** The message flag (reference 1 << 12) of a message sent silently: it never notifies. */
export const SUPPRESS_NOTIFICATIONS = 1 << 12;

/** A person's setting for one server or one channel; null level: as the scope above says. */
export interface NotifySetting {
  level: NotifyLevel | null;
  muted_until: number | null;
}

/** What the rule reads of a message (ids: internal, or whatever one client uses throughout). */
export interface NotifyMessage {
  author_id: string;
  /** null: a DM. */
  guild_id: string | null;
  flags: number;
  mention_everyone: boolean;
  mentions: readonly string[];
  mention_roles: readonly string[];
}

export interface NotifyContext {
  me: string;
  /** My roles in the message's server. */
  myRoles: readonly string[];
  channel?: NotifySetting | null;
  guild?: NotifySetting | null;
  /** The server's `default_message_notifications` (0 all, 1 only mentions). */
  serverDefault: number;
  now: number;
}

export interface NotifyDecision {
  notify: boolean;
  /** The message mentions me (directly, a role of mine, everyone; a DM always): highlight and count it, muted or not. */
  mention: boolean;
  level: NotifyLevel;
  muted: boolean;
}

export function mentionsPerson(m: NotifyMessage, me: string, myRoles: readonly string[]): boolean {
  if (m.author_id === me) return false;
  if (m.guild_id === null || m.mention_everyone || m.mentions.includes(me)) return true;
  return m.mention_roles.some((r) => myRoles.includes(r));
}

/** The channel's level, else the server's, else the server's default; a DM notifies every message unless told otherwise. */
export function effectiveLevel(ctx: Pick<NotifyContext, "channel" | "guild" | "serverDefault">, isDm: boolean): NotifyLevel {
  const own = ctx.channel?.level ?? ctx.guild?.level;
  if (own !== null && own !== undefined) return own;
  if (isDm) return NOTIFY.ALL;
  return ctx.serverDefault === NOTIFY.MENTIONS ? NOTIFY.MENTIONS : NOTIFY.ALL;
}

/** Muted in the channel or in its whole server, as of `now`. */
export function isMuted(ctx: Pick<NotifyContext, "channel" | "guild" | "now">): boolean {
  const until = (s: NotifySetting | null | undefined) => (s?.muted_until ?? 0) > ctx.now;
  return until(ctx.channel) || until(ctx.guild);
}

/**
 * One's own messages and silent ones (SUPPRESS_NOTIFICATIONS) never notify; a muted
 * channel or server notifies nothing (its mentions are still counted); otherwise the
 * level decides: every message, only those that mention me, or nothing at all.
 */
export function decideNotification(m: NotifyMessage, ctx: NotifyContext): NotifyDecision {
  const mention = mentionsPerson(m, ctx.me, ctx.myRoles);
  const level = effectiveLevel(ctx, m.guild_id === null);
  const muted = isMuted(ctx);
  const notify =
    m.author_id !== ctx.me &&
    !(m.flags & SUPPRESS_NOTIFICATIONS) &&
    !muted &&
    (level === NOTIFY.ALL || (level === NOTIFY.MENTIONS && mention));
  return { notify, mention, level, muted };
}
