/**
 * Files as the people's API shows them (issue 31): attachments with their signed link on
 * this origin, upload slots with where their bytes go, a server's emoji with its image.
 */
import type { Attachment, CustomEmoji, Upload as UploadRow } from "../core";
import { ATTACHMENT_SPOILER } from "../core";
import { cdnPaths, type FileLinks } from "../wire/files";
import { isoUtc } from "../wire/time";
import type * as C from "../contract";

export function attachmentView(a: Attachment, files: FileLinks | null): C.Attachment {
  return {
    id: a.id,
    filename: a.filename,
    size: a.size,
    url: files ? files.attachment(a, null) : "",
    content_type: a.content_type,
    width: a.width,
    height: a.height,
    description: a.description,
    inline: !!a.inline,
    spoiler: (a.flags & ATTACHMENT_SPOILER) !== 0,
  };
}

export function uploadView(u: UploadRow): C.Upload {
  return {
    id: u.id,
    filename: u.filename,
    size: u.declared_size,
    purpose: u.purpose,
    upload_url: `/api/client/v1/uploads/${u.id}`,
    expires_at: isoUtc(u.expires_at),
  };
}

export function emojiView(e: CustomEmoji): { id: string; name: string; animated: boolean; url: string } {
  return { id: e.id, name: e.name, animated: !!e.animated, url: cdnPaths.emoji(e.id, !!e.animated) };
}

export function customEmojiView(e: CustomEmoji): C.CustomEmoji {
  return { ...emojiView(e), creator_id: e.creator_id };
}
