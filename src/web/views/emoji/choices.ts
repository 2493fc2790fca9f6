/** The emoji one may pick in a place: the open server's own first, then the unicode list, filtered by a search. */
import { guildOf } from "../../state";
import { UNICODE_EMOJI } from "./data";

export interface EmojiChoice {
  /** As a reaction names it: the character, or `name:id` for a server's own. */
  reaction: string;
  /** As a message's text carries it: the character, or `<:name:id>`. */
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
        text: `<${e.animated ? "a" : ""}:${e.name}:${e.id}>`,
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
