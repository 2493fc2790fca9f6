/**
 * Links to the image proxy (docs/security.md, finding 10): when the operator turns it
 * on, each picture of an embed (image, thumbnail, video, author and footer icons) gets
 * the spec's `proxy_url` / `proxy_icon_url` on Parley's own origin, made as it is read,
 * so turning the proxy on or off, or moving the server, takes effect for every message.
 * A link is signed with a key derived from the server key: the proxy fetches only what
 * a message showed, never whatever a caller names.
 */
import { timingSafeEqual } from "node:crypto";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { Urls } from "../config";

/** Where the proxy answers; the signature follows, the address is the `url` query. */
export const MEDIA_PATH = "/api/media/v1/external/";

/** The pictures of an embed: which object holds them, and under which key the address and its link. */
const PICTURES = [
  ["image", "url", "proxy_url"],
  ["thumbnail", "url", "proxy_url"],
  ["video", "url", "proxy_url"],
  ["author", "icon_url", "proxy_icon_url"],
  ["footer", "icon_url", "proxy_icon_url"],
] as const;

export class MediaLinks {
  private readonly key: Uint8Array;

  constructor(
    serverKey: Uint8Array,
    private readonly urls: Pick<Urls, "base">,
  ) {
    this.key = hmac(sha256, serverKey, new TextEncoder().encode("parley image proxy v1"));
  }

  /** The runtime's HMAC (the same bytes as @noble's, about ten times cheaper): every embed image of every view is signed. */
  private sign(url: string): string {
    const mac = new Bun.CryptoHasher("sha256", this.key).update(url).digest();
    return mac.subarray(0, 16).toString("base64url");
  }

  /** The proxy's path for an address (absolute http or https, no credentials), or null for anything else. */
  path(url: unknown): string | null {
    if (typeof url !== "string" || url.length > 2048) return null;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    if ((u.protocol !== "http:" && u.protocol !== "https:") || u.username || u.password) return null;
    return `${MEDIA_PATH}${this.sign(url)}?url=${encodeURIComponent(url)}`;
  }

  /** Whether `signature` is this server's for `url` (compared in constant time). */
  verify(url: string, signature: string): boolean {
    const want = Buffer.from(this.sign(url));
    const got = Buffer.from(signature);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  /**
   * Embeds with each picture's link set (absolute for bots, a path on the page's own
   * origin for the web client), in place of any link a bot wrote.
   */
  embeds(list: unknown[], absolute: boolean): unknown[] {
    return withPictureLinks(list, (url) => {
      const path = this.path(url);
      return path && (absolute ? this.urls.base + path : path);
    });
  }
}

/** Embeds as a person's client gets them: pictures' links are Parley's own or none (a bot's could point anywhere). */
export function peopleEmbeds(list: unknown[], media: MediaLinks | null): unknown[] {
  return media ? media.embeds(list, false) : withPictureLinks(list, () => null);
}

function withPictureLinks(list: unknown[], link: (url: unknown) => string | null): unknown[] {
  if (!list.length) return list;
  return list.map((e) => {
    if (!e || typeof e !== "object") return e;
    const out: Record<string, unknown> = { ...(e as Record<string, unknown>) };
    for (const [field, from, to] of PICTURES) {
      const pic = out[field];
      if (!pic || typeof pic !== "object") continue;
      const { [to]: _given, ...rest } = pic as Record<string, unknown>;
      const made = link(rest[from]);
      out[field] = made ? { ...rest, [to]: made } : rest;
    }
    return out;
  });
}
