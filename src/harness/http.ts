/**
 * Request plumbing shared by the harness routes: JSON in (lossless for ids), the
 * spec's error body out, through the bot API's one error mapping.
 */
import { answerJson, errorResponse } from "../wire/http";

export { readBody } from "../wire/validation";

/**
 * Wrap a handler: its result is the JSON answer (undefined means 204); errors map once.
 * The wrapper destructures only request and params: Elysia reads a handler's source to
 * decide what to pre-parse, and a whole-context parameter makes it consume the body
 * before readBody() can (lossless JSON for ids needs the raw text).
 */
export function handler<C extends { request: Request; params: Record<string, string> }>(fn: (ctx: C) => unknown | Promise<unknown>) {
  return async ({ request, params }: { request: Request; params: Record<string, string> }): Promise<Response> => {
    try {
      return answerJson(await fn({ request, params } as C));
    } catch (e) {
      return errorResponse(e);
    }
  };
}
