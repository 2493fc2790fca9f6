/** The media store's failures (store/media.ts), each leaving nothing behind; the core turns them into its errors (core/media-types.ts). */

/** A body went past its limit while streaming (declared sizes are refused before, by the core). */
export class MediaTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
    this.name = "MediaTooLarge";
  }
}

/** The disk refused: ENOSPC, EDQUOT, EIO, EROFS... (`code` says which). Nothing was kept. */
export class MediaWriteFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "MediaWriteFailed";
  }
}

/** Bytes that do not hash to what an archive said they would. Nothing was kept. */
export class MediaDigestMismatch extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`the bytes hash to ${actual}, not ${expected}`);
    this.name = "MediaDigestMismatch";
  }
}

/** A source stream that failed (a client that went away mid-body). Nothing was kept. */
export class MediaSourceFailed extends Error {
  constructor(readonly cause: unknown) {
    super(`the body ended early: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "MediaSourceFailed";
  }
}

/**
 * A stored file that is not what its hash says (torn: an operating-system crash or a
 * power loss before it was flushed), or is gone. Its file has been removed; whatever
 * names its hash must have its bytes sent again.
 */
export class MediaDamaged extends Error {
  constructor(
    readonly sha256: string,
    readonly how: "torn" | "missing",
  ) {
    super(how === "torn" ? `the stored bytes of ${sha256} do not hash to it` : `the stored bytes of ${sha256} are gone`);
    this.name = "MediaDamaged";
  }
}

/** The disk's failures as MediaWriteFailed; the store's own errors pass as they are. */
export function mediaError(e: unknown): Error {
  if (
    e instanceof MediaTooLarge ||
    e instanceof MediaDigestMismatch ||
    e instanceof MediaSourceFailed ||
    e instanceof MediaWriteFailed ||
    e instanceof MediaDamaged
  )
    return e;
  const code = String((e as { code?: unknown })?.code ?? "");
  if (code) return new MediaWriteFailed(code, (e as Error).message);
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * Since when the disk has refused files for lack of space (ENOSPC, EDQUOT), until a file
 * is written whole again: /readyz lists it under `degraded`, as it lists the database's
 * full disk (store/full.ts). Host time: an operator's notice.
 */
export class FullDiskNote {
  private since: number | null = null;

  /** A failed write: noted when the disk was full. Answers the error. */
  saw(e: Error): Error {
    if (e instanceof MediaWriteFailed && (e.code === "ENOSPC" || e.code === "EDQUOT")) this.since ??= Date.now();
    return e;
  }

  /** A file written whole: there is room again. */
  room(): void {
    this.since = null;
  }

  notices(): string[] {
    return this.since === null ? [] : [`media disk full: uploads are refused (507) since ${new Date(this.since).toISOString()}`];
  }
}
