/**
 * The shared grammars and rules of src/text, run alike by the server and the web client:
 * the search query, mentions, and whether a message notifies someone.
 */
import { describe, expect, test } from "bun:test";
import { dayBounds, formatSearch, isEmptySearch, parseSearch, MAX_TERMS } from "../../src/text/search-query";
import { foldName, mentionTokens, resolveAtNames, showMentions, EVERYONE } from "../../src/text/mentions";
import {
  decideNotification,
  effectiveLevel,
  MUTED_FOREVER,
  NOTIFY,
  SUPPRESS_NOTIFICATIONS,
  type NotifyContext,
  type NotifyMessage,
} from "../../src/text/notify";

const U1 = "0190a000-0000-7000-8000-00000000000a";
const U2 = "0190a000-0000-7000-8000-00000000000b";
const R1 = "0190a000-0000-7000-8000-0000000000c2";
const C1 = "0190a000-0000-7001-8000-0000000000c1";

describe("the search grammar", () => {
  test("words, quoted phrases and prefixes", () => {
    const p = parseSearch('deploy "release notes" rel* x');
    expect(p.terms).toEqual([
      { text: "deploy", phrase: false, prefix: false },
      { text: "release notes", phrase: true, prefix: false },
      { text: "rel", phrase: false, prefix: true },
      { text: "x", phrase: false, prefix: false },
    ]);
    expect(p.problems).toEqual([]);
  });

  test("every filter, quoted values, and their prefixes (@, #) taken off", () => {
    const p = parseSearch(
      'from:@sam from:"Sam Smith" in:#general mentions:<@' +
        U1 +
        "> has:image has:LINK before:2025-03-01 after:2025-01-31 during:2025-02-14 pinned:true",
    );
    expect(p.from).toEqual(["sam", "Sam Smith"]);
    expect(p.in).toEqual(["general"]);
    expect(p.mentions).toEqual([`<@${U1}>`]);
    expect(p.has).toEqual(["image", "link"]);
    expect([p.before, p.after, p.during, p.pinned]).toEqual(["2025-03-01", "2025-01-31", "2025-02-14", true]);
    expect(p.terms).toEqual([]);
    expect(isEmptySearch(p)).toBe(false);
  });

  test("what has a colon but no known filter is a word: a time, a link", () => {
    const p = parseSearch("meet at 12:30 https://example.com/x?a=b FROM:bob");
    expect(p.terms.map((t) => t.text)).toEqual(["meet", "at", "12:30", "https://example.com/x?a=b"]);
    expect(p.from).toEqual(["bob"]);
  });

  test("what cannot be understood is a problem the searcher sees; the rest still runs", () => {
    const p = parseSearch("cats has:pdf before:2025-02-30 pinned:maybe from: dogs");
    expect(p.terms.map((t) => t.text)).toEqual(["cats", "dogs"]);
    expect(p.has).toEqual([]);
    expect(p.before).toBeNull();
    expect(p.pinned).toBeNull();
    expect(p.problems).toHaveLength(4);
    expect(p.problems).toContain("Unknown filter has:pdf. Use has:file, has:image, has:video, has:sound, has:link or has:embed.");
    expect(p.problems.join(" ")).toContain("from: needs a value");
  });

  test("an empty query is empty; a long one is cut, and said so", () => {
    expect(isEmptySearch(parseSearch("   "))).toBe(true);
    const many = parseSearch(Array.from({ length: MAX_TERMS + 5 }, (_, i) => `w${i}`).join(" "));
    expect(many.terms).toHaveLength(MAX_TERMS);
    expect(many.problems.length).toBe(1);
    expect(parseSearch("x".repeat(600)).problems[0]).toContain("first 512");
  });

  test("formatSearch writes back what parseSearch reads", () => {
    const q = 'deploy "release notes" rel* from:"Sam Smith" in:general has:file pinned:false after:2025-01-31';
    const p = parseSearch(q);
    const again = parseSearch(formatSearch(p));
    expect({ ...again, problems: [] }).toEqual({ ...p, problems: [] });
  });

  test("a day in the searcher's zone", () => {
    expect(dayBounds("2025-01-31")).toEqual({ start: Date.UTC(2025, 0, 31), end: Date.UTC(2025, 1, 1) });
    // An hour ahead of UTC: that day starts at 23:00 UTC the day before.
    expect(dayBounds("2025-01-31", 60).start).toBe(Date.UTC(2025, 0, 30, 23));
    expect(() => dayBounds("2025-13-01")).toThrow();
  });
});

