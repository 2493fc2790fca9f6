/**
 * Longer than 400 lines because upload slots, their bytes, avatars and icons share one set of
 * limits and checks.
 *
 * Files (issue 31): a person's upload slots, their bytes, and the images that stand for
 * people, applications and servers (avatars, icons). A file is asked for first (a slot:
 * name and size), so every refusal (rights, counts, sizes, a person's storage) comes
 * before any byte is read; then its bytes are streamed to disk (store/media.ts), judged
 * by what they are (core/media-types.ts), and named by the slot's row. They are flushed
 * behind that answer, and nothing names them for good before they are: a message waits
 * for its slots' bytes (flushed(), then core/message-attachments.ts takes the slots when
 * it is sent), an avatar, an icon or an emoji for its image's (prepareImage, emoji in
 * core/emojis.ts). What nothing names any more goes after a grace period (core/media-gc.ts).
 *
 * Bots never upload files (spec 1.5): slots are a person's. The images bots may send as
 * data (their own avatar, a server's icon, an emoji) arrive as bytes instead of a slot,
 * and are held to the same checks.
 */
import type { CoreDeps, MediaLimits } from "./deps";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Applications } from "./applications";
import type { Audit } from "./audit";
import type { Attachment, Guild, MediaBlob, Upload, UploadPurpose, User } from "./models";
import { AUDIT } from "./audit";
import { DomainError } from "./errors";
import { PERMISSIONS } from "./permissions";
import { accessChannel, requireBits } from "./access";
import { TEXT_CHANNEL_TYPES } from "./channel-types";
import { cleanFilename, invalidImage, sniff, storeError, type Sniffed } from "./media-types";
import type { ByteSource, Received, Staged } from "../store/media";
import { Placements } from "./media-place";
import { flushedUploads, requireFlushed, settleBlob } from "./media-flush";
import { handedFile } from "./interaction-files";

/** A slot is used within this long of being asked for, or it goes (with its bytes, unless something else names them). */
export const UPLOAD_TTL_MS = 3600_000;
/** Slots a person may hold unused at once: the storage limit bounds bytes, this bounds rows. */
export const MAX_PENDING_UPLOADS = 100;
export const MAX_FILENAME_LENGTH = 1024;
/** An attachment's description (the reference's alt text limit). */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** How far into a file the sniffer may read for an image's dimensions. */
const DIMENSIONS_PROBE = 1024 * 1024;

/**
 * Attachments with their bytes' facts, as every reader gets them. In an end-to-end
 * encrypted DM a file is ciphertext whatever its bytes look like (a sniffer may by
 * chance call them a picture, and the same bytes may be a picture in another channel):
 * there it is always application/octet-stream, never inline, with no dimensions, so it
 * is served as a download and no client is told to show it.
 */
export const ATTACHMENT_ROWS = `SELECT a.id, a.message_id, a.channel_id, a.uploader_id, a.sha256, a.filename, a.description, a.ordinal, a.flags, b.size,
    CASE WHEN c.e2e <> 0 THEN 'application/octet-stream' ELSE b.content_type END AS content_type,
    CASE WHEN c.e2e <> 0 THEN 0 ELSE b.inline END AS inline,
    CASE WHEN c.e2e <> 0 THEN NULL ELSE b.width END AS width,
    CASE WHEN c.e2e <> 0 THEN NULL ELSE b.height END AS height
  FROM attachments a JOIN media_blobs b ON b.sha256 = a.sha256 JOIN channels c ON c.id = a.channel_id`;

export interface FileRequest {
  filename: string;
  size: number;
  description?: string | null;
}

/** An image a person uploaded (a slot of the right purpose) or a bot sent as data. */
export type ImageSource = { uploadId: string } | { bytes: Uint8Array };

/** An image ready to be named: commit() (synchronous, inside the caller's write) stores its row and uses its slot. */
export interface PreparedImage {
  readonly sha256: string;
  readonly animated: boolean;
  commit(): MediaBlob;
}

/** The hash the reference shows for an image: 32 hex digits of its SHA-256, `a_` first when animated. */
export function displayHash(blob: Pick<MediaBlob, "sha256" | "animated">): string {
  return (blob.animated ? "a_" : "") + blob.sha256.slice(0, 32);
}

