/** The emoji one may pick in a place: the open server's own first, then the unicode list, filtered by a search. */
import { guildOf } from "../../state";
import { UNICODE_EMOJI } from "./data";

export interface EmojiChoice {
  /** As a reaction names it: the character, or `name:id` for a server's own. */
  reaction: string;
  /** As the composer writes it: the character, or `:name:` for a server's own (emojiOut makes it its token when sent). */
  text: string;
  /** `:name:` */
  name: string;
  char?: string;
  custom?: { id: string; name: string; animated: boolean };
}

/** Choices whose shortcode contains `query` (every one for ""), the server's own first; at most `limit`. */
export function emojiChoices(guildId: string | null, query: string, limit = Number.POSITIVE_INFINITY): EmojiChoice[] {
  const q = query.toLowerCase().replace(/^:|:$/g, "");
  const out: EmojiChoice[] = [];
  for (const e of (guildId ? guildOf(guildId)?.emojis : undefined) ?? [])
    if (e.name.toLowerCase().includes(q))
      out.push({
        reaction: `${e.name}:${e.id}`,
        text: `:${e.name}:`,
        name: `:${e.name}:`,
        custom: e,
      });
  // Shortcodes starting with the query come before those merely containing it.
  const uni = UNICODE_EMOJI.filter((e) => e.names.some((n) => n.includes(q)));
  const starts = uni.filter((e) => e.names.some((n) => n.startsWith(q)));
  for (const e of q ? [...starts, ...uni.filter((x) => !starts.includes(x))] : uni)
    out.push({ reaction: e.char, text: e.char, name: `:${e.names[0]}:`, char: e.char });
  return out.slice(0, limit);
}

/** `:name:` not inside a word or a token (`<:name:id>`, `12:30:45`). */
const SHORTCODE = /(?<![<\w]):([A-Za-z0-9_]{2,32}):/g;
/** Code, where nothing is an emoji: fenced blocks and inline spans. */
const CODE = /(```[\s\S]*?```|`[^`\n]*`)/;

/** `fn` applied to the text outside code; code kept as it is (split's odd parts are the code it captured). */
function outsideCode(text: string, fn: (part: string) => string): string {
  return text
    .split(CODE)
    .map((part, i) => (i % 2 ? part : fn(part)))
    .join("");
}

/**
 * The text as sent: each `:name:` naming one of the server's own emoji becomes its token
 * `<:name:id>` (as the composer shows it by name, and as the reference's clients do), outside
 * code; any other `:word:` stays as typed.
 */
export function emojiOut(guildId: string | null, text: string): string {
  const own = (guildId ? guildOf(guildId)?.emojis : undefined) ?? [];
  if (!own.length || !text.includes(":")) return text;
  const byName = new Map(own.map((e) => [e.name, e]));
  return outsideCode(text, (part) =>
    part.replace(SHORTCODE, (all, name: string) => {
      const e = byName.get(name);
      return e ? `<${e.animated ? "a" : ""}:${e.name}:${e.id}>` : all;
    }),
  );
}

/** The text as an edit box shows it: a server emoji's token as `:name:`, when sending it would give the same token back. */
export function emojiShown(guildId: string | null, text: string): string {
  const own = (guildId ? guildOf(guildId)?.emojis : undefined) ?? [];
  if (!own.length || !text.includes("<")) return text;
  const token = /<(a?):([A-Za-z0-9_]{2,32}):([0-9a-f-]{36})>/g;
  return outsideCode(text, (part) =>
    part.replace(token, (all, a: string, name: string, id: string) => {
      const e = own.find((x) => x.name === name);
      return e && e.id === id && e.animated === (a === "a") ? `:${name}:` : all;
    }),
  );
}
