/** The request pipeline's hook points (http.ts calls them; app.ts sets them). */

/** One bot API request as the pipeline's hooks see it. */
export interface RequestInfo {
  /** A route's method; any method at all when no route matched. */
  method: string;
  /** The route template under /api/v10, e.g. "/channels/{channel_id}/messages"; "/*" when no route matched. */
  template: string;
  /** When no route matched (the 501 fallback): the path asked, under /api/v10. */
  path?: string;
  params: Record<string, string>;
  /** The authenticated application (internal id), once known; null for token-less routes. */
  appId: string | null;
  botUserId: string | null;
  /** The request body as parsed, if the handler read it. */
  body(): unknown;
  /** Read and parse the body now (undefined when it cannot be): a hook that answers instead of the handler can still show what was sent. */
  read(): Promise<unknown>;
}

/** What a bot API request answered, before it is written out. */
export interface Answer {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
}

/**
 * Observers and interceptors of the pipeline, set by the composition root: the harness's
 * faults and transcripts, the operator's logs and metrics.
 */
export interface RequestHooks {
  /**
   * After authentication, before rate limits and the handler: an answer to give instead
   * (a fault), or nothing to carry on (after any delay the hook awaits).
   */
  intercept?(r: RequestInfo): Answer | null | undefined | Promise<Answer | null | undefined>;
  /** Every answer, with how long it took. */
  answered?(r: RequestInfo, a: Answer, ms: number): void;
}
