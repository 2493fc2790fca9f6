/**
 * The URLs of an embed, as the reference checks them: a link (`url`, `author.url`) must be
 * an absolute http or https URL, and a picture (`image`, `thumbnail`, the author's and the
 * footer's icons) may also name a file of the message (`attachment://`). Anything else is
 * 400 50035 on the reference ("Not a well formed URL." or `Scheme "ttps" is not
 * supported.`), so a bot tested against Parley must meet the same refusal rather than
 * learn of it in production.
 */
import { DomainError } from "../../core";

type Embed = Record<string, unknown>;

const LINK = ["http:", "https:"];
const PICTURE = ["http:", "https:", "attachment:"];

/** [where in the embed, the value's getter, the schemes it may use] */
const URLS: [string, (e: Embed) => unknown, string[]][] = [
  ["url", (e) => e.url, LINK],
  ["author.url", (e) => member(e.author, "url"), LINK],
  ["author.icon_url", (e) => member(e.author, "icon_url"), PICTURE],
  ["footer.icon_url", (e) => member(e.footer, "icon_url"), PICTURE],
  ["image.url", (e) => member(e.image, "url"), PICTURE],
  ["thumbnail.url", (e) => member(e.thumbnail, "url"), PICTURE],
];

function member(o: unknown, key: string): unknown {
  return typeof o === "object" && o !== null ? (o as Record<string, unknown>)[key] : undefined;
}

/** Refuse the first embed URL the reference would refuse; `prefix` is `embeds[i]` or `embed`. */
export function checkEmbedUrls(embed: Embed, prefix: string): void {
  for (const [where, get, schemes] of URLS) {
    const value = get(embed);
    if (typeof value !== "string") continue;
    const path = `${prefix}.${where}`;
    let scheme: string;
    try {
      scheme = new URL(value).protocol;
    } catch {
      throw DomainError.invalid(path, "Not a well formed URL.", "URL_TYPE_INVALID_URL");
    }
    if (!schemes.includes(scheme))
      throw DomainError.invalid(
        path,
        `Scheme "${scheme.slice(0, -1)}" is not supported. Scheme must be one of ('http', 'https').`,
        "URL_TYPE_INVALID_SCHEME",
      );
  }
}
