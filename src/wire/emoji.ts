import { DomainError, validEmoji, type Emoji } from "../core";

/**
 * An emoji as paths and bodies name it (reference-gaps 2.8): a unicode emoji,
 * percent-encoded, or a custom emoji `name:id` (optionally `a:name:id`), whose colon may
 * arrive as %3A. The router may or may not have decoded it already, so decoding is
 * tolerant. Every surface parses emoji here.
 */
export function parseEmoji(raw: string): Emoji {
  let s = raw;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(s); i++) {
    try {
      s = decodeURIComponent(s);
    } catch {
      throw DomainError.notFound("emoji");
    }
  }
  const custom = /^(?:(a):)?([^:]*):([0-9]{1,20})$/.exec(s);
  const e: Emoji = custom ? { name: custom[2] || null, id: custom[3], animated: custom[1] === "a" } : { name: s, id: null };
  if (!validEmoji(e)) throw DomainError.notFound("emoji");
  return e;
}
