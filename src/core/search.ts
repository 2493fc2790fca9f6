/**
 * Search and the mentions inbox, for people (the web client's search box, its inbox)
 * through whichever route asks: a person searches one server (or one of its channels) and
 * gets only what they may read there, newest first. DMs are never searched on the server:
 * their words are not indexed (people's DMs are end-to-end encrypted; the web client
 * searches what it decrypted itself). Every right is checked here: not a member of the
 * server, or a channel not of it or not visible, is 404; each hit is read back and kept
 * only if its channel is one the person may read (today every channel of a server they
 * are in: spec 2.9 has no VIEW_CHANNEL; the seam excludes others once there are any).
 */
import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Messages } from "./messages";
import type { Channel, Message } from "./models";
import type { Facet, HasKind, SearchPlan, SearchTerm } from "./search-engine";
import { canSee, accessChannel } from "./access";
import { TEXT_CHANNEL_TYPES } from "./channel-types";
import { DomainError } from "./errors";
import { uuidBound } from "./ids";
import { dayBounds, parseSearch, type ParsedSearch } from "../text/search-query";
import { resolveNames } from "./search-names";

/** What to look for, with names resolved to ids (the reference's search query, or a parsed one). */
export interface SearchCriteria {
  terms: SearchTerm[];
  authorIds?: string[];
  channelIds?: string[];
  mentionIds?: string[];
  has?: HasKind[];
  /** Id bounds: from minId (inclusive) to maxId (exclusive). */
  minId?: string | null;
  maxId?: string | null;
  pinned?: boolean | null;
  /** A filter named someone or something that is not there: nothing can match. */
  unmatched?: boolean;
  /** What the typed query held that was not understood (criteria()): said instead, when nothing else is left to search for. */
  problems?: string[];
}

export interface SearchScope {
  guildId: string;
  /** Only this channel of the server. */
  channelId?: string | null;
}

export interface SearchResult {
  /** How many messages match, counted up to MAX_TOTAL. */
  total: number;
  messages: Message[];
  /** Older messages are still being indexed: some may be missing. */
  indexing: boolean;
}

/** The reference's cap on a search's count, and its page size. */
export const SEARCH_MAX_TOTAL = 1000;
export const SEARCH_PAGE = 25;
export const INBOX_PAGE = 25;

