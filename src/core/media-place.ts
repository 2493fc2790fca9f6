/**
 * Uploads hashed and placed behind their answer (issue 31, the `placeBehind` fast path).
 * A slot's bytes are answered for once written (core/media.ts, receive()): the slot's
 * row then has its size and no hash yet, and its bytes wait under the slot's name
 * (store/media.ts, receive()). Here they are hashed, moved under their hash and named by
 * the slot's row, in one synchronous step as any staged file is (Media.commitStaged),
 * started at once by the process that received them.
 *
 * Whatever names a slot for good (a message, a command's file, an avatar, an icon, an
 * emoji) waits for that first (placed()), then for the flush (core/media-flush.ts). A
 * process that did not receive the bytes (it restarted: a kill -9 loses nothing that was
 * written; another node on a shared media directory) places them itself when they are
 * named. Two nodes doing so at once both hash; one moves the file and commits, the other
 * finds the row named, or the file gone and waits a moment for the first one's commit.
 * Bytes really gone are reported as a damaged upload (UPLOAD_DAMAGED), the slot emptied
 * to be filled again, as torn bytes are.
 */
import type { CoreDeps } from "./deps";
import type { MediaBlob } from "./models";
import { DomainError } from "./errors";
import { storeError, type Sniffed } from "./media-types";
import { MediaDamaged, type Staged } from "../store/media";

/** How long a node waits for another to commit the bytes it moved (a shared media directory). */
const OTHER_NODE_MS = 5_000;
const POLL_MS = 25;

/** What placing needs of Media: judging staged bytes, and committing them under a row. */
export interface PlaceSteps {
  sniff(staged: Staged): Promise<Sniffed>;
  commit(staged: Staged, sniffed: Sniffed): MediaBlob;
}

interface SlotState {
  owner_id: string;
  sha256: string | null;
  size: number | null;
}

export class Placements {
  /** Slots this process is placing: whoever names one waits for the same promise. */
  private readonly placing = new Map<string, Promise<void>>();

  constructor(
    private readonly d: CoreDeps,
    private readonly steps: PlaceSteps,
  ) {}

  /** Place a slot's bytes just received (judged already when `sniffed` is given); nobody need wait for it. */
  start(uploadId: string, sniffed: Sniffed | null): void {
    this.begin(uploadId, sniffed).catch(() => {
      // Whoever names the slot hears of it (placed() places it again, or finds it emptied).
    });
  }

  /**
   * Resolves once the slot's bytes are under their hash and its row names them (at once
   * for a slot without received bytes). Bytes lost: UPLOAD_DAMAGED at `path`.
   */
  async placed(uploadId: string, path: string): Promise<void> {
    try {
      await this.begin(uploadId, null);
    } catch (e) {
      if (e instanceof MediaDamaged) throw damaged(path);
      throw e instanceof DomainError ? e : storeError(e, 0);
    }
  }

  /**
   * The person's slots among `uploadIds` (a message's `attachments`, by position) whose
   * bytes are received and not yet placed, placed; null when there are none.
   */
  pending(actorId: string, uploadIds: readonly (string | undefined)[]): Promise<void> | null {
    const waits: Promise<void>[] = [];
    uploadIds.forEach((id, i) => {
      const s = id === undefined ? null : this.state(id);
      if (s?.owner_id === actorId && s.sha256 === null && s.size !== null) waits.push(this.placed(id!, `attachments[${i}].upload_id`));
    });
    return waits.length ? Promise.all(waits).then(() => {}) : null;
  }

  private state(uploadId: string): SlotState | null {
    return this.d.store.db.query("SELECT owner_id, sha256, size FROM uploads WHERE id = ?").get(uploadId) as SlotState | null;
  }

  private begin(uploadId: string, sniffed: Sniffed | null): Promise<void> {
    let p = this.placing.get(uploadId);
    if (!p) {
      const s = this.state(uploadId);
      if (!s || s.sha256 !== null || s.size === null) return Promise.resolve();
      p = this.place(uploadId, sniffed).finally(() => this.placing.delete(uploadId));
      this.placing.set(uploadId, p);
    }
    return p;
  }

  private async place(uploadId: string, known: Sniffed | null): Promise<void> {
    let staged: Staged;
    try {
      staged = await this.d.media.store.stageReceived(uploadId);
    } catch (e) {
      if (e instanceof MediaDamaged) return this.gone(uploadId);
      throw e;
    }
    let sniffed: Sniffed;
    try {
      sniffed = known ?? (await this.steps.sniff(staged));
    } catch (e) {
      staged.discard();
      throw e;
    }
    // One synchronous step from here, as receive() took it before: the row is looked at, the bytes go in place, the row names them.
    const s = this.state(uploadId);
    if (!s || s.sha256 !== null || s.size === null) return staged.discard();
    try {
      this.d.store.write(() => {
        this.steps.commit(staged, sniffed);
        this.d.store.db.query("UPDATE uploads SET sha256 = ? WHERE id = ? AND sha256 IS NULL").run(staged.sha256, uploadId);
      });
    } catch (e) {
      // Another node may have moved the same received file first: its commit names the slot.
      return this.gone(uploadId, e);
    }
  }

  /**
   * The received file is not there, or could not be moved (`cause`): placed by another
   * node (its row names it, now or in a moment), or lost. Lost, the slot is emptied and
   * the bytes reported damaged; a failure of this process's own is thrown as it is.
   */
  private async gone(uploadId: string, cause?: unknown): Promise<void> {
    // Real time, not the core's clock (a test's may stand still): another process is being waited for.
    const polls = this.d.media.store.shared ? OTHER_NODE_MS / POLL_MS : 0;
    for (let i = 0; ; i++) {
      const s = this.state(uploadId);
      if (!s || s.sha256 !== null || s.size === null) return;
      if (i >= polls) break;
      await Bun.sleep(POLL_MS);
    }
    if (cause !== undefined) throw cause;
    this.d.store.write(() => {
      this.d.store.db.query("UPDATE uploads SET size = NULL WHERE id = ? AND sha256 IS NULL").run(uploadId);
    });
    throw new MediaDamaged(uploadId, "missing");
  }
}

function damaged(path: string): DomainError {
  return DomainError.invalid(
    path,
    "The server lost this file's bytes before they were saved (a crash); upload the file again",
    "UPLOAD_DAMAGED",
  );
}
