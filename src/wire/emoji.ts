import { DomainError, validEmoji, type Emoji } from "../core";

/**
 * An emoji as paths and bodies name it (reference-gaps 2.8): a unicode emoji,
 * percent-encoded, or a custom emoji `name:id` (optionally `a:name:id`), whose colon may
 * arrive as %3A. The router may or may not have decoded it already, so decoding is
 * tolerant. Every surface parses emoji here.
 *
 * A custom emoji's id is a snowflake from bots and an internal id from people. Given
 * `flakes` (the bot API), a snowflake is mapped to the server's emoji it names; one that
 * names nothing stays as written, and the core answers it Unknown Emoji (10014).
 */
export function parseEmoji(raw: string, flakes?: { uuid(flake: string): string | null }): Emoji {
  let s = raw;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(s); i++) {
    try {
      s = decodeURIComponent(s);
    } catch {
      throw DomainError.notFound("emoji");
    }
  }
  const custom = /^(?:(a):)?([^:]*):([0-9]{1,20}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(s);
  const id = custom && flakes && /^[0-9]+$/.test(custom[3]) ? (flakes.uuid(custom[3]) ?? custom[3]) : custom?.[3];
  const e: Emoji = custom ? { name: custom[2] || null, id: id!, animated: custom[1] === "a" } : { name: s, id: null };
  if (!validEmoji(e)) throw DomainError.notFound("emoji");
  return e;
}
