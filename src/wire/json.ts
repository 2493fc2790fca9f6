/**
 * Request JSON parsing that never loses digits: discord.py sends snowflakes as JSON
 * numbers above 2^53 (e.g. message_reference.message_id). Integer literals of 16 or
 * more digits outside strings are turned into strings before JSON.parse, so an id
 * keeps every digit and arrives as the string the rest of the boundary expects.
 *
 * Nesting is bounded before parsing: every reader of a parsed value (validation, error
 * messages, null stripping) may then recurse without overflowing the stack.
 */
import { DomainError } from "../core";

/** Deepest nesting of arrays and objects any body or gateway frame may have; real payloads stay under 12. */
export const MAX_JSON_DEPTH = 32;

export function parseJsonLossless(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

/**
 * A request body's text as JSON: undefined when empty, 50035 when malformed or nested
 * too deeply. One scan finds both the nesting and whether an integer of 16 or more
 * digits stands outside a string (only then is the text rewritten before parsing).
 */
export function parseRequestJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  const scan = scanJson(text);
  if (scan & TOO_DEEP) throw tooDeep();
  try {
    return JSON.parse(scan & LONG_INTEGER ? quoteLongIntegers(text) : text);
  } catch {
    throw DomainError.invalid("", "The request body contains invalid JSON.", "JSON_INVALID");
  }
}

const TOO_DEEP = 1;
const LONG_INTEGER = 2;

/**
 * What parsing a body must know before JSON.parse: TOO_DEEP when [ and { nest past the
 * bound, LONG_INTEGER when a run of 16 or more digits stands outside a string (a number
 * JSON.parse would round). A linear scan that skips strings whole.
 */
function scanJson(text: string): number {
  let depth = 0;
  let found = 0;
  let digits = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits === 16) found = LONG_INTEGER;
      continue;
    }
    digits = 0;
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) return found | TOO_DEEP;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return found;
}

/** A gateway frame (or any JSON text) parsed with the same depth bound; null when malformed or too deep. */
export function parseBoundedJson(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * parseBoundedJson keeping every digit, as request bodies do: what a bot sent on the
 * gateway, as its transcript shows it (discord.py's op 8 sends ids as numbers).
 */
export function parseBoundedJsonLossless(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return null;
  try {
    return parseJsonLossless(text);
  } catch {
    return null;
  }
}

function tooDeep(): DomainError {
  return DomainError.invalid("", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, "JSON_TOO_DEEP");
}

/** The deepest nesting of [ and { outside strings (a linear scan; stops counting once past the bound). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) max = depth;
      if (max > MAX_JSON_DEPTH) return max;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

function quoteLongIntegers(text: string): string {
  // Fast path: no run of 16 digits anywhere means nothing can be lost.
  if (!/\d{16}/.test(text)) return text;
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      if (c === 45) i++;
      while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      const intEnd = i;
      // A fraction or exponent makes it a float: leave it alone.
      const next = text.charCodeAt(i);
      if (next === 46 || next === 101 || next === 69) {
        while (i < n && /[0-9eE+\-.]/.test(text[i])) i++;
        continue;
      }
      const first = c === 45 ? start + 1 : start;
      const digits = intEnd - first;
      // A leading zero is not JSON: left alone, JSON.parse refuses it, where quoting would make it a string id.
      if (digits >= 16 && text.charCodeAt(first) !== 48 /* 0 */) {
        out += text.slice(last, start) + '"' + text.slice(start, intEnd) + '"';
        last = intEnd;
      }
      continue;
    }
    i++;
  }
  return out + text.slice(last);
}