export class Media {
  /** Slots whose bytes are arriving now: a second body for one is refused. */
  private readonly receiving = new Set<string>();
  /** Slots' bytes hashed and placed behind their answer (the `placeBehind` fast path). */
  readonly placements: Placements;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly apps: Applications,
    private readonly audit: Audit,
  ) {
    this.placements = new Placements(d, {
      sniff: (staged) => this.sniffStaged(staged),
      commit: (staged, s) => this.commitStaged(staged, s),
    });
  }

  private get db() {
    return this.d.store.db;
  }

  get limits(): MediaLimits {
    return this.d.media.limits;
  }

  // ---- slots ----

  /**
   * Slots for a message's files in a channel: ATTACH_FILES and SEND_MESSAGES there (a
   * DM allows files, as the reference does; in an end-to-end encrypted one they hold
   * what the client encrypted, message-attachments.ts), at most filesPerMessage, each
   * within maxFileBytes and all within the person's storage. Nothing is read yet.
   */
  openAttachments(actorId: string, channelId: string, files: FileRequest[]): Upload[] {
    return this.d.store.write(() => {
      this.requirePerson(actorId);
      const a = accessChannel(this.d, this.guilds, actorId, channelId);
      if (!TEXT_CHANNEL_TYPES.has(a.channel.type))
        throw DomainError.invalid("", "Cannot send messages in a non-text channel", "CHANNEL_TYPE_INVALID");
      if (!a.isDm) requireBits(a, PERMISSIONS.SEND_MESSAGES, PERMISSIONS.ATTACH_FILES);
      const max = this.limits.filesPerMessage;
      if (files.length < 1 || files.length > max)
        throw DomainError.invalid("files", `Must be between 1 and ${max} in length.`, "BASE_TYPE_BAD_LENGTH");
      files.forEach((f, i) => this.checkRequest(f, `files[${i}]`, this.limits.maxFileBytes));
      this.requireRoom(
        actorId,
        files.reduce((n, f) => n + f.size, 0),
        files.length,
      );
      return files.map((f) => this.insertSlot(actorId, "attachment", f, { channelId }));
    });
  }

  /**
   * A slot for an image: a person's avatar, an application's icon (its owner's), a
   * server's icon (MANAGE_GUILD) or an emoji (MANAGE_EXPRESSIONS), checked again when it is used.
   */
  openImage(actorId: string, purpose: Exclude<UploadPurpose, "attachment">, file: FileRequest, guildId: string | null = null): Upload {
    return this.d.store.write(() => {
      this.requirePerson(actorId);
      if (purpose === "icon" || purpose === "emoji") {
        if (!guildId || !this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
        this.guilds.requirePermission(guildId, actorId, purpose === "icon" ? PERMISSIONS.MANAGE_GUILD : PERMISSIONS.MANAGE_EXPRESSIONS);
      }
      this.checkRequest(file, "", purpose === "emoji" ? this.limits.emojiBytes : this.limits.avatarBytes);
      this.requireRoom(actorId, 0, 1);
      return this.insertSlot(actorId, purpose, file, { guildId: purpose === "icon" || purpose === "emoji" ? guildId : null });
    });
  }

  /** One of the person's live slots (404 for anyone else's, or one that expired). */
  upload(actorId: string, uploadId: string): Upload {
    const u = this.db.query("SELECT * FROM uploads WHERE id = ?").get(uploadId) as Upload | null;
    if (!u || u.owner_id !== actorId || u.expires_at <= this.d.clock.now()) throw DomainError.notFound("upload");
    return u;
  }

  /**
   * The bytes of a slot. `declaredLength` (a request's Content-Length) past the slot's
   * size is refused before a byte is read; a body without one is counted as it streams
   * and cut at the size. Answers once the bytes are written and the slot's committed row
   * says so; they are hashed, put under their hash and named by the row behind the answer
   * (the `placeBehind` fast path, core/media-place.ts; off, before it), and flushed behind
   * that (`flushBehind`; off, before the answer, and placed before it too). An
   * acknowledged upload survives the server's process being killed (kill -9: the bytes
   * are in the page cache); after a power loss or an operating-system crash it may have to
   * be sent again, and nothing that names it (a message, an avatar) ever commits before
   * its bytes are placed and flushed (flushed()).
   */
  async receive(actorId: string, uploadId: string, body: ByteSource, declaredLength: number | null = null): Promise<Upload> {
    const slot = this.upload(actorId, uploadId);
    if (slot.sha256 !== null || slot.size !== null || this.receiving.has(uploadId))
      throw DomainError.invalid("", "This upload already has its file", "UPLOAD_ALREADY_RECEIVED");
    if (declaredLength !== null && declaredLength > slot.declared_size)
      throw DomainError.tooLarge(`The file is larger than the ${slot.declared_size} bytes this upload was opened for`);
    this.receiving.add(uploadId);
    try {
      return this.d.fastPaths.placeBehind ? await this.receiveBehind(slot, body, declaredLength) : await this.receiveWhole(slot, body);
    } finally {
      this.receiving.delete(uploadId);
    }
  }

  /** The bytes written under the slot's name (an image's judged); their hashing, judging and placing start behind the answer. */
  private async receiveBehind(slot: Upload, body: ByteSource, declaredLength: number | null): Promise<Upload> {
    const store = this.d.media.store;
    let got: Received;
    try {
      got = await store.receive(slot.id, body, { limit: slot.declared_size, length: declaredLength });
    } catch (e) {
      throw storeError(e, slot.declared_size);
    }
    // An image's slot refuses what is no image now; a file's bytes are judged behind the answer, as they are hashed.
    let sniffed: Sniffed | null = null;
    if (slot.purpose !== "attachment") {
      try {
        sniffed = await this.sniffStaged(got);
        if (!sniffed.image) throw invalidImage("");
      } catch (e) {
        got.discard();
        throw e;
      }
    }
    // The bytes under the slot's name and the row saying so, in one step: on Postgres the
    // update holds the slot's row, so a second body for it (another node's) waits and then
    // finds it filled, never moving its bytes over these.
    let row: Upload | null;
    try {
      row = this.d.store.write(() => {
        const set = this.db.query("UPDATE uploads SET size = ? WHERE id = ? AND sha256 IS NULL AND size IS NULL").run(got.size, slot.id);
        if (set.changes !== 1) return null;
        try {
          got.keep();
        } catch (e) {
          throw storeError(e, got.size);
        }
        return { ...slot, size: got.size };
      });
    } catch (e) {
      // Not committed (a database that refused): the bytes go; kept under the slot's name already, the next body replaces them.
      got.discard();
      throw e;
    }
    if (!row) {
      got.discard();
      const now = this.db.query("SELECT 1 AS x FROM uploads WHERE id = ?").get(slot.id);
      throw now ? DomainError.invalid("", "This upload already has its file", "UPLOAD_ALREADY_RECEIVED") : DomainError.notFound("upload");
    }
    this.placements.start(slot.id, sniffed);
    return row;
  }

  /** The bytes hashed as they are written, under their hash and named by the slot's row before the answer. */
  private async receiveWhole(slot: Upload, body: ByteSource): Promise<Upload> {
    const staged = await this.stage(body, slot.declared_size, undefined, this.d.fastPaths.flushBehind ? "behind" : "now");
    const sniffed = await this.sniffStaged(staged);
    if (slot.purpose !== "attachment" && !sniffed.image) {
      staged.discard();
      throw invalidImage("");
    }
    // One synchronous step from here: the bytes go in place and a row names them.
    const live = this.db.query("SELECT sha256 FROM uploads WHERE id = ?").get(slot.id) as { sha256: string | null } | null;
    if (!live || live.sha256 !== null) {
      staged.discard();
      throw DomainError.notFound("upload");
    }
    return this.d.store.write(() => {
      this.commitStaged(staged, sniffed);
      this.db.query("UPDATE uploads SET sha256 = ?, size = ? WHERE id = ?").run(staged.sha256, staged.size, slot.id);
      return this.db.query("SELECT * FROM uploads WHERE id = ?").get(slot.id) as Upload;
    });
  }

  /** Give a slot up; its bytes, if any, go with the collector once nothing names them. */
  cancel(actorId: string, uploadId: string): void {
    const slot = this.d.store.write(() => {
      const u = this.upload(actorId, uploadId);
      this.db.query("DELETE FROM uploads WHERE id = ?").run(uploadId);
      return u;
    });
    // Bytes received and not yet placed go now (being placed, the placing finds the slot gone and drops them).
    if (slot.sha256 === null && slot.size !== null) this.d.media.store.dropReceived(uploadId);
  }

  /** What a person's files hold: sent attachments, and slots not yet used (by their declared size). */
  usage(personId: string): { attachedBytes: number; attachedFiles: number; pendingBytes: number; pendingUploads: number; limit: number } {
    const r = this.db
      .query(
        `SELECT (SELECT coalesce(sum(b.size), 0) FROM attachments a JOIN media_blobs b ON b.sha256 = a.sha256 WHERE a.uploader_id = ?) AS attached_bytes,
                (SELECT count(*) FROM attachments WHERE uploader_id = ?) AS attached_files,
                (SELECT coalesce(sum(declared_size), 0) FROM uploads WHERE owner_id = ? AND purpose = 'attachment' AND expires_at > ?) AS pending_bytes,
                (SELECT count(*) FROM uploads WHERE owner_id = ? AND expires_at > ?) AS pending_uploads`,
      )
      .get(personId, personId, personId, this.d.clock.now(), personId, this.d.clock.now()) as Record<string, number>;
    return {
      attachedBytes: Number(r.attached_bytes),
      attachedFiles: Number(r.attached_files),
      pendingBytes: Number(r.pending_bytes),
      pendingUploads: Number(r.pending_uploads),
      limit: this.limits.perPersonBytes,
    };
  }

  private requirePerson(actorId: string): void {
    if (this.users.require(actorId).kind !== "person") throw DomainError.invalid("files", "Bots cannot upload files", "BOTS_CANNOT_UPLOAD");
  }

  private checkRequest(f: FileRequest, path: string, maxBytes: number): void {
    const at = (k: string) => (path ? `${path}.${k}` : k);
    if (typeof f.filename !== "string" || f.filename.length < 1 || f.filename.length > MAX_FILENAME_LENGTH)
      throw DomainError.invalid(at("filename"), `Must be between 1 and ${MAX_FILENAME_LENGTH} in length.`, "BASE_TYPE_BAD_LENGTH");
    if (!Number.isSafeInteger(f.size) || f.size < 0)
      throw DomainError.invalid(at("file_size"), "Must be a whole number of bytes.", "NUMBER_TYPE_COERCE");
    if (f.description != null && (typeof f.description !== "string" || f.description.length > MAX_DESCRIPTION_LENGTH))
      throw DomainError.invalid(at("description"), `Must be ${MAX_DESCRIPTION_LENGTH} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
    if (f.size > maxBytes)
      throw DomainError.tooLarge(`${cleanFilename(f.filename)} is larger than the ${maxBytes} bytes a file may have here`);
  }

  /** The person's storage and pending slots leave room for `bytes` more in `slots` new slots. */
  private requireRoom(personId: string, bytes: number, slots: number): void {
    const u = this.usage(personId);
    if (u.pendingUploads + slots > MAX_PENDING_UPLOADS)
      throw DomainError.invalid(
        "files",
        `At most ${MAX_PENDING_UPLOADS} uploads may wait to be used; send or cancel some first`,
        "TOO_MANY_UPLOADS",
      );
    const limit = this.limits.perPersonBytes;
    if (limit > 0 && u.attachedBytes + u.pendingBytes + bytes > limit)
      throw DomainError.tooLarge(
        `These files would take you past the ${limit} bytes you may store (${u.attachedBytes + u.pendingBytes} in use)`,
      );
  }

  private insertSlot(
    ownerId: string,
    purpose: UploadPurpose,
    f: FileRequest,
    where: { channelId?: string; guildId?: string | null },
  ): Upload {
    const now = this.d.clock.now();
    const u: Upload = {
      id: this.d.ids.next(),
      owner_id: ownerId,
      purpose,
      channel_id: where.channelId ?? null,
      guild_id: where.guildId ?? null,
      filename: cleanFilename(f.filename),
      description: f.description ?? null,
      declared_size: f.size,
      sha256: null,
      size: null,
      created_at: now,
      expires_at: now + UPLOAD_TTL_MS,
    };
    this.db
      .query(
        `INSERT INTO uploads (id, owner_id, purpose, channel_id, guild_id, filename, description, declared_size, sha256, size, created_at, expires_at)
         VALUES ($id, $owner_id, $purpose, $channel_id, $guild_id, $filename, $description, $declared_size, $sha256, $size, $created_at, $expires_at)`,
      )
      .run(u as never);
    return u;
  }

  // ---- bytes ----

  /** Stream bytes to the store, the store's failures as the core's errors (nothing kept on any). */
  async stage(source: ByteSource, limit: number, expect?: string, flush: "now" | "behind" = "now"): Promise<Staged> {
    try {
      return await this.d.media.store.stage(source, { limit, expect, flush });
    } catch (e) {
      throw storeError(e, limit);
    }
  }

  /**
   * Before a message names the person's uploads: resolves once their bytes are flushed,
   * or null when they all are already (core/media-flush.ts).
   */
  flushed(actorId: string, uploadIds: readonly (string | undefined)[]): Promise<void> | null {
    const placing = this.placements.pending(actorId, uploadIds);
    if (!placing) return flushedUploads(this.d, actorId, uploadIds);
    return placing.then(() => flushedUploads(this.d, actorId, uploadIds) ?? undefined);
  }

  async sniffStaged(staged: Pick<Received, "head" | "read">): Promise<Sniffed> {
    return sniff(staged.head, () => staged.read(DIMENSIONS_PROBE), this.limits.previewPixels);
  }

  /**
   * The row first, then the bytes in place (or the same bytes found there): synchronous,
   * inside the caller's write. The row comes first so that on Postgres this write holds
   * its lock before it looks at the disk: another node's collector deleting the same
   * blob (media-gc.ts) unlinks inside its own transaction, so either it has finished and
   * committed (and place() finds no file and puts these bytes there), or it waits for
   * this write and then finds the blob referenced. Nobody else sees the row before the
   * commit, by which time the bytes are there.
   */
  commitStaged(staged: Staged, s: Sniffed): MediaBlob {
    this.db
      .query(
        `INSERT INTO media_blobs (sha256, size, content_type, inline, width, height, animated, created_at, unreferenced_since)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (sha256) DO UPDATE SET unreferenced_since = NULL`,
      )
      .run(staged.sha256, staged.size, s.contentType, s.inline ? 1 : 0, s.width, s.height, s.animated ? 1 : 0, this.d.clock.now());
    // A read: on Postgres it sends the queued insert and waits for it, so the lock is held from here.
    const row = this.blob(staged.sha256)!;
    try {
      staged.place();
    } catch (e) {
      throw storeError(e, staged.size);
    }
    return row;
  }

  blob(sha256: string): MediaBlob | null {
    return this.db
      .query("SELECT sha256, size, content_type, inline, width, height, animated, created_at FROM media_blobs WHERE sha256 = ?")
      .get(sha256) as MediaBlob | null;
  }

  /** The stored bytes of a blob (a Blob the surface can serve without copying), or null. */
  open(sha256: string): Blob | null {
    return this.d.media.store.open(sha256);
  }

  /** An attachment with its bytes' facts (a message's, or a file handed to a bot through a command), or null. */
  attachment(id: string): Attachment | null {
    return (this.db.query(`${ATTACHMENT_ROWS} WHERE a.id = ?`).get(id) as Attachment | null) ?? handedFile(this.d, id);
  }

  // ---- images: avatars and icons ----

  /**
   * An image from a slot of `purpose` that `actorId` filled, or from bytes, checked to be
   * a raster image within `limit`. Its row is written by commit(), in the caller's write.
   */
  async prepareImage(
    actorId: string,
    source: ImageSource,
    purpose: Exclude<UploadPurpose, "attachment">,
    limit: number,
    path: string,
  ): Promise<PreparedImage> {
    if ("bytes" in source) {
      if (source.bytes.byteLength > limit) throw DomainError.tooLarge(`The image is larger than the ${limit} bytes allowed here`);
      const staged = await this.stage(source.bytes, limit);
      const sniffed = await this.sniffStaged(staged);
      if (!sniffed.image) {
        staged.discard();
        throw invalidImage(path);
      }
      return { sha256: staged.sha256, animated: sniffed.animated, commit: () => this.commitStaged(staged, sniffed) };
    }
    let slot = this.upload(actorId, source.uploadId);
    if (slot.sha256 === null && slot.size !== null) {
      await this.placements.placed(slot.id, path);
      slot = this.upload(actorId, source.uploadId);
    }
    const blob = slot.sha256 && slot.purpose === purpose ? this.blob(slot.sha256) : null;
    if (!blob)
      throw DomainError.invalid(
        path,
        slot.sha256 ? `This upload is not for a ${purpose}` : "This upload has no file yet",
        "UPLOAD_INVALID",
      );
    // Named for good once committed: the bytes are flushed (and checked, if this process did not flush them) first.
    if (!this.d.media.store.settled(blob.sha256)) await settleBlob(this.d, blob.sha256, path);
    return {
      sha256: blob.sha256,
      animated: !!blob.animated,
      commit: () => {
        if (this.db.query("DELETE FROM uploads WHERE id = ?").run(slot.id).changes !== 1) throw DomainError.notFound("upload");
        requireFlushed(this.d, blob.sha256, path);
        return blob;
      },
    };
  }

  /** Set (or clear, null) a user's avatar: a person's own, or a bot's own through the bot API. */
  async setAvatar(userId: string, source: ImageSource | null): Promise<User> {
    return this.setUserImage(userId, userId, source);
  }

  /** An application's icon is its bot's avatar; its owner sets it. */
  async setApplicationIcon(ownerId: string, appId: string, source: ImageSource | null): Promise<User> {
    const app = this.apps.requireOwned(appId, ownerId);
    return this.setUserImage(ownerId, app.bot_user_id, source);
  }

  private async setUserImage(actorId: string, userId: string, source: ImageSource | null): Promise<User> {
    this.users.require(userId);
    const img = source ? await this.prepareImage(actorId, source, "avatar", this.limits.avatarBytes, "avatar") : null;
    return this.d.store.write(() => {
      const blob = img ? img.commit() : null;
      this.db
        .query("UPDATE users SET avatar = ?, avatar_sha256 = ? WHERE id = ?")
        .run(blob ? displayHash(blob) : null, blob?.sha256 ?? null, userId);
      // Members carry their user: each server the user is in hears of it (GUILD_MEMBER_UPDATE).
      for (const guildId of this.guilds.guildIdsOf(userId)) this.d.store.emit({ type: "member.updated", guildId, userId });
      return this.users.require(userId);
    });
  }

  /** Set (or clear) a server's icon: MANAGE_GUILD, audited (GUILD_UPDATE, `icon_hash`), GUILD_UPDATE dispatched. */
  async setGuildIcon(actorId: string, guildId: string, source: ImageSource | null, reason: string | null = null): Promise<Guild> {
    const img = await this.prepareGuildIcon(actorId, guildId, source);
    return this.d.store.write(() => this.commitGuildIcon(actorId, guildId, img, reason));
  }

  /**
   * A server's new icon judged and ready (null: clearing it), for a caller that commits it
   * with other changes in one write (commitGuildIcon): the bot API's PATCH of a server.
   */
  async prepareGuildIcon(actorId: string, guildId: string, source: ImageSource | null): Promise<PreparedImage | null> {
    this.requireIconRight(actorId, guildId);
    return source ? await this.prepareImage(actorId, source, "icon", this.limits.avatarBytes, "icon") : null;
  }

  /** The icon prepared, in place (inside the caller's write): checked again, audited if it changed. */
  commitGuildIcon(actorId: string, guildId: string, img: PreparedImage | null, reason: string | null = null): Guild {
    return this.d.store.write(() => {
      this.requireIconRight(actorId, guildId);
      const before = this.guilds.require(guildId);
      const blob = img ? img.commit() : null;
      const icon = blob ? displayHash(blob) : null;
      this.db.query("UPDATE guilds SET icon = ?, icon_sha256 = ? WHERE id = ?").run(icon, blob?.sha256 ?? null, guildId);
      if (before.icon !== icon) {
        const change: Record<string, unknown> = { key: "icon_hash" };
        if (before.icon !== null) change.old_value = before.icon;
        if (icon !== null) change.new_value = icon;
        this.audit.record({ guildId, actorId, actionType: AUDIT.GUILD_UPDATE, targetId: guildId, changes: [change as never], reason });
      }
      this.d.store.emit({ type: "guild.updated", guildId });
      return this.guilds.require(guildId);
    });
  }

  private requireIconRight(actorId: string, guildId: string): void {
    if (!this.guilds.isMember(guildId, actorId)) throw DomainError.notFound("guild");
    this.guilds.requirePermission(guildId, actorId, PERMISSIONS.MANAGE_GUILD);
  }

  /** The bytes behind a user's avatar hash, or null when that is not (or no longer) their avatar. */
  avatarBlob(userId: string, hash: string): MediaBlob | null {
    const r = this.db.query("SELECT avatar, avatar_sha256 FROM users WHERE id = ?").get(userId) as {
      avatar: string | null;
      avatar_sha256: string | null;
    } | null;
    return r && r.avatar === hash && r.avatar_sha256 ? this.blob(r.avatar_sha256) : null;
  }

  iconBlob(guildId: string, hash: string): MediaBlob | null {
    const r = this.db.query("SELECT icon, icon_sha256 FROM guilds WHERE id = ?").get(guildId) as {
      icon: string | null;
      icon_sha256: string | null;
    } | null;
    return r && r.icon === hash && r.icon_sha256 ? this.blob(r.icon_sha256) : null;
  }

  /** An application's icon: its bot's avatar. */
  appIconBlob(appId: string, hash: string): MediaBlob | null {
    const app = this.apps.get(appId);
    return app ? this.avatarBlob(app.bot_user_id, hash) : null;
  }
}
