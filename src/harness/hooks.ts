/**
 * The pipeline's and the gateway's hook points as the harness sees them: structurally
 * the same as botapi/hooks.ts and gateway/context.ts, declared here because a surface
 * does not import another; the composition root puts the harness's hooks in their lists.
 */

/** A bot API request as the harness's hooks see it (the pipeline's RequestInfo, botapi/hooks.ts). */
export interface HookRequest {
  method: string;
  /** The route template under /api/v10, e.g. "/channels/{channel_id}/messages"; "/*" when no route matched. */
  template: string;
  /** When no route matched (the 501 fallback): the path asked, under /api/v10. */
  path?: string;
  params: Record<string, string>;
  /** The authenticated application (internal id); null on token-less routes. */
  appId: string | null;
  body(): unknown;
  /** Read and parse the body now (undefined when it cannot be), for an answer given instead of the route. */
  read?(): Promise<unknown>;
}

/** A bot API answer as the harness's hooks see it (botapi/hooks.ts Answer). */
export interface HookAnswer {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
  /** The armed fault that gave this answer instead of the route (faults.ts), for the transcript. */
  fault?: string;
}

/** A gateway session as the harness's hooks see it (gateway/context.ts SessionRef). */
export interface HookSession {
  readonly id: string;
  /** The application's internal id and its snowflake. */
  readonly owner: { readonly appId: string; readonly appFlake: string };
}

/** The harness's request hooks (structurally botapi/hooks.ts RequestHooks). */
export interface HarnessRequestHooks {
  intercept?(r: HookRequest): HookAnswer | null | Promise<HookAnswer | null>;
  answered?(r: HookRequest, a: HookAnswer): void;
}

/** The harness's gateway hooks (structurally gateway/context.ts GatewayHooks). */
export interface HarnessGatewayHooks {
  dispatched?(s: HookSession, frame: string): void;
  sent?(connId: number, s: HookSession | null, frame: string): void;
  received?(connId: number, s: HookSession | null, raw: string): void;
  attached?(connId: number, s: HookSession): void;
  closed?(connId: number): void;
  acknowledge?(s: HookSession | null): boolean;
}

/**
 * The bot API's rate-limit headers for a route (spec 8.1 rule 4), for answers a fault
 * gives instead of the route: `remaining` and `resetAfterMs` default to a fresh window.
 */
export type LimitHeaders = (
  method: string,
  template: string,
  window: { remaining?: number; resetAfterMs?: number },
) => Record<string, string>;
