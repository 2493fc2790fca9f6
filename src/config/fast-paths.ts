/**
 * Every cache and fast path Parley keeps for speed has a switch here, on by default, so
 * the plain path stays the reference: a test runs the same session with a switch off and
 * compares every answer and frame. Not a command-line flag: tests set them with
 * `testConfig({ fastPaths: {...} })`, benches to measure what each is worth. The
 * composition root hands each part its own switch.
 */
export interface FastPaths {
  /** Off: every answer goes through a promise, even one with nothing to wait for (wire/pipeline.ts). */
  syncAnswers: boolean;
  /** Off: Bun's router matches no API route; every request goes through the Elysia app (lifecycle.ts, wire/mount.ts). */
  nativeRouter: boolean;
  /** Off: every bot token header is decoded again on every request (wire/tokens.ts), and every token's digest computed again (core/applications.ts). */
  tokenMemo: boolean;
  /** Off: each bot API request commits alone instead of sharing its turn's commit (wire/pipeline.ts). */
  groupCommit: boolean;
  /** Off: every read the core keeps in memory (users, guilds, members, roles, channels, permissions, applications, recent messages) is read again (core/memo.ts). */
  memo: boolean;
  /** Off: other writers are looked for with PRAGMA data_version on every look, not through the WAL index header once per turn (store/changes.ts). */
  walHeader: boolean;
  /** Off: GUILD_CREATE bodies are serialized for every session that is sent one (gateway/caches.ts). */
  guildCreateCache: boolean;
  /** Off: which bots with sessions a guild has is worked out for every delivery (gateway/caches.ts). */
  guildBots: boolean;
  /** Off: every delivery visits every session, no remembered fan-out plan (gateway/fanout.ts, plans.ts). */
  plans: boolean;
  /** Off: each session is its own cohort, sent its own frames (gateway/cohorts.ts). */
  cohorts: boolean;
  /** Off: each member of a cohort records its frames in its own ring (gateway/cohorts.ts, session.ts). */
  cohortRings: boolean;
  /** Off: every snowflake is looked up in the id map's table, none kept in memory (wire/snowflakes.ts). */
  snowflakeCache: boolean;
  /** Off: a message dispatch is serialized once per session, not once per view (gateway/dispatch-messages.ts). */
  messageViews: boolean;
  /** Off: files' SHA-256 is computed on the event loop as their bytes arrive, not in the media store's worker thread (store/media-hash.ts). */
  hashWorker: boolean;
  /** Off: an upload is answered only once its bytes are flushed to disk, not once they are written and named; what names it waits for the flush either way (core/media.ts, store/media-flush.ts). */
  flushBehind: boolean;
  /** Off: an upload is answered only once its bytes are hashed and under their hash, not once they are written; what names it waits for that either way (core/media-place.ts). Needs flushBehind. */
  placeBehind: boolean;
}

export const ALL_FAST_PATHS: Readonly<FastPaths> = Object.freeze({
  syncAnswers: true,
  nativeRouter: true,
  tokenMemo: true,
  groupCommit: true,
  memo: true,
  walHeader: true,
  guildCreateCache: true,
  guildBots: true,
  plans: true,
  cohorts: true,
  cohortRings: true,
  snowflakeCache: true,
  messageViews: true,
  hashWorker: true,
  flushBehind: true,
  placeBehind: true,
});

/** The defaults: every switch on. */
export const DEFAULT_FAST_PATHS: Readonly<FastPaths> = ALL_FAST_PATHS;

/** The defaults with some switches changed (tests: `testConfig({ fastPaths: { memo: false } })`). */
export function fastPathsOf(overrides: Partial<FastPaths> = {}): FastPaths {
  return { ...DEFAULT_FAST_PATHS, ...overrides };
}
