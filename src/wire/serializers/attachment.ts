import type { Attachment, CustomEmoji, EmojiModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";

/**
 * The Attachment object (spec 2.7): the five required fields always, `content_type` as
 * the bytes say it, `ephemeral: false`. The optional ones are left out when they have no
 * value, as the reference leaves them out: dimensions only for images and video,
 * `description` only when one was given, `flags` only when set (IS_SPOILER). discord.js
 * and discord.py read an absent one as null. A message's frame carries up to ten of these
 * to every bot holding MESSAGE_CONTENT, so every byte left out is one less per socket.
 */
export function attachmentJson(f: Ids, a: Attachment): Record<string, unknown> {
  if (!f.files) throw new Error("attachment links need the server's FileLinks (app.ts hands them to the boundary)");
  const url = f.files.attachment(a, f);
  const out: Record<string, unknown> = { id: f.of(a.id), filename: a.filename, size: a.size, url, proxy_url: url };
  if (a.content_type) out.content_type = a.content_type;
  if (a.width !== null && a.height !== null) {
    out.width = a.width;
    out.height = a.height;
  }
  if (a.description !== null) out.description = a.description;
  out.ephemeral = false;
  if (a.flags) out.flags = a.flags;
  return out;
}

/**
 * The Emoji object (spec 2.7, reference-gaps 3.12): roles are not kept (every member may
 * use every emoji), so `roles` is empty; `user` only in the emoji routes' answers to
 * those who may manage emoji (EmojiModel), never in a guild's `emojis`.
 */
export function emojiJson(f: Ids, e: CustomEmoji | EmojiModel): Record<string, unknown> {
  const emoji = "emoji" in e ? e.emoji : e;
  const out: Record<string, unknown> = {
    id: f.of(emoji.id),
    name: emoji.name,
    roles: [],
    require_colons: true,
    managed: false,
    animated: !!emoji.animated,
    available: true,
  };
  if ("emoji" in e && e.user) out.user = userJson(f, e.user);
  return out;
}
