/**
 * A file a person gives a bot through a command's ATTACHMENT option (reference-gaps 4.1:
 * the option's value is the attachment's id, `resolved.attachments` holds it). It is
 * uploaded as a message's files are (a slot of this channel, filled), and named by the
 * option instead of a message. Running the command hands the slot to the bot: its owner
 * becomes the bot user, so the person can neither send it again nor take it back, it no
 * longer counts against the person's storage, and its bytes stay named (and served under
 * a signed link, as a message's files are) for an hour from then, when the collector
 * takes it like any expired slot (core/media-gc.ts). The reference's own such files are
 * temporary too.
 */
import type { CoreDeps } from "./deps";
import type { Attachment, Upload } from "./models";
import { DomainError } from "./errors";
import { requireSlotBytes } from "./media-flush";

/** A handed-over slot as an attachment, with its bytes' facts. */
const HANDED_ROWS = `SELECT u.id, '' AS message_id, u.channel_id, u.owner_id AS uploader_id, u.sha256, u.filename, u.description,
    0 AS ordinal, 0 AS flags, b.size, b.content_type, b.inline, b.width, b.height
  FROM uploads u JOIN media_blobs b ON b.sha256 = u.sha256 JOIN users o ON o.id = u.owner_id
  WHERE u.purpose = 'attachment' AND o.kind = 'bot' AND u.expires_at > ?`;

/**
 * The person's filled slot for this channel that an option names, checked as a message's
 * files are (core/message-attachments.ts): the same codes at the option's path.
 */
export function checkGivenFile(d: CoreDeps, actorId: string, channelId: string, value: unknown, path: string): string {
  const slot = typeof value === "string" ? (d.store.db.query("SELECT * FROM uploads WHERE id = ?").get(value) as Upload | null) : null;
  const usable =
    slot && slot.owner_id === actorId && slot.purpose === "attachment" && slot.channel_id === channelId && slot.expires_at > d.clock.now();
  if (!usable) throw DomainError.invalid(path, "Unknown upload", "UPLOAD_UNKNOWN");
  requireSlotBytes(d, slot, path);
  return slot.id;
}

/**
 * Give the checked slots (by option path) to the bot, inside the interaction's own write,
 * so both happen or neither: a slot taken meanwhile (sent in a message) refuses the command.
 */
export function handFiles(d: CoreDeps, actorId: string, files: ReadonlyMap<string, string>, botUserId: string, until: number): void {
  const hand = d.store.db.query("UPDATE uploads SET owner_id = ?, expires_at = ? WHERE id = ? AND owner_id = ?");
  for (const [path, id] of files)
    if (hand.run(botUserId, until, id, actorId).changes !== 1 && !handedTo(d, id, botUserId))
      throw DomainError.invalid(path, "Unknown upload", "UPLOAD_UNKNOWN");
}

/** One slot named by two options of one command is handed once. */
function handedTo(d: CoreDeps, id: string, botUserId: string): boolean {
  return !!d.store.db.query("SELECT 1 FROM uploads WHERE id = ? AND owner_id = ?").get(id, botUserId);
}

/** A file handed to a bot, still held; null once it went (or for any other id). */
export function handedFile(d: CoreDeps, id: string): Attachment | null {
  return d.store.db.query(`${HANDED_ROWS} AND u.id = ?`).get(d.clock.now(), id) as Attachment | null;
}
