/**
 * Mentions in message text cross the boundary translated: stored text names users,
 * roles and channels by internal id (core/mentions.ts), bots write and read snowflakes.
 * A snowflake that names nothing Parley knows stays as it was written, both ways.
 */
import { MENTION_TOKEN, UUID } from "../core";
import type { Snowflakes } from "./snowflakes";
import type { MediaLinks } from "./media";

const WIRE_TOKEN = /<(@!?|@&|#)(\d{17,20})>/g;
/** A server's emoji in text: `<:name:id>`, `<a:name:id>` for an animated one. */
const WIRE_EMOJI = /<(a?:[A-Za-z0-9_]{2,32}:)(\d{17,20})>/g;
const STORED_EMOJI = new RegExp(`<(a?:[A-Za-z0-9_]{2,32}:)(${UUID})>`, "g");

/** Text as a bot wrote it -> as the core stores it. */
export function textIn(text: string, flakes: Pick<Snowflakes, "uuid">): string {
  if (!text.includes("<")) return text;
  const swap = (all: string, kind: string, flake: string) => {
    const id = flakes.uuid(flake);
    return id ? `<${kind}${id}>` : all;
  };
  return text.replace(WIRE_TOKEN, swap).replace(WIRE_EMOJI, swap);
}

/** Stored text -> as bots read it. */
export function textOut(text: string, flakes: Pick<Snowflakes, "of">): string {
  if (!text.includes("<")) return text;
  const swap = (_all: string, kind: string, id: string) => `<${kind}${flakes.of(id)}>`;
  return text.replace(MENTION_TOKEN, swap).replace(STORED_EMOJI, swap);
}

/**
 * Embeds carry mentions in their text too (a description naming a member). They are
 * translated as JSON text: tokens hold no quote or backslash, so the JSON stays valid.
 */
export function embedsIn<T>(embeds: T[], flakes: Pick<Snowflakes, "uuid">): T[] {
  if (!embeds.length) return embeds;
  const json = JSON.stringify(embeds);
  const out = textIn(json, flakes);
  return out === json ? embeds : (JSON.parse(out) as T[]);
}

/** Stored embeds JSON -> the array bots read, with the image proxy's links when it is on (media.ts). */
export function embedsOut(json: string, flakes: Pick<Snowflakes, "of"> & { readonly media?: MediaLinks | null }): unknown[] {
  if (json === "[]") return [];
  const embeds = JSON.parse(textOut(json, flakes)) as unknown[];
  return flakes.media ? flakes.media.embeds(embeds, true) : embeds;
}
