/**
 * Following a conversation (issue 28): search in a server, the mentions inbox, a
 * channel's pins and one's notification settings. Each calls the one core operation the
 * bot API and the harness use (core/search.ts, core/pins.ts, core/notifications.ts), so
 * rights are decided there: search only finds what the person may read, never a DM.
 */
import { Type } from "@sinclair/typebox";
import type { ClientContext } from "./context";
import { PutNotificationSetting } from "../contract";
import * as C from "../contract";
import { DomainError } from "../core";
import type { Core, SearchCriteria } from "../core/index";
import type { HasKind } from "../core/index";
import { isoUtc } from "../wire/time";
import { pathId, route, type PeopleRoute } from "./http";
import { messageView, settingView } from "./views";

const HAS = new Set(["file", "image", "video", "sound", "link", "embed"]);

function int(q: URLSearchParams, name: string, def: number): number {
  const raw = q.get(name);
  if (raw === null || raw === "") return def;
  if (!/^-?\d+$/.test(raw)) throw DomainError.invalid(name, `Value "${raw}" is not int.`, "NUMBER_TYPE_COERCE");
  return Number(raw);
}

const ids = (q: URLSearchParams, name: string) => q.getAll(name).map((v) => pathId(v, name));

/**
 * The reference's search query (content, author_id, channel_id, mentions, has, min_id,
 * max_id, pinned) beside Parley's typed grammar in `content` (from:, in:, has:, ...,
 * src/text/search-query.ts): the named filters narrow what the typed ones say.
 */
function criteria(
  core: Pick<Core, "search">,
  personId: string,
  guildId: string,
  q: URLSearchParams,
): { criteria: SearchCriteria; problems: string[] } {
  const typed = core.search.criteria(personId, guildId, q.get("content") ?? "", int(q, "utc_offset", 0));
  const c = typed.criteria;
  const authors = ids(q, "author_id");
  const channels = ids(q, "channel_id");
  const mentions = ids(q, "mentions");
  if (authors.length) c.authorIds = authors;
  if (channels.length) c.channelIds = channels;
  if (mentions.length) c.mentionIds = mentions;
  const has = q.getAll("has");
  for (const h of has)
    if (!HAS.has(h)) throw DomainError.invalid("has", `Value "${h}" is not one of ${[...HAS].join(", ")}.`, "BASE_TYPE_CHOICES");
  if (has.length) c.has = [...new Set([...(c.has ?? []), ...(has as HasKind[])])];
  if (q.get("min_id")) c.minId = pathId(q.get("min_id")!, "min_id");
  if (q.get("max_id")) c.maxId = pathId(q.get("max_id")!, "max_id");
  const pinned = q.get("pinned");
  if (pinned === "true" || pinned === "false") c.pinned = pinned === "true";
  else if (pinned !== null) throw DomainError.invalid("pinned", `Value "${pinned}" is not boolean.`, "BASE_TYPE_BOOLEAN");
  return { criteria: c, problems: typed.problems };
}

/** An ISO time (or null) as ms; 400 at `name` otherwise. */
function timeOf(v: string | null | undefined, name: string): number | null | undefined {
  if (v === undefined || v === null) return v;
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw DomainError.invalid(name, `Value "${v}" is not a valid ISO8601 timestamp.`, "DATE_TYPE_PARSE");
  return ms;
}

export function conversationRoutes(p: ClientContext): PeopleRoute[] {
  return [...searchRoutes(p), ...pinRoutes(p), ...notificationRoutes(p)];
}

const viewer = (p: ClientContext) => (m: Parameters<typeof messageView>[1], me: string) => messageView(p.core, m, me, p.flakes.media);

function searchRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const view = viewer(p);
  return [
    route({
      method: "GET",
      path: "/guilds/{guild_id}/messages/search",
      caller: "session",
      summary:
        "Search a server's messages one may read (content with from:, in:, has:, mentions:, before:, after:, pinned:; the reference's filters)",
      answer: C.SearchResults,
      handler: ({ caller: { user: me }, params, query }) => {
        const guildId = pathId(params.guild_id, "guild");
        const { criteria: c, problems } = criteria(core, me.id, guildId, query);
        const found = {
          ...core.search.query(me.id, { guildId }, c, { offset: int(query, "offset", 0), limit: int(query, "limit", 25) }),
          problems,
        };
        return {
          total: found.total,
          messages: found.messages.map((m) => view(m, me.id)),
          problems: found.problems,
          indexing: found.indexing,
        };
      },
    }),
    route({
      method: "GET",
      path: "/users/@me/mentions",
      caller: "session",
      summary: "One's mentions inbox, newest first (before, limit 1-50, guild_id)",
      answer: Type.Array(C.Message),
      handler: ({ caller: { user: me }, query }) => {
        const before = query.get("before");
        const guildId = query.get("guild_id");
        const page = {
          before: before ? pathId(before, "before") : null,
          limit: int(query, "limit", 25),
          guildId: guildId ? pathId(guildId, "guild") : null,
        };
        return core.search.mentionsOf(me.id, page).map((m) => view(m, me.id));
      },
    }),
  ];
}

function pinRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  const view = viewer(p);
  return [
    route({
      method: "GET",
      path: "/channels/{channel_id}/pins",
      caller: "session",
      summary: "A channel's pinned messages, most recently pinned first (before: an ISO pinned_at; limit 1-50)",
      answer: C.PinsPage,
      handler: ({ caller: { user: me }, params, query }) => {
        const channelId = pathId(params.channel_id, "channel");
        const page = core.pins.list(me.id, channelId, {
          before: timeOf(query.get("before"), "before") ?? null,
          limit: int(query, "limit", 50),
        });
        return {
          items: page.items.map((i) => ({ pinned_at: isoUtc(i.pinnedAt), message: view(i.message, me.id) })),
          has_more: page.hasMore,
        };
      },
    }),
    route({
      method: "PUT",
      path: "/channels/{channel_id}/pins/{message_id}",
      caller: "session",
      summary: "Pin a message (MANAGE_MESSAGES in a server)",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.pins.pin(me.id, pathId(params.channel_id, "channel"), pathId(params.message_id, "message"));
      },
    }),
    route({
      method: "DELETE",
      path: "/channels/{channel_id}/pins/{message_id}",
      caller: "session",
      summary: "Unpin a message (MANAGE_MESSAGES in a server)",
      answers: "empty",
      handler: ({ caller: { user: me }, params }) => {
        core.pins.unpin(me.id, pathId(params.channel_id, "channel"), pathId(params.message_id, "message"));
      },
    }),
  ];
}

function notificationRoutes(p: ClientContext): PeopleRoute[] {
  const core = p.core;
  return [
    route({
      method: "GET",
      path: "/users/@me/notification-settings",
      caller: "session",
      summary: "Every notification setting one has made",
      answer: Type.Array(C.NotificationSetting),
      handler: ({ caller: { user: me } }) => core.notifications.list(me.id).map(settingView),
    }),
    route({
      method: "GET",
      path: "/users/@me/notification-settings/{scope_id}",
      caller: "session",
      summary: "How a server, channel or DM notifies one",
      answer: C.NotificationSetting,
      handler: ({ caller: { user: me }, params }) => settingView(core.notifications.get(me.id, pathId(params.scope_id, "scope"))),
    }),
    route({
      method: "PUT",
      path: "/users/@me/notification-settings/{scope_id}",
      caller: "session",
      summary: "Set how a server, channel or DM notifies one (level 0 all, 1 @mentions, 2 nothing; muted_until)",
      answer: C.NotificationSetting,
      body: PutNotificationSetting,
      handler: ({ caller: { user: me }, params, body }) => {
        const scopeId = pathId(params.scope_id, "scope");
        const b = body();
        return settingView(core.notifications.put(me.id, scopeId, { level: b.level, mutedUntil: timeOf(b.muted_until, "muted_until") }));
      },
    }),
  ];
}
