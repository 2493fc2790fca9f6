/**
 * Files at the boundary (issue 31): the links to them, and their objects as bots read them.
 *
 * Attachments are private to those who can read their message, so their links are
 * signed as the reference signs its content links: `/attachments/{channel_id}/
 * {attachment_id}/{filename}?ex=<hex expiry>&is=<hex issue time>&hm=<HMAC>&`. A bot
 * library fetches what it was shown without a header; a stranger cannot make one. The
 * signature covers the internal ids (so the snowflake form bots see and the internal
 * form the web client uses are one link) and the two times. The issue time is rounded
 * down to the hour, so every view of a message within an hour signs alike and the
 * gateway's one frame per view stays one frame for every bot.
 *
 * Avatars, icons and emoji are public, addressed by content (the reference's CDN path
 * shapes: `/avatars/{user_id}/{hash}.png`, `/icons/{guild_id}/{hash}.png`,
 * `/emojis/{emoji_id}.png`), so discord.js's displayAvatarURL() and discord.py's
 * display_avatar.url work once the library's CDN base is Parley's base URL.
 */
import { timingSafeEqual } from "node:crypto";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { DomainError, type Attachment, type AttachmentEdit, type Clock } from "../core";
import type { Urls } from "../config";

/** The boundary's two directions, as far as files need them (snowflakes.ts holds these links, so this file names no type of its). */
type FlakeOf = { of(uuid: string): string };
type UuidOf = { uuid(flake: string): string | null };

const HOUR_S = 3600;

export interface Signature {
  ex: string;
  is: string;
  hm: string;
}

export class FileLinks {
  private readonly key: Uint8Array;

  constructor(
    serverKey: Uint8Array,
    private readonly urls: Pick<Urls, "base">,
    private readonly clock: Pick<Clock, "now">,
    /** How long a link works (config media.urlTtlMs). */
    private readonly ttlMs: number,
  ) {
    this.key = hmac(sha256, serverKey, new TextEncoder().encode("parley attachments v1"));
  }

  /**
   * The runtime's HMAC: a link is signed per attachment of every view of every message
   * sent, and @noble's (the key's derivation above, once) took ~30 us a link, the larger
   * part of a ten-file message's fan-out. The bytes are the same HMAC-SHA256.
   */
  private mac(channelId: string, attachmentId: string, ex: string, is: string): string {
    return new Bun.CryptoHasher("sha256", this.key).update(`${channelId}/${attachmentId}/${ex}/${is}`).digest("hex");
  }

  /** The signature of an attachment's link now: issued at the hour, valid for the TTL past the hour's end. */
  sign(channelId: string, attachmentId: string): Signature {
    const is = Math.floor(this.clock.now() / 1000 / HOUR_S) * HOUR_S;
    const ex = is + Math.ceil(this.ttlMs / 1000) + HOUR_S;
    const s = { ex: ex.toString(16), is: is.toString(16) };
    return { ...s, hm: this.mac(channelId, attachmentId, s.ex, s.is) };
  }

  /** Whether a link's signature is this server's for these internal ids, and has not expired (constant-time compare). */
  verify(channelId: string, attachmentId: string, sig: Partial<Signature>): boolean {
    const { ex, is, hm } = sig;
    if (!ex || !is || !hm || !/^[0-9a-f]{1,12}$/.test(ex) || !/^[0-9a-f]{1,12}$/.test(is) || !/^[0-9a-f]{64}$/.test(hm)) return false;
    if (parseInt(ex, 16) * 1000 < this.clock.now()) return false;
    const want = Buffer.from(this.mac(channelId, attachmentId, ex, is), "hex");
    return timingSafeEqual(want, Buffer.from(hm, "hex"));
  }

  /**
   * An attachment's signed link: absolute with snowflakes for bots (`ids` given), a path
   * with internal ids for the web client on Parley's own origin.
   */
  attachment(a: Pick<Attachment, "id" | "channel_id" | "filename">, ids: FlakeOf | null): string {
    const s = this.sign(a.channel_id, a.id);
    const path = `/attachments/${ids ? ids.of(a.channel_id) : a.channel_id}/${ids ? ids.of(a.id) : a.id}/${encodeURIComponent(a.filename)}?ex=${s.ex}&is=${s.is}&hm=${s.hm}&`;
    return ids ? this.urls.base + path : path;
  }

  /** Where the CDN paths are: the base URL (what a library's CDN setting is given). */
  get base(): string {
    return this.urls.base;
  }
}

/** CDN paths (the reference's shapes), relative to the base URL. */
export const cdnPaths = {
  avatar: (userId: string, hash: string) => `/avatars/${userId}/${hash}.${hash.startsWith("a_") ? "gif" : "png"}`,
  icon: (guildId: string, hash: string) => `/icons/${guildId}/${hash}.${hash.startsWith("a_") ? "gif" : "png"}`,
  appIcon: (appId: string, hash: string) => `/app-icons/${appId}/${hash}.png`,
  emoji: (emojiId: string, animated: boolean) => `/emojis/${emojiId}.${animated ? "gif" : "png"}`,
  defaultAvatar: (index: number) => `/embed/avatars/${index}.png`,
};

const DATA_URI = /^data:(image\/(?:png|jpeg|jpg|gif|webp|avif));base64,([A-Za-z0-9+/]*={0,2})$/;

/**
 * An image as the reference's JSON bodies carry one (`data:image/png;base64,...`: an
 * emoji's `image`, a server's `icon`, a bot's own `avatar`), decoded. What it really is
 * the core judges by its bytes; the declared type is only checked to be an image's.
 */
export function imageDataIn(value: unknown, path: string): Uint8Array {
  const m = typeof value === "string" ? DATA_URI.exec(value) : null;
  if (!m || m[2].length % 4 !== 0)
    throw DomainError.invalid(path, "Invalid image data: a data:image/...;base64 URI is needed", "IMAGE_INVALID");
  return new Uint8Array(Buffer.from(m[2], "base64"));
}

/**
 * A bot's PATCH `attachments` (reference v10: list every attachment to keep): each entry
 * names an existing attachment by snowflake. One it cannot map stays as written, so the
 * core answers it unknown at its index; a new file (no `id`) is an upload, which bots
 * cannot make (spec 1.5).
 */
export function keepAttachmentsIn(list: unknown, flakes: UuidOf): AttachmentEdit[] | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw DomainError.invalid("attachments", "Must be an array.", "BASE_TYPE_INVALID");
  return list.map((e, i) => {
    const id = e && typeof e === "object" ? (e as Record<string, unknown>).id : undefined;
    if (typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint")
      throw DomainError.invalid(
        `attachments[${i}].id`,
        "Bots cannot upload files: an entry must name an existing attachment's id",
        "BOTS_CANNOT_UPLOAD",
      );
    const description = (e as Record<string, unknown>).description;
    const keep: AttachmentEdit = { id: flakes.uuid(String(id)) ?? String(id) };
    if (typeof description === "string" || description === null) keep.description = description;
    return keep;
  });
}
