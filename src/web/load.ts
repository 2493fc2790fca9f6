/**
 * Reading what the screen needs over HTTP: everything after a fresh start of the live
 * connection, a server's members, a channel's history page by page, and navigation.
 */
import { signal } from "@preact/signals";
import { api } from "./api";
import type { Channel, Guild, Member, Message, ReadState } from "./types";
import {
  channelOf,
  dms,
  guildOf,
  guilds,
  heldUnread,
  loaded,
  logs,
  me,
  members,
  readStates,
  rememberUsers,
  route,
  setReadState,
  showNotice,
  type Route,
} from "./state";

const PAGE = 50;

/** Everything the screen shows, read afresh (first start, or a live stream that could not resume). */
export async function loadAll(): Promise<void> {
  const [gs, ds, rs] = await Promise.all([
    api<Guild[]>("GET", "/guilds"),
    api<Channel[]>("GET", "/users/@me/dms"),
    api<ReadState[]>("GET", "/users/@me/read-states"),
  ]);
  guilds.value = gs;
  dms.value = ds;
  for (const c of ds) rememberUsers(c.recipients ?? []);
  readStates.value = Object.fromEntries(rs.map((r) => [r.channel_id, r]));
  members.value = {};
  logs.value = {};
  await open(validRoute(route.value), false);
  loaded.value = true;
}

/** The route if it still names something the person can see; otherwise their first server's first channel. */
function validRoute(r: Route): Route {
  if (r.guild === "@me") return { guild: "@me", channel: r.channel && dms.value.some((c) => c.id === r.channel) ? r.channel : null };
  const g = guildOf(r.guild) ?? guilds.value[0];
  if (!g) return { guild: "@me", channel: null };
  const text = g.channels.filter((c) => c.type === 0 || c.type === 5);
  const c = text.find((x) => x.id === r.channel) ?? text[0];
  return { guild: g.id, channel: c?.id ?? null };
}

/** Open a server (its first channel unless one is named) or a channel; loads what is missing. */
export async function open(r: Route, push = true): Promise<void> {
  const next = validRoute(r);
  const was = route.value.channel;
  route.value = next;
  const path =
    next.guild === "@me" ? `/channels/@me${next.channel ? `/${next.channel}` : ""}` : `/channels/${next.guild}/${next.channel ?? ""}`;
  if (location.pathname !== path) history[push ? "pushState" : "replaceState"](null, "", path);
  const work: Promise<unknown>[] = [];
  if (next.guild !== "@me" && !members.value[next.guild]) work.push(loadMembers(next.guild));
  if (next.channel && !logs.value[next.channel]) work.push(loadOlder(next.channel));
  await Promise.all(work);
  if (next.channel) {
    // Opened anew (not the live connection's fresh start, nor a click on the channel one is in): a Mark unread there ends.
    if (next.channel !== was) hold(next.channel, false);
    void markRead(next.channel);
  }
}

/** Open (or make) the DM with someone one shares a server with, and go there. */
export async function openDmWith(userId: string): Promise<void> {
  const c = await api<Channel>("POST", "/users/@me/dms", { recipient_id: userId });
  rememberUsers(c.recipients ?? []);
  if (!dms.value.some((x) => x.id === c.id)) dms.value = [...dms.value, c];
  await open({ guild: "@me", channel: c.id });
}

/** The route a URL names (/channels/<server or @me>/<channel>). */
export function routeOf(pathname: string): Route {
  const [, head, guild, channel] = pathname.split("/");
  // Anywhere else: the first server's first channel, once the servers are known.
  if (head !== "channels" || !guild) return { guild: "", channel: null };
  return { guild, channel: channel || null };
}

export async function loadMembers(guildId: string): Promise<void> {
  const list = await api<Member[]>("GET", `/guilds/${guildId}/members`);
  rememberUsers(list.map((m) => m.user));
  members.value = { ...members.value, [guildId]: list };
}

/** Older pages on their way, by channel: whoever asks meanwhile waits for the same one. */
const loadingOlder: Record<string, Promise<void> | undefined> = {};

/**
 * The next older page of a channel's history (the first page when none is loaded). One at
 * a time per channel: an ask while one is on its way (the log scrolled to its top, then
 * Up pressed) resolves when that page is in, not at once with nothing new.
 */
export function loadOlder(channelId: string): Promise<void> {
  const log = logs.value[channelId];
  const waiting = loadingOlder[channelId];
  if (log?.loading && waiting) return waiting;
  if (log?.loading || log?.complete) return Promise.resolve();
  const done = fetchOlder(channelId).finally(() => delete loadingOlder[channelId]);
  loadingOlder[channelId] = done;
  return done;
}

