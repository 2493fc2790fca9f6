/**
 * Uploads' bytes flushed before anything names them for good (issue 31). An upload is
 * answered once its bytes are written and named by its slot (core/media.ts, receive()),
 * and flushed behind that answer (store/media-flush.ts): a killed process loses nothing
 * by it, but an operating-system crash or a power loss could tear bytes not yet flushed.
 * So a message that names uploads, an avatar, an icon or an emoji taken from one, waits
 * for their flush first; bytes this process did not flush itself (after a restart, or
 * uploaded through another node) are flushed and checked against their hash, and torn or
 * gone, the slots naming them are emptied and the person is asked to upload again
 * (UPLOAD_DAMAGED), nothing stored. Where the reference commits, requireFlushed() guards
 * synchronously, so a surface that forgot to wait is refused rather than let through.
 */
import type { CoreDeps } from "./deps";
import { DomainError } from "./errors";
import { storeError } from "./media-types";
import { MediaDamaged } from "../store/media";

/**
 * Resolves once the bytes of each of the person's uploads named (`uploadIds`, by their
 * position in a message's `attachments`; undefined for an entry that is no upload) are
 * flushed, or answers null when they all are already, so a message that waits for
 * nothing is not made to. Damaged bytes are refused at `attachments[i].upload_id`.
 * Anything else (a slot not the person's, one without bytes) is left for the send to refuse.
 */
export function flushedUploads(d: CoreDeps, actorId: string, uploadIds: readonly (string | undefined)[]): Promise<void> | null {
  const slot = d.store.db.query("SELECT owner_id, sha256 FROM uploads WHERE id = ?");
  const waits: Promise<void>[] = [];
  uploadIds.forEach((id, i) => {
    const u = id === undefined ? null : (slot.get(id) as { owner_id: string; sha256: string | null } | null);
    if (u?.owner_id === actorId && u.sha256 && !d.media.store.settled(u.sha256))
      waits.push(settleBlob(d, u.sha256, `attachments[${i}].upload_id`));
  });
  return waits.length ? Promise.all(waits).then(() => {}) : null;
}

/** A blob's bytes flushed and known whole; torn or gone, refused at `path` (UPLOAD_DAMAGED) and forgotten. */
export async function settleBlob(d: CoreDeps, sha256: string, path: string): Promise<void> {
  try {
    await d.media.store.settle(sha256);
  } catch (e) {
    if (!(e instanceof MediaDamaged)) throw storeError(e, 0);
    forgetDamaged(d, sha256);
    throw DomainError.invalid(
      path,
      "The server lost this file's bytes before they were saved (a crash); upload the file again",
      "UPLOAD_DAMAGED",
    );
  }
}

/** The guard where a reference to an upload's bytes commits (synchronous, inside the write). */
export function requireFlushed(d: CoreDeps, sha256: string, path: string): void {
  if (!d.media.store.settled(sha256)) throw notReady(path);
}

/**
 * A slot's hash where a reference to its bytes commits: refused when it has none (never
 * filled), or they are still being placed (core/media-place.ts) or flushed.
 */
export function requireSlotBytes(d: CoreDeps, slot: { sha256: string | null; size: number | null }, path: string): string {
  if (!slot.sha256) {
    if (slot.size !== null) throw notReady(path);
    throw DomainError.invalid(path, "This upload has no file yet", "UPLOAD_EMPTY");
  }
  requireFlushed(d, slot.sha256, path);
  return slot.sha256;
}

function notReady(path: string): DomainError {
  return DomainError.invalid(path, "This upload's file is still being saved; send it again", "UPLOAD_NOT_READY");
}

/**
 * Bytes found torn or gone (the store has removed the file): every slot naming them is
 * emptied, to be filled again, and their row goes unless something else names them.
 */
function forgetDamaged(d: CoreDeps, sha256: string): void {
  d.store.write(() => {
    d.store.db.query("UPDATE uploads SET sha256 = NULL, size = NULL WHERE sha256 = ?").run(sha256);
    d.store.db.query("DELETE FROM media_blobs WHERE sha256 = ? AND sha256 NOT IN (SELECT sha256 FROM media_refs)").run(sha256);
  });
}
