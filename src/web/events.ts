/** Live events (docs/people-api.md, "Live connection") applied to what the screen shows. */
import type { Channel, DeviceJson, Guild, Member, Message, ReadState, Role } from "./types";
import { onDeviceEvent } from "./dm-crypto";
import { desktopNotify, putNotifySetting } from "./notify";
import type { NotificationSetting } from "../contract";
import { api } from "./api";
import { open } from "./load";
import { BIT, PERMISSIONS } from "./names";
import {
  dms,
  editing,
  guildOf,
  guilds,
  interactions,
  logs,
  me,
  members,
  patchMessage,
  readStates,
  rememberUsers,
  removeMessage,
  route,
  setPresence,
  setReadState,
  showNotice,
  typing,
  upsertMessage,
} from "./state";

type Removal = "left" | "kicked" | "banned" | "deleted";

/** What the person is told when a server leaves their list (live guild.deleted's `cause`). */
const REMOVALS: Record<Removal, (name: string) => string> = {
  left: (name) => `You left ${name}.`,
  kicked: (name) => `You were kicked from ${name}.`,
  banned: (name) => `You were banned from ${name}.`,
  deleted: (name) => `${name} was deleted.`,
};

/** How long a typing notice lasts without another (the reference client uses 10 s). */
const TYPING_MS = 10_000;

type Handler = (data: any) => void;

const HANDLERS: Record<string, Handler> = {
  "message.created": (m: Message) => {
    upsertMessage(m);
    lastIn(m);
    stopTyping(m.channel_id, m.author.id);
    if (m.author.id !== me.value?.id && !m.ephemeral) markUnread(m);
    desktopNotify(m);
  },
  "message.updated": (m: Message) => {
    upsertMessage(m);
    recountIfUnread(m);
  },
  "message.deleted": (d: { id: string; channel_id: string }) => {
    recountIfUnread(d);
    // The message being edited went with it: the edit ends (the composer takes focus back,
    // rather than the page's body) and the person is told why their words went.
    if (editing.value === d.id) {
      editing.value = null;
      showNotice("The message you were editing was deleted.");
    }
    removeMessage(d.channel_id, d.id);
  },
  "reaction.added": (d: ReactionEvent) => reaction(d, true),
  "reaction.removed": (d: ReactionEvent) => reaction(d, false),
  "typing.started": (d: { channel_id: string; user_id: string }) => {
    const now = Date.now();
    typing.value = { ...typing.value, [d.channel_id]: { ...typing.value[d.channel_id], [d.user_id]: now + TYPING_MS } };
  },
  "presence.updated": (d: { user_id: string; status: string }) => setPresence(d.user_id, d.status),
  "guild.created": (g: Guild) => putGuild(g),
  "guild.updated": (g: Guild) => putGuild(g),
  "guild.deleted": (d: { id: string; cause?: Removal }) => {
    const gone = guildOf(d.id);
    guilds.value = guilds.value.filter((g) => g.id !== d.id);
    // Said in words: a server vanishing from under the reader looked like a fault.
    if (gone) showNotice(REMOVALS[d.cause ?? "left"](gone.name));
    // Reading it: go where a reload would land, in place of an address that now names nothing.
    if (route.value.guild === d.id) void open({ guild: d.id, channel: null }, false);
  },
  "member.added": (d: { guild_id: string; member: Member | null }) => putMember(d.guild_id, d.member),
  "member.updated": (d: { guild_id: string; member: Member | null }) => {
    putMember(d.guild_id, d.member);
    if (!d.member || d.member.user.id !== me.value?.id) return;
    // The person's own roles changed: what they may do changes with them.
    refreshMyPermissions(d.guild_id, d.member.roles);
    // Their name or picture, changed in another of their browsers: this one shows it too.
    const { username, global_name, avatar } = d.member.user;
    me.value = { ...me.value, username, global_name, avatar };
  },
  "member.removed": (d: { guild_id: string; user_id: string }) => {
    const list = members.value[d.guild_id];
    if (list) members.value = { ...members.value, [d.guild_id]: list.filter((m) => m.user.id !== d.user_id) };
  },
  "channel.created": (c: Channel) => putChannel(c),
  "channel.updated": (c: Channel) => putChannel(c),
  "channel.deleted": (d: { id: string; guild_id: string | null }) => {
    guilds.value = guilds.value.map((g) => (g.id === d.guild_id ? { ...g, channels: g.channels.filter((c) => c.id !== d.id) } : g));
    dms.value = dms.value.filter((c) => c.id !== d.id);
    // Reading it: go where a reload would land (the server's first text channel), in place of the gone address.
    if (route.value.channel === d.id) void open({ guild: d.guild_id ?? "@me", channel: null }, false);
  },
  // Closed in another of this person's browsers: gone from the list here too.
  "dm.closed": (d: { id: string }) => {
    dms.value = dms.value.filter((c) => c.id !== d.id);
    if (route.value.channel === d.id) void open({ guild: "@me", channel: null }, false);
  },
  "role.created": (d: { guild_id: string; role: Role }) => putRole(d.guild_id, d.role),
  "role.updated": (d: { guild_id: string; role: Role }) => putRole(d.guild_id, d.role),
  "role.deleted": (d: { guild_id: string; role_id: string }) => {
    guilds.value = guilds.value.map((g) => (g.id === d.guild_id ? { ...g, roles: g.roles.filter((r) => r.id !== d.role_id) } : g));
    refreshMyPermissions(d.guild_id);
  },
  "interaction.created": (d: InteractionEvent) => interaction(d),
  "interaction.updated": (d: InteractionEvent) => interaction(d),
  "read_state.updated": (r: ReadState | null) => r && setReadState(r),
  "notification_settings.updated": (s: NotificationSetting) => putNotifySetting(s),
  "device.added": (d: DeviceJson) => onDeviceEvent(d),
  "device.removed": (d: DeviceJson) => onDeviceEvent(d),
};