async function fetchOlder(channelId: string): Promise<void> {
  const log = logs.value[channelId] ?? { list: [], complete: false, loading: false };
  logs.value = { ...logs.value, [channelId]: { ...log, loading: true } };
  const oldest = log.list[0]?.id;
  try {
    const page = await api<Message[]>("GET", `/channels/${channelId}/messages?limit=${PAGE}${oldest ? `&before=${oldest}` : ""}`);
    for (const m of page) rememberUsers([m.author, ...m.mentions, m.interaction?.user]);
    const now = logs.value[channelId] ?? log;
    const known = new Set(now.list.map((m) => m.id));
    const older = page.filter((m) => !known.has(m.id)).reverse();
    logs.value = { ...logs.value, [channelId]: { list: [...older, ...now.list], complete: page.length < PAGE, loading: false } };
  } catch (e) {
    logs.value = { ...logs.value, [channelId]: { ...(logs.value[channelId] ?? log), loading: false } };
    throw e;
  }
}

let marking: Record<string, string> = {};
/** When each channel was last marked, and a mark waiting for its turn: at most one mark per channel every 2 s. */
const READ_MARK_MS = 2000;
const markedAt: Record<string, number> = {};
const markLater: Record<string, ReturnType<typeof setTimeout>> = {};
/** The newest message each channel showed while the person looked at it: what its next mark may cover. */
const seen: Record<string, string> = {};
/** Each channel's last "Mark unread", by when: the open channel's "New messages" line moves there at once. */
export const unreadMarked = signal<Record<string, number>>({});

/**
 * The open channel, on screen, is read up to its newest message (once per message, and
 * in a busy channel at most once every 2 s: the last mark waits and covers what arrived
 * meanwhile). Only what was on screen when this was called: a mark that waits its turn
 * never covers a message that came after the person left the channel or the tab.
 */
export function markRead(channelId: string): Promise<void> {
  // Marked unread by the person: not a new message nor coming back to the tab reads it, until they open it anew.
  if (heldUnread.value.has(channelId)) return Promise.resolve();
  const list = logs.value[channelId]?.list ?? [];
  const last = [...list].reverse().find((m) => !m.ephemeral);
  if (last && !(seen[channelId] >= last.id)) seen[channelId] = last.id;
  return sendMark(channelId);
}

async function sendMark(channelId: string): Promise<void> {
  const wait = (markedAt[channelId] ?? 0) + READ_MARK_MS - Date.now();
  if (wait > 0) {
    markLater[channelId] ??= setTimeout(() => {
      delete markLater[channelId];
      void sendMark(channelId);
    }, wait);
    return;
  }
  const upTo = seen[channelId];
  const state = readStates.value[channelId];
  if (!upTo || !me.value) return;
  if (state?.last_read_id && state.last_read_id >= upTo) return;
  if (marking[channelId] === upTo) return;
  marking = { ...marking, [channelId]: upTo };
  markedAt[channelId] = Date.now();
  try {
    setReadState(await api<ReadState>("PUT", `/channels/${channelId}/read`, { message_id: upTo }));
  } catch {
    // A message deleted meanwhile: the next one marks it.
  } finally {
    const { [channelId]: _, ...rest } = marking;
    marking = rest;
  }
}

/**
 * A server's "Mark as read": each of its channels read up to its newest message, as the
 * server answers (the live connection tells the person's other tabs). Failing, the marks
 * stay as they were: nothing to undo.
 */
export async function markServerRead(guildId: string): Promise<void> {
  try {
    for (const state of await api<ReadState[]>("PUT", `/guilds/${guildId}/read`)) {
      // Read on purpose: a channel marked unread while open is read like the rest from now on.
      hold(state.channel_id, false);
      setReadState(state);
    }
  } catch {}
}

/**
 * "Mark unread" from a message: the channel read up to the one before it, as the server
 * answers; it stays unread while the person is still looking at it.
 */
export async function markUnread(m: Pick<Message, "channel_id" | "id">): Promise<void> {
  hold(m.channel_id, true);
  clearTimeout(markLater[m.channel_id]);
  delete markLater[m.channel_id];
  try {
    setReadState(await api<ReadState>("PUT", `/channels/${m.channel_id}/messages/${m.id}/unread`));
    unreadMarked.value = { ...unreadMarked.value, [m.channel_id]: Date.now() };
  } catch {
    hold(m.channel_id, false);
    showNotice("The server did not mark the message unread.");
  }
}

function hold(channelId: string, on: boolean): void {
  if (heldUnread.value.has(channelId) === on) return;
  const next = new Set(heldUnread.value);
  if (on) next.add(channelId);
  else next.delete(channelId);
  heldUnread.value = next;
}

/** The open channel, if any. */
export function openChannel(): Channel | undefined {
  return channelOf(route.value.channel);
}
