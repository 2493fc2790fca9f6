/** The pipeline's hook points (wire/pipeline.ts calls them; the composition root sets them per door). */

/** One request as the pipeline's hooks see it. */
export interface RequestInfo {
  /** Which door it came through. */
  surface: "bot" | "people" | "harness" | "ops" | "none";
  /** A route's method; any method at all when no route matched. */
  method: string;
  /** The route template under the door's prefix, e.g. "/channels/{channel_id}/messages"; "/*" when no route matched. */
  template: string;
  /** The full template, prefix included (logs and metrics label requests by it). */
  route: string;
  /** When no route matched (the bot API's 501 fallback): the path asked, under the prefix. */
  path?: string;
  params: Record<string, string>;
  /** The authenticated application (internal id), once known; null for token-less routes. */
  appId: string | null;
  botUserId: string | null;
  /** The signed-in person (internal id) of a people's API request. */
  personId: string | null;
  /** The request body as parsed, if the handler read it. */
  body(): unknown;
  /** Read and parse the body now (undefined when it cannot be): a hook that answers instead of the handler can still show what was sent. */
  read(): Promise<unknown>;
}

/** What a request answered, before it is written out. */
export interface Answer {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
  /** An answer made whole by its handler (an image, a page, metrics text): written out as it is. */
  raw?: Response;
}

/**
 * Observers and interceptors of the pipeline, set by the composition root: the harness's
 * faults and transcripts (the bot API's door only), the operator's logs and metrics.
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