interface ReactionEvent {
  message_id: string;
  channel_id: string;
  user_id: string;
  emoji: string;
  count: number;
}

interface InteractionEvent {
  id: string;
  application_id: string;
  channel_id: string;
  state: "pending" | "deferred" | "responded";
}

export function applyEvent(type: string, data: unknown): void {
  HANDLERS[type]?.(data);
}

function reaction(d: ReactionEvent, added: boolean): void {
  const mine = d.user_id === me.value?.id;
  patchMessage(d.channel_id, d.message_id, (m) => {
    const old = m.reactions.find((r) => r.emoji === d.emoji);
    const meNow = mine ? added : (old?.me ?? false);
    const rest = m.reactions.filter((r) => r.emoji !== d.emoji);
    if (d.count <= 0) return { ...m, reactions: rest };
    const next = { emoji: d.emoji, count: d.count, me: meNow };
    return { ...m, reactions: old ? m.reactions.map((r) => (r.emoji === d.emoji ? next : r)) : [...rest, next] };
  });
}

function stopTyping(channelId: string, userId: string): void {
  const here = typing.value[channelId];
  if (!here?.[userId]) return;
  const { [userId]: _, ...rest } = here;
  typing.value = { ...typing.value, [channelId]: rest };
}

/** A message from someone else: the channel is unread, and a mention counts. */
function markUnread(m: Message): void {
  const old = readStates.value[m.channel_id] ?? { channel_id: m.channel_id, last_read_id: null, unread: false, mention_count: 0 };
  setReadState({ ...old, unread: true, mention_count: old.mention_count + (mentionsMe(m) ? 1 : 0) });
}

/** How long edits and deletes are gathered before the counts are asked for again. */
const RECOUNT_MS = 250;
/** Channels whose mention counts are to be asked for again. */
const recounting = new Set<string>();

/**
 * An unread message edited (a mention added or taken out) or deleted changes the
 * channel's mention count as the server counts it, which a reload would show: so the
 * counts are asked for again, once for a burst of such changes, rather than guessed here
 * from a message the page may never have loaded. Only those channels' counts are taken:
 * the answer may be older than a message that arrived meanwhile, whose unread mark stays.
 */
function recountIfUnread(m: { id: string; channel_id: string }): void {
  const r = readStates.value[m.channel_id];
  if (!r?.unread || (r.last_read_id !== null && m.id <= r.last_read_id)) return;
  if (recounting.size === 0) setTimeout(recountNow, RECOUNT_MS);
  recounting.add(m.channel_id);
}

function recountNow(): void {
  const channels = new Set(recounting);
  recounting.clear();
  void api<ReadState[]>("GET", "/users/@me/read-states").then(
    (all) => {
      for (const s of all) {
        const here = readStates.value[s.channel_id];
        // A channel marked read meanwhile keeps its mark: this answer may be older than it.
        if (!channels.has(s.channel_id) || !here || here.last_read_id !== s.last_read_id) continue;
        setReadState({ ...here, mention_count: s.mention_count });
      }
    },
    () => {},
  );
}

export function mentionsMe(m: Message): boolean {
  const id = me.value?.id;
  if (!id || m.author.id === id) return false;
  if (m.mention_everyone || m.mentions.some((u) => u.id === id)) return true;
  const c = guilds.value.find((g) => g.channels.some((x) => x.id === m.channel_id));
  if (!c) return dms.value.some((x) => x.id === m.channel_id);
  const mine = members.value[c.id]?.find((x) => x.user.id === id)?.roles ?? [];
  return m.mention_roles.some((r) => mine.includes(r));
}

function putGuild(g: Guild): void {
  // The server's own my_permissions for this person: newer than any answer still on its way.
  settled[g.id] = (settled[g.id] ?? 0) + 1;
  const i = guilds.value.findIndex((x) => x.id === g.id);
  guilds.value = i >= 0 ? guilds.value.map((x) => (x.id === g.id ? g : x)) : [...guilds.value, g];
}