export class Search {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly messages: Messages,
  ) {}

  /**
   * Called four times a second while the server listens: index the entries that wait
   * (core/search-fts5.ts), then the next batch of what the database held before the index
   * existed (a batch costs a few tens of ms), so an upgraded database of a million
   * messages is searchable within minutes.
   */
  backfillStep(): boolean {
    return this.d.search.step();
  }

  /**
   * Parse a typed query (src/text/search-query.ts) and resolve its names within the
   * server, for a member of it (404 otherwise: an outsider learns nothing of who is there).
   */
  criteria(
    personId: string,
    guildId: string,
    query: string,
    utcOffsetMinutes = 0,
  ): { criteria: SearchCriteria; parsed: ParsedSearch; problems: string[] } {
    this.requireMember(personId, guildId);
    const parsed = parseSearch(query);
    const problems = [...parsed.problems];
    const names = resolveNames(this.d, this.guilds, guildId, parsed);
    problems.push(...names.problems);
    const c: SearchCriteria = {
      terms: parsed.terms,
      ...names.ids,
      has: parsed.has,
      pinned: parsed.pinned,
      unmatched: names.unmatched,
      problems,
    };
    const day = (date: string) => dayBounds(date, utcOffsetMinutes);
    if (parsed.after) c.minId = uuidBound(day(parsed.after).end, false);
    if (parsed.before) c.maxId = uuidBound(day(parsed.before).start, false);
    if (parsed.during) {
      const { start, end } = day(parsed.during);
      c.minId = maxId(c.minId, uuidBound(start, false));
      c.maxId = minId(c.maxId, uuidBound(end, false));
    }
    return { criteria: c, parsed, problems };
  }

  /** A typed query, run: criteria() then query(). */
  run(
    personId: string,
    scope: SearchScope,
    query: string,
    page: { offset?: number; limit?: number; utcOffsetMinutes?: number } = {},
  ): SearchResult & { problems: string[] } {
    const { criteria, problems } = this.criteria(personId, scope.guildId, query, page.utcOffsetMinutes ?? 0);
    return { ...this.query(personId, scope, criteria, page), problems };
  }

  /**
   * Messages of the server (or channel) matching the criteria that the person may read,
   * newest first: `limit` 1..25 (25), `offset` 0..975; `total` counted up to 1000.
   */
  query(personId: string, scope: SearchScope, c: SearchCriteria, page: { offset?: number; limit?: number } = {}): SearchResult {
    const limit = page.limit ?? SEARCH_PAGE;
    const offset = page.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_PAGE)
      throw DomainError.invalid("limit", `Must be between 1 and ${SEARCH_PAGE}.`, "NUMBER_TYPE_MAX");
    if (!Number.isInteger(offset) || offset < 0 || offset > SEARCH_MAX_TOTAL - limit)
      throw DomainError.invalid("offset", `Must be between 0 and ${SEARCH_MAX_TOTAL - limit}.`, "NUMBER_TYPE_MAX");
    const readable = this.readable(personId, scope);
    const terms = this.d.search.cutter.terms(c.terms);
    const filters = [c.authorIds, c.channelIds, c.mentionIds, c.has].some((x) => x?.length) || c.pinned != null || c.minId || c.maxId;
    // A query of nothing but what was not understood ("has:pin") says so, not that it was empty.
    if (!terms.length && !filters && !scope.channelId && !c.unmatched)
      throw DomainError.invalid(
        "content",
        c.problems?.length ? c.problems.join(" ") : "A search needs words or filters.",
        "BASE_TYPE_REQUIRED",
      );
    const indexing = this.d.search.backfilling;
    const channels = (c.channelIds ?? []).filter((id) => readable.has(id));
    if (c.unmatched || (c.channelIds?.length && !channels.length)) return { total: 0, messages: [], indexing };
    const all: Facet[][] = [[{ kind: "guild", id: scope.guildId }]];
    if (scope.channelId) all.push([{ kind: "channel", id: scope.channelId }]);
    if (channels.length) all.push(channels.map((id) => ({ kind: "channel", id })));
    if (c.authorIds?.length) all.push(c.authorIds.map((id) => ({ kind: "author", id })));
    if (c.mentionIds?.length) all.push(c.mentionIds.map((id) => ({ kind: "user", id })));
    for (const has of c.has ?? []) all.push([{ kind: "has", has }]);
    if (c.pinned === true) all.push([{ kind: "pinned" }]);
    const none: Facet[] = [...this.unreadable(scope.guildId, readable).map((id): Facet => ({ kind: "channel", id }))];
    if (c.pinned === false) none.push({ kind: "pinned" });
    const plan: SearchPlan = { terms, all, none, minId: c.minId, maxId: c.maxId, offset, limit, countUpTo: SEARCH_MAX_TOTAL };
    const hits = this.d.search.find(plan);
    return { total: hits.total, messages: this.readBack(hits.ids, readable, plan), indexing };
  }

  /**
   * The person's mentions inbox: messages of their servers that mention them, a role of
   * theirs or everyone, by someone else, newest first; `before` a message id (exclusive),
   * `limit` 1..50 (25); one server when `guildId` is given.
   */
  mentionsOf(personId: string, page: { before?: string | null; limit?: number; guildId?: string | null } = {}): Message[] {
    const limit = page.limit ?? INBOX_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > 50)
      throw DomainError.invalid("limit", "Must be between 1 and 50.", "NUMBER_TYPE_MAX");
    if (page.guildId) this.requireMember(personId, page.guildId);
    const guildIds = page.guildId ? [page.guildId] : this.guilds.guildIdsOf(personId);
    if (!guildIds.length) return [];
    const mine: Facet[] = [{ kind: "user", id: personId }, { kind: "everyone" }];
    const readable = new Set<string>();
    const none: Facet[] = [{ kind: "author", id: personId }];
    for (const g of guildIds) {
      for (const r of this.guilds.memberRoleIds(g, personId)) if (r !== g) mine.push({ kind: "role", id: r });
      const visible = this.readable(personId, { guildId: g });
      for (const id of visible) readable.add(id);
      for (const id of this.unreadable(g, visible)) none.push({ kind: "channel", id });
    }
    const all: Facet[][] = [guildIds.map((id) => ({ kind: "guild", id })), mine];
    const plan: SearchPlan = { terms: [], all, none, maxId: page.before ?? null, offset: 0, limit, countUpTo: 0 };
    return this.readBack(this.d.search.find(plan).ids, readable, plan);
  }

  private requireMember(personId: string, guildId: string): void {
    if (!this.guilds.isMember(guildId, personId)) throw DomainError.notFound("guild");
  }

  /** The text channels of the scope the person may read (404 for a server they are not in, or a channel not of it). */
  private readable(personId: string, scope: SearchScope): Set<string> {
    this.requireMember(personId, scope.guildId);
    if (scope.channelId) {
      const a = accessChannel(this.d, this.guilds, personId, scope.channelId);
      if (a.channel.guild_id !== scope.guildId) throw DomainError.notFound("channel");
      return new Set([a.channel.id]);
    }
    const text = this.guilds.channels(scope.guildId).filter((c: Channel) => TEXT_CHANNEL_TYPES.has(c.type));
    return new Set(text.filter((c) => canSee(this.d, this.guilds, c, personId)).map((c) => c.id));
  }

  /** Channels of the server the person may not read (none while membership is visibility). */
  private unreadable(guildId: string, readable: Set<string>): string[] {
    return this.guilds
      .channels(guildId)
      .filter((c) => TEXT_CHANNEL_TYPES.has(c.type) && !readable.has(c.id))
      .map((c) => c.id);
  }

  /** Hits as messages, each read again: still there, in a channel the person may read, inside the bounds. */
  private readBack(ids: string[], readable: Set<string>, plan: SearchPlan): Message[] {
    const out: Message[] = [];
    for (const id of ids) {
      if ((plan.minId && id < plan.minId) || (plan.maxId && id >= plan.maxId)) continue;
      const m = this.messages.get(id);
      if (m && readable.has(m.channel_id) && m.ephemeral_user_id === null) out.push(m);
    }
    return out;
  }
}

const maxId = (a: string | null | undefined, b: string) => (a && a > b ? a : b);
const minId = (a: string | null | undefined, b: string) => (a && a < b ? a : b);
