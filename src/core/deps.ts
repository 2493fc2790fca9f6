import type { Clock } from "./clock";
import type { IdGenerator } from "./ids";
import type { Store } from "../store/db";
import type { EventBus, DomainEvent } from "./events";
import type { Passwords, Sealer } from "./crypto";
import type { SearchIndex } from "./search-index";
import type { MediaStore } from "../store/media";

/** What every core service is built from; passed explicitly by the composition root. */
export interface CoreDeps {
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  bus: EventBus;
  /** Seals the secrets the server must show again (webhook tokens). */
  sealer: Sealer;
  /** Hashes and checks people's passwords at the cost the root gives (config.passwordCost). */
  passwords: Passwords;
  /** The core's fast paths (config/fast-paths.ts), each on unless the root says otherwise. */
  fastPaths: CoreFastPaths;
  /** The search index, told of every message written, changed or removed in the same transaction (core/search-index.ts). */
  search: SearchIndex;
  /** Where files' bytes live, and the limits on them (core/media.ts). */
  media: { store: MediaStore; limits: MediaLimits };
  /** A message just inserted, inside its write: the root pairs its id with its number there (createCore's `numberNew`). */
  numberNew: (id: string, position: number | null) => void;
}

/**
 * Limits on files (config `media.*`, docs/operations.md): the reference's where it has
 * one (10 MiB a file on its default tier, 10 files a message, 256 KiB an emoji, links
 * valid 24 hours), Parley's own elsewhere. The core does not import config: the root
 * passes config.media, which has these.
 */
export interface MediaLimits {
  maxFileBytes: number;
  filesPerMessage: number;
  /** What a person's attachments and pending uploads may hold in all; 0: no limit. */
  perPersonBytes: number;
  emojiBytes: number;
  /** Avatars and server icons. */
  avatarBytes: number;
  /** Images with more pixels are downloads, not previews. */
  previewPixels: number;
  /** How long a signed attachment link works. */
  urlTtlMs: number;
  /** How long unreferenced bytes stay before the collector removes them. */
  graceMs: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  filesPerMessage: 10,
  perPersonBytes: 2 * 1024 * 1024 * 1024,
  emojiBytes: 256 * 1024,
  avatarBytes: 8 * 1024 * 1024,
  previewPixels: 40_000_000,
  urlTtlMs: 24 * 3600_000,
  graceMs: 24 * 3600_000,
};

/** The switches of config/fast-paths.ts the core honours (the core does not import config: the root passes its FastPaths, which has these). */
export interface CoreFastPaths {
  /** Off: every Memo get loads (core/memo.ts). */
  memo: boolean;
  /** Off: a bot token's digest is computed on every request, not kept per secret once verified (core/applications.ts). */
  tokenMemo: boolean;
  /** Off: an upload is answered once its bytes are flushed, not once they are written and named (core/media.ts). */
  flushBehind: boolean;
  /** Off: an upload is answered once its bytes are hashed and placed, not once they are written (core/media-place.ts). Needs flushBehind. */
  placeBehind: boolean;
}

export function emit(deps: CoreDeps, e: DomainEvent): void {
  deps.store.emit(e);
}
