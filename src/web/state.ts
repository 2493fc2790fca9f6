/**
 * What the screen shows, as signals: the people's API's JSON kept by id. Collections
 * are replaced, never mutated, so every reader of a signal sees a change.
 */
import { signal } from "@preact/signals";
import type { Channel, Guild, Me, Member, Message, ReadState, User } from "./types";

export interface ChannelLog {
  /** Oldest first. */
  list: Message[];
  /** No older messages left to load. */
  complete: boolean;
  loading: boolean;
}

export interface PendingInteraction {
  id: string;
  channel_id: string;
  application_id: string;
  state: "pending" | "deferred" | "responded" | "failed";
  botName: string;
  /** A command run, or a component used: they fail in different words, and only a command "thinks" when deferred. */
  kind: "command" | "component";
}

/** The open server ("@me" for direct messages; "" until the first one is picked) and channel. */
export interface Route {
  guild: string;
  channel: string | null;
}

export const me = signal<Me | null>(null);
export const guilds = signal<Guild[]>([]);
export const dms = signal<Channel[]>([]);
/** Members by server id. */
export const members = signal<Record<string, Member[]>>({});
/** Everyone the client has seen, by id: the one place presence is kept. */
export const users = signal<Record<string, User>>({});
export const logs = signal<Record<string, ChannelLog>>({});
/** Who is typing where: channel id -> user id -> until (ms since epoch). */
export const typing = signal<Record<string, Record<string, number>>>({});
export const readStates = signal<Record<string, ReadState>>({});
/**
 * Channels the person marked unread while looking at them ("Mark unread", load.ts): shown
 * unread though open, and marked read by nothing until they open the channel anew.
 */
export const heldUnread = signal<ReadonlySet<string>>(new Set());
export const route = signal<Route>({ guild: "", channel: null });
export const interactions = signal<Record<string, PendingInteraction>>({});
/** Ephemeral messages the person dismissed. */
export const dismissed = signal<ReadonlySet<string>>(new Set());
/** "ended": the session ended (live.ts), so there is no reconnecting. */
export const liveState = signal<"connecting" | "online" | "offline" | "ended">("connecting");
/** The chat's first full read has finished (load.ts's loadAll): where it starts is known. */
export const loaded = signal(false);
/** The message whose text the person is editing (one at a time; Up in the composer opens the last). */
export const editing = signal<string | null>(null);
/** A short message for the person (failed sends and the like), shown in a status line. */
export const notice = signal<string | null>(null);

export function displayName(u: Pick<User, "username" | "global_name"> | undefined | null): string {
  return u ? u.global_name || u.username : "Unknown";
}

/** A user's name as the open server shows it (nickname first). */
export function memberName(userId: string, guildId: string | null): string {
  const m = guildId ? members.value[guildId]?.find((x) => x.user.id === userId) : undefined;
  return m?.nick || displayName(users.value[userId] ?? m?.user);
}

export function rememberUsers(list: (User | null | undefined)[]): void {
  let next: Record<string, User> | null = null;
  for (const u of list) {
    if (!u) continue;
    const old = users.value[u.id];
    if (old && old.presence === u.presence && old.global_name === u.global_name && old.username === u.username && old.avatar === u.avatar)
      continue;
    next ??= { ...users.value };
    // A user's view names an avatar only when there is one: its absence clears it.
    next[u.id] = { ...old, ...u, avatar: u.avatar };
  }
  if (next) users.value = next;
}

export function setPresence(userId: string, status: string): void {
  const old = users.value[userId];
  if (old) users.value = { ...users.value, [userId]: { ...old, presence: status } };
  const mine = me.value;
  if (mine && mine.id === userId) me.value = { ...mine, presence: status };
}

export function guildOf(id: string): Guild | undefined {
  return guilds.value.find((g) => g.id === id);
}

export function channelOf(id: string | null): Channel | undefined {
  if (!id) return undefined;
  for (const g of guilds.value) {
    const c = g.channels.find((x) => x.id === id);
    if (c) return c;
  }
  return dms.value.find((c) => c.id === id);
}

/** What the composer and the heading call a channel: "#name", or "@name" in a DM. */
export function channelLabel(c: Channel | undefined): string {
  if (!c) return "";
  if (c.guild_id === null) return `@${displayName(c.recipients?.[0])}`;
  return `#${c.name ?? ""}`;
}

export function upsertMessage(m: Message): void {
  rememberUsers([m.author, ...m.mentions, m.interaction?.user]);
  const log = logs.value[m.channel_id];
  if (!log) return; // not loaded: it will come with the channel's history
  const i = log.list.findIndex((x) => x.id === m.id);
  let list: Message[];
  if (i >= 0) list = log.list.map((x) => (x.id === m.id ? m : x));
  else if (!log.list.length || log.list[log.list.length - 1].id < m.id) list = [...log.list, m];
  else list = [...log.list, m].sort((a, b) => (a.id < b.id ? -1 : 1));
  logs.value = { ...logs.value, [m.channel_id]: { ...log, list } };
}

export function patchMessage(channelId: string, id: string, fn: (m: Message) => Message): void {
  const log = logs.value[channelId];
  if (!log || !log.list.some((x) => x.id === id)) return;
  logs.value = { ...logs.value, [channelId]: { ...log, list: log.list.map((x) => (x.id === id ? fn(x) : x)) } };
}

export function removeMessage(channelId: string, id: string): void {
  const log = logs.value[channelId];
  if (!log) return;
  logs.value = { ...logs.value, [channelId]: { ...log, list: log.list.filter((x) => x.id !== id) } };
}

export function setReadState(r: ReadState): void {
  readStates.value = { ...readStates.value, [r.channel_id]: r };
}

export function showNotice(text: string): void {
  notice.value = text;
}

/** Put `text` on the clipboard and say so in the status line, or say `refused` when the browser will not. */
export async function copyAndSay(text: string, copied: string, refused: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showNotice(copied);
  } catch {
    showNotice(refused);
  }
}
