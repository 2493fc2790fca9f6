/**
 * The rules of a person's display name (global_name), in one place for sign-up and
 * profile edits: any script, as a reader counts its characters.
 */
import { DomainError } from "./errors";

/** At most 32 characters as a reader counts them (grapheme clusters), and 100 code points. */
export const MAX_DISPLAY_NAME = 32;
const MAX_CODE_POINTS = 100;
// Controls, and the bidi embeddings, overrides and isolates that would reorder what follows the name.
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
// Characters that show nothing alone (format characters, marks, spaces): a name needs more.
const INVISIBLE = /^[\p{Cf}\p{M}\p{Z}\s\u3164\u115F\u1160\uFFA0]*$/u;

/**
 * A display name as stored, or null for none: NFC, trimmed; empty means none. Refused:
 * control and bidi-override characters, a name of nothing visible, more than 32
 * characters. Any script is welcome (combining marks and joiners within a name are kept).
 */
export function displayName(raw: string | null | undefined, path = "global_name"): string | null {
  if (raw === null || raw === undefined) return null;
  const name = raw.normalize("NFC").trim();
  if (name === "") return null;
  if (FORBIDDEN.test(name))
    throw DomainError.invalid(path, "Must not contain control or text-direction characters.", "DISPLAY_NAME_INVALID");
  if (INVISIBLE.test(name)) throw DomainError.invalid(path, "Must contain something visible.", "DISPLAY_NAME_INVALID");
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(name)].length;
  if (graphemes > MAX_DISPLAY_NAME || [...name].length > MAX_CODE_POINTS)
    throw DomainError.invalid(path, `Must be ${MAX_DISPLAY_NAME} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  return name;
}
