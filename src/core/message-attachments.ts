/**
 * A message's files: a person's filled upload slots become its attachments when it is
 * sent (in the send's own transaction, so a message and its files commit together or
 * not at all), and an edit keeps the ones it lists and drops the rest (the reference's
 * v10 rule: `attachments` lists every attachment to keep). A person may add new files
 * in an edit; a bot never adds any (spec 1.5), it may only keep or drop.
 *
 * In an end-to-end encrypted DM the files are what the client encrypted, uploaded under
 * a neutral name; their keys and real names are in the message's sealed text (src/e2e/
 * content.ts), which names them by position, so they are read in the order sent and an
 * encrypted message's edit keeps them all (core/people.ts). They are always served as
 * downloads (ATTACHMENT_ROWS in media.ts).
 *
 * Reads are kept in memory per message while the attachments table is unchanged, and a
 * message posted without files is known to have none, so reading it costs no statement.
 */
import type { CoreDeps } from "./deps";
import type { Attachment, Message, Upload } from "./models";
import type { Users } from "./users";
import type { ChannelAccess } from "./access";
import { requireBits } from "./access";
import { DomainError } from "./errors";
import { Memo } from "./memo";
import { PERMISSIONS } from "./permissions";
import { ATTACHMENT_ROWS, MAX_DESCRIPTION_LENGTH } from "./media";
import { requireSlotBytes } from "./media-flush";
import type { AttachmentEdit, AttachmentInput } from "./message-types";

/** The reference's IS_SPOILER attachment flag. */
export const ATTACHMENT_SPOILER = 1 << 3;

/** The files of every message without any: one list, not one frozen per post (freezing an array costs a post microseconds). */
const NO_FILES: readonly Attachment[] = Object.freeze([]);

export class MessageAttachments {
  private readonly kept: Memo<readonly Attachment[]>;

  constructor(
    private readonly d: CoreDeps,
    private readonly users: Users,
  ) {
    this.kept = new Memo(d.store, ["attachments"], { max: 5000, enabled: d.fastPaths.memo });
  }

  private get db() {
    return this.d.store.db;
  }

  /** A message's attachments in order. */
  of(messageId: string): readonly Attachment[] {
    return this.kept.get(messageId, () => this.read(messageId));
  }

  private read(messageId: string): Attachment[] {
    return this.db.query(`${ATTACHMENT_ROWS} WHERE a.message_id = ? ORDER BY a.ordinal`).all(messageId) as Attachment[];
  }

  /** A message just written without files: nothing to read for it later. */
  none(messageId: string): void {
    this.kept.put(messageId, NO_FILES);
  }

  /**
   * Turn the author's slots into the new message's attachments (inside the send's write).
   * Each must be theirs, for this channel, filled and unexpired; at most filesPerMessage.
   */
  attach(actorId: string, a: ChannelAccess, inputs: readonly AttachmentInput[] | undefined, m: Message): Message {
    if (!inputs?.length) return m;
    this.requireUploader(actorId, a, inputs.length);
    inputs.forEach((input, i) => this.insertFromSlot(actorId, m, input, i, `attachments[${i}]`));
    // Its entry was made before the files were theirs (where the engine makes one at once).
    this.d.search.changed(m, a.channel);
    return m;
  }

  /**
   * An edit's `attachments` (undefined: keep all; null or []: drop all): keep the listed
   * ones in the order listed, add the new slots (people only), drop the rest. Answers
   * how many the message then has.
   */
  edit(actorId: string, a: ChannelAccess, m: Message, list: readonly AttachmentEdit[] | null): number {
    const current = this.read(m.id);
    const entries = list ?? [];
    const byId = new Map(current.map((x) => [x.id, x]));
    const keep = new Set<string>();
    const added = entries.filter((e) => "uploadId" in e).length;
    if (added) this.requireUploader(actorId, a, entries.length);
    else if (entries.length > this.d.media.limits.filesPerMessage) throw tooMany(this.d.media.limits.filesPerMessage);
    entries.forEach((e, i) => {
      if ("uploadId" in e) return;
      if (typeof e.id !== "string" || !byId.has(e.id) || keep.has(e.id))
        throw DomainError.invalid(`attachments[${i}].id`, "Unknown attachment", "ATTACHMENT_UNKNOWN");
      keep.add(e.id);
    });
    const drop = this.db.query("DELETE FROM attachments WHERE id = ?");
    for (const x of current) if (!keep.has(x.id)) drop.run(x.id);
    const reorder = this.db.query("UPDATE attachments SET ordinal = ?, description = ? WHERE id = ?");
    entries.forEach((e, i) => {
      if ("uploadId" in e) this.insertFromSlot(actorId, m, e, i, `attachments[${i}]`);
      else {
        const description =
          e.description === undefined ? byId.get(e.id)!.description : checkDescription(e.description, `attachments[${i}].description`);
        reorder.run(i, description, e.id);
      }
    });
    return entries.length;
  }

  /** Only people upload, with ATTACH_FILES in a server channel, and at most filesPerMessage at once. */
  private requireUploader(actorId: string, a: ChannelAccess, count: number): void {
    if (this.users.require(actorId).kind !== "person")
      throw DomainError.invalid("attachments", "Bots cannot upload files", "BOTS_CANNOT_UPLOAD");
    if (!a.isDm) requireBits(a, PERMISSIONS.ATTACH_FILES);
    const max = this.d.media.limits.filesPerMessage;
    if (count > max) throw tooMany(max);
  }

  private insertFromSlot(actorId: string, m: Message, input: AttachmentInput, ordinal: number, path: string): void {
    const slot = this.db.query("SELECT * FROM uploads WHERE id = ?").get(input.uploadId) as Upload | null;
    const usable =
      slot &&
      slot.owner_id === actorId &&
      slot.purpose === "attachment" &&
      slot.channel_id === m.channel_id &&
      slot.expires_at > this.d.clock.now();
    if (!usable) throw DomainError.invalid(`${path}.upload_id`, "Unknown upload", "UPLOAD_UNKNOWN");
    // Its bytes placed and flushed before a message names them (core/media.ts, flushed(): the surface waited for it).
    requireSlotBytes(this.d, slot, `${path}.upload_id`);
    const description = input.description === undefined ? slot.description : checkDescription(input.description, `${path}.description`);
    this.db
      .query(
        `INSERT INTO attachments (id, message_id, channel_id, uploader_id, sha256, filename, description, ordinal, flags)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        this.d.ids.next(),
        m.id,
        m.channel_id,
        actorId,
        slot.sha256,
        slot.filename,
        description,
        ordinal,
        input.spoiler ? ATTACHMENT_SPOILER : 0,
      );
    this.db.query("DELETE FROM uploads WHERE id = ?").run(slot.id);
    this.db.query("UPDATE media_blobs SET unreferenced_since = NULL WHERE sha256 = ?").run(slot.sha256);
  }
}

function tooMany(max: number): DomainError {
  return DomainError.invalid("attachments", `Must be ${max} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
}

function checkDescription(d: string | null, path: string): string | null {
  if (d !== null && (typeof d !== "string" || d.length > MAX_DESCRIPTION_LENGTH))
    throw DomainError.invalid(path, `Must be ${MAX_DESCRIPTION_LENGTH} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  return d;
}