describe("the mention grammar", () => {
  test("tokens of every kind, each id once, in order; @everyone and @here", () => {
    const t = mentionTokens(`<@${U1}> <@!${U2}> <@${U1}> <@&${R1}> <#${C1}> @here`);
    expect(t).toEqual({ users: [U1, U2], roles: [R1], channels: [C1], everyone: true });
    expect(mentionTokens("everyone here").everyone).toBe(false);
    expect(EVERYONE.test("hey @everyone!")).toBe(true);
    // Snowflake tokens (a bot's text before the wire layer) are not internal ids.
    expect(mentionTokens("<@123456789012345678>").users).toEqual([]);
  });

  test("@name becomes a token when exactly one person or role is called so; the longest name wins", () => {
    const dir = {
      people: [
        { id: U1, names: ["sam", "Sam Smith", null] },
        { id: U2, names: ["samantha", "Sam"] },
      ],
      roles: [{ id: R1, name: "Mods" }],
    };
    // "Sam" is both people: left as typed. "Sam Smith" is one. "samantha" is one.
    expect(resolveAtNames("hi @Sam Smith and @samantha, @sam, @mods!", dir)).toBe(`hi <@${U1}> and <@${U2}>, @sam, <@&${R1}>!`);
    expect(resolveAtNames("write to a@mods.org or @everyone or @nobody", dir)).toBe("write to a@mods.org or @everyone or @nobody");
    // A name must end at a word's end.
    expect(resolveAtNames("@modsquad", dir)).toBe("@modsquad");
    // Compatibility forms fold: a full-width name is the same name.
    expect(resolveAtNames("@ＭＯＤＳ", dir)).toBe(`<@&${R1}>`);
    expect(foldName("Ｓam")).toBe("sam");
  });

  test("tokens shown as names for an edit box; unknown ones stay tokens", () => {
    const names: Record<string, string> = { [U1]: "Sam", [R1]: "Mods", [C1]: "general" };
    expect(showMentions(`<@${U1}> <@&${R1}> <#${C1}> <@${U2}>`, (_k, id) => names[id] ?? null)).toBe(`@Sam @Mods #general <@${U2}>`);
  });
});

describe("whether a message notifies", () => {
  const msg = (over: Partial<NotifyMessage> = {}): NotifyMessage => ({
    author_id: U2,
    guild_id: "g",
    flags: 0,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    ...over,
  });
  const ctx = (over: Partial<NotifyContext> = {}): NotifyContext => ({ me: U1, myRoles: [R1], serverDefault: 0, now: 1000, ...over });

  test("the server's default decides when nobody set anything; a DM notifies every message", () => {
    expect(decideNotification(msg(), ctx()).notify).toBe(true);
    expect(decideNotification(msg(), ctx({ serverDefault: 1 })).notify).toBe(false);
    expect(decideNotification(msg({ mentions: [U1] }), ctx({ serverDefault: 1 }))).toEqual({
      notify: true,
      mention: true,
      level: NOTIFY.MENTIONS,
      muted: false,
    });
    expect(decideNotification(msg({ guild_id: null }), ctx({ serverDefault: 1 }))).toMatchObject({
      notify: true,
      mention: true,
      level: NOTIFY.ALL,
    });
  });

  test("a role of mine and @everyone are mentions; someone else's role is not", () => {
    const c = ctx({ serverDefault: 1 });
    expect(decideNotification(msg({ mention_roles: [R1] }), c).notify).toBe(true);
    expect(decideNotification(msg({ mention_everyone: true }), c).notify).toBe(true);
    expect(decideNotification(msg({ mention_roles: ["other"] }), c).notify).toBe(false);
  });

  test("the channel's setting beats the server's, which beats the default; null inherits", () => {
    expect(
      effectiveLevel(
        { channel: { level: NOTIFY.NOTHING, muted_until: null }, guild: { level: NOTIFY.ALL, muted_until: null }, serverDefault: 0 },
        false,
      ),
    ).toBe(NOTIFY.NOTHING);
    expect(
      effectiveLevel(
        { channel: { level: null, muted_until: null }, guild: { level: NOTIFY.MENTIONS, muted_until: null }, serverDefault: 0 },
        false,
      ),
    ).toBe(NOTIFY.MENTIONS);
    const nothing = ctx({ guild: { level: NOTIFY.NOTHING, muted_until: null } });
    expect(decideNotification(msg({ mentions: [U1] }), nothing)).toMatchObject({ notify: false, mention: true });
  });

  test("muted (channel or server) notifies nothing until the time passes; mentions still count", () => {
    const muted = ctx({ channel: { level: null, muted_until: 2000 } });
    expect(decideNotification(msg({ mentions: [U1] }), muted)).toEqual({ notify: false, mention: true, level: NOTIFY.ALL, muted: true });
    expect(decideNotification(msg(), { ...muted, now: 2000 }).notify).toBe(true);
    expect(decideNotification(msg(), ctx({ guild: { level: null, muted_until: MUTED_FOREVER } })).muted).toBe(true);
  });

  test("my own messages and silent ones never notify", () => {
    expect(decideNotification(msg({ author_id: U1, mention_everyone: true }), ctx())).toMatchObject({ notify: false, mention: false });
    expect(decideNotification(msg({ flags: SUPPRESS_NOTIFICATIONS, mentions: [U1] }), ctx())).toMatchObject({
      notify: false,
      mention: true,
    });
  });
});
