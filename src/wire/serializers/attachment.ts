import type { Attachment, CustomEmoji, EmojiModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";

/**
 * The Attachment object (spec 2.7): the five required fields always, `content_type` as
 * the bytes say it, dimensions for images and video (null otherwise), `description`
 * (null when none), `ephemeral: false`; `flags` only when set (IS_SPOILER).
 */
export function attachmentJson(f: Ids, a: Attachment): Record<string, unknown> {
  if (!f.files) throw new Error("attachment links need the server's FileLinks (app.ts hands them to the boundary)");
  const url = f.files.attachment(a, f);
  const out: Record<string, unknown> = {
    id: f.of(a.id),
    filename: a.filename,
    size: a.size,
    url,
    proxy_url: url,
    content_type: a.content_type,
    width: a.width,
    height: a.height,
    description: a.description,
    ephemeral: false,
  };
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
