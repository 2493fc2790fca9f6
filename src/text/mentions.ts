/**
 * The mention grammar, one for every door: the core decides with it whom a message
 * mentions (bots' `mentions`, `mention_roles`, `mention_everyone`, people's highlights and
 * counts), the wire layer translates its tokens to and from snowflakes, and the web
 * client turns a typed `@name` into a token before it sends. Stored text names users,
 * roles and channels by internal id: `<@id>`, `<@!id>` (the old nickname form), `<@&id>`
 * (a role), `<#id>` (a channel); `@everyone` and `@here` are words. Imports nothing.
 */
/** An internal id (UUIDv7), as a pattern to build others from (custom emoji tokens too). */
export const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A mention token with an internal id: kind (`@`, `@!`, `@&`, `#`) and id. Global: use with matchAll or replace. */
export const MENTION_TOKEN = new RegExp(`<(@!?|@&|#)(${UUID})>`, "g");

/** `@everyone` or `@here` as a word (a ping of the whole channel when the author may). */
export const EVERYONE = /@(everyone|here)\b/;

/** What a text names, each id once, in order of first mention; nothing is checked against the world here. */
export interface MentionTokens {
  users: string[];
  roles: string[];
  channels: string[];
  /** `@everyone` or `@here` appears. */
  everyone: boolean;
}

export function mentionTokens(text: string): MentionTokens {
  const out: MentionTokens = { users: [], roles: [], channels: [], everyone: EVERYONE.test(text) };
  // Every token starts with "<": most messages have none and skip the scan.
  if (!text.includes("<")) return out;
  for (const [, kind, id] of text.matchAll(MENTION_TOKEN)) {
    const list = kind === "@&" ? out.roles : kind === "#" ? out.channels : out.users;
    if (!list.includes(id)) list.push(id);
  }
  return out;
}

/** Who may be named with `@`: people by any of their names, roles by theirs (only those the author may mention). */
export interface MentionDirectory {
  people: { id: string; names: (string | null | undefined)[] }[];
  roles: { id: string; name: string }[];
}

/** Names compared as people read them: compatibility forms folded, case ignored. */
export const foldName = (s: string): string => s.normalize("NFKC").toLowerCase();

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * `@name` -> `<@id>` (or `<@&id>` for a role) wherever exactly one person or role of the
 * directory is called that (display name, nickname or user name; case ignored; the
 * longest name that fits wins, so "@Sam Smith" beats "@Sam"). Ambiguous and unknown
 * names stay as typed; `@everyone`/`@here` are left alone; an `@` inside a word (an
 * e-mail address) is not a mention.
 */
export function resolveAtNames(text: string, dir: MentionDirectory): string {
  if (!text.includes("@")) return text;
  const byName = new Map<string, Set<string>>();
  const add = (name: string | null | undefined, token: string) => {
    if (!name) return;
    const k = foldName(name);
    if (k === "everyone" || k === "here") return;
    (byName.get(k) ?? byName.set(k, new Set()).get(k)!).add(token);
  };
  for (const p of dir.people) for (const n of p.names) add(n, `<@${p.id}>`);
  for (const r of dir.roles) add(r.name, `<@&${r.id}>`);
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf("@", i);
    if (at === -1) break;
    out += text.slice(i, at);
    const hit = at > 0 && (WORD_CHAR.test(text[at - 1]) || text[at - 1] === "<") ? undefined : matchName(text, at + 1, names);
    const tokens = hit ? byName.get(hit.name)! : null;
    if (hit && tokens!.size === 1) {
      out += [...tokens!][0];
      i = hit.end;
    } else {
      out += "@";
      i = at + 1;
    }
  }
  return out + text.slice(i);
}

/** The longest directory name written at `from` and ending at a word boundary. */
function matchName(text: string, from: number, names: string[]): { name: string; end: number } | undefined {
  const ahead = foldName(text.slice(from, from + 100));
  for (const name of names) {
    if (!ahead.startsWith(name)) continue;
    // The folded text may differ in length from the original (NFKC): find the end in the original.
    let end = from;
    while (end < text.length && foldName(text.slice(from, end)).length < name.length) end++;
    if (foldName(text.slice(from, end)) !== name) continue;
    if (end < text.length && WORD_CHAR.test(text[end])) continue;
    return { name, end };
  }
  return undefined;
}

/**
 * Tokens shown as people read them (`<@id>` -> `@Sam`, `<@&id>` -> `@Mods`, `<#id>` ->
 * `#general`), for an edit box: what the name function does not know stays a token.
 */
export function showMentions(text: string, name: (kind: "user" | "role" | "channel", id: string) => string | null): string {
  if (!text.includes("<")) return text;
  return text.replace(MENTION_TOKEN, (all, kind: string, id: string) => {
    const k = kind === "@&" ? "role" : kind === "#" ? "channel" : "user";
    const n = name(k, id);
    return n === null ? all : `${k === "channel" ? "#" : "@"}${n}`;
  });
}
