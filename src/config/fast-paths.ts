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
  /** Off: every bot token header is decoded again on every request (wire/tokens.ts). */
  tokenMemo: boolean;
  /** Off: each bot API request commits alone instead of sharing its turn's commit (wire/pipeline.ts). */
  groupCommit: boolean;
}

export const DEFAULT_FAST_PATHS: Readonly<FastPaths> = Object.freeze({
  syncAnswers: true,
  nativeRouter: true,
  tokenMemo: true,
  groupCommit: true,
});

/** The defaults with some switches changed (tests: `testConfig({ fastPaths: { memo: false } })`). */
export function fastPathsOf(overrides: Partial<FastPaths> = {}): FastPaths {
  return { ...DEFAULT_FAST_PATHS, ...overrides };
}