function putMember(guildId: string, m: Member | null): void {
  if (!m) return;
  rememberUsers([m.user]);
  const list = members.value[guildId];
  if (!list) return;
  const next = list.some((x) => x.user.id === m.user.id) ? list.map((x) => (x.user.id === m.user.id ? m : x)) : [...list, m];
  members.value = { ...members.value, [guildId]: next };
}

/** A DM's newest message, which orders the person's conversations (newest first). */
function lastIn(m: Message): void {
  const c = dms.value.find((x) => x.id === m.channel_id);
  if (c && (c.last_message_id ?? "") < m.id) dms.value = dms.value.map((x) => (x === c ? { ...c, last_message_id: m.id } : x));
}

function putChannel(c: Channel): void {
  if (c.guild_id === null) {
    rememberUsers(c.recipients ?? []);
    dms.value = dms.value.some((x) => x.id === c.id) ? dms.value.map((x) => (x.id === c.id ? c : x)) : [...dms.value, c];
    return;
  }
  guilds.value = guilds.value.map((g) => {
    if (g.id !== c.guild_id) return g;
    const has = g.channels.some((x) => x.id === c.id);
    const channels = has ? g.channels.map((x) => (x.id === c.id ? c : x)) : [...g.channels, c];
    return { ...g, channels: channels.sort((a, b) => (a.position ?? 0) - (b.position ?? 0)) };
  });
}

function putRole(guildId: string, r: Role): void {
  guilds.value = guilds.value.map((g) => {
    if (g.id !== guildId) return g;
    const has = g.roles.some((x) => x.id === r.id);
    return { ...g, roles: has ? g.roles.map((x) => (x.id === r.id ? r : x)) : [...g.roles, r] };
  });
  refreshMyPermissions(guildId);
}

/** Every permission Parley honours: what the owner and an Administrator hold (core/permissions.ts). */
const ALL_PERMISSIONS = PERMISSIONS.reduce((all, p) => all | p.bit, 0);

/**
 * The person's server permissions exactly as the server computes `my_permissions`
 * (core/permission-reader.ts): the owner holds all; anyone else @everyone's bits and
 * their roles' together, and all of them with Administrator. A role id the server no
 * longer has (deleted since the member list was read) gives nothing.
 */
function permissionsIn(g: Guild, roleIds: readonly string[], userId: string): number {
  if (g.owner_id === userId) return ALL_PERMISSIONS;
  let bits = 0;
  for (const r of g.roles) if (r.everyone || roleIds.includes(r.id)) bits |= Number(r.permissions);
  return bits & BIT.ADMINISTRATOR ? ALL_PERMISSIONS : bits >>> 0;
}

/** Per server, bumped whenever my_permissions is set from something newer than an answer on its way. */
const settled: Record<string, number> = {};
/** Servers whose my_permissions is being read; true when another change came meanwhile. */
const reading = new Map<string, boolean>();

/**
 * Bring the person's my_permissions in a server up to date after their roles or the
 * server's roles changed, so settings, menus and the composer follow at once: from the
 * roles they hold when the page knows them (the event's, or the loaded member list),
 * else read afresh from the server.
 */
function refreshMyPermissions(guildId: string, myRoles?: readonly string[]): void {
  const id = me.value?.id;
  const g = guildOf(guildId);
  if (!id || !g) return;
  const roles = myRoles ?? members.value[guildId]?.find((m) => m.user.id === id)?.roles;
  if (roles || g.owner_id === id) {
    settled[guildId] = (settled[guildId] ?? 0) + 1;
    setMyPermissions(guildId, permissionsIn(g, roles ?? [], id));
  } else readMyPermissions(guildId);
}

/** One read at a time per server (a reorder changes many roles at once); a change meanwhile reads once more. */
function readMyPermissions(guildId: string): void {
  if (reading.has(guildId)) return void reading.set(guildId, true);
  reading.set(guildId, false);
  const turn = settled[guildId] ?? 0;
  api<Guild>("GET", `/guilds/${guildId}`)
    .then(
      (fresh) => {
        if ((settled[guildId] ?? 0) === turn) setMyPermissions(guildId, Number(fresh.my_permissions));
      },
      () => undefined, // gone, or no longer a member: its own event says so
    )
    .finally(() => {
      const again = reading.get(guildId);
      reading.delete(guildId);
      if (again) readMyPermissions(guildId);
    });
}

function setMyPermissions(guildId: string, bits: number): void {
  const value = String(bits);
  if (guildOf(guildId)?.my_permissions === value) return;
  guilds.value = guilds.value.map((g) => (g.id === guildId ? { ...g, my_permissions: value } : g));
}

function interaction(d: InteractionEvent): void {
  const old = interactions.value[d.id];
  const botName = old?.botName ?? "The app";
  interactions.value = {
    ...interactions.value,
    [d.id]: { id: d.id, channel_id: d.channel_id, application_id: d.application_id, state: d.state, botName, kind: old?.kind ?? "command" },
  };
}

/** The history of channels other than the open one is dropped on a fresh start. */
export function forgetLogs(): void {
  logs.value = {};
}
