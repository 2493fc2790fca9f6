/**
 * Request plumbing shared by the harness routes: JSON in (lossless for ids), the
 * spec's error body out, through the bot API's one error mapping.
 */
import type { TSchema, Static } from "@sinclair/typebox";
import { DomainError } from "../core/errors";
import { errorToStatusBody } from "../botapi/errors";
import { jsonResponse } from "../botapi/http";
import { parseJsonLossless } from "../botapi/json";
import { validate } from "../botapi/validation";

export async function readBody<T extends TSchema>(request: Request, schema: T): Promise<Static<T>> {
  const text = await request.text();
  let value: unknown = undefined;
  if (text.trim() !== "") {
    try {
      value = parseJsonLossless(text);
    } catch {
      throw DomainError.invalid("", "The request body contains invalid JSON.", "JSON_INVALID");
    }
  }
  return validate(schema, value);
}

/**
 * Wrap a handler: its result is the JSON answer (undefined means 204); errors map once.
 * The wrapper destructures only request and params: Elysia reads a handler's source to
 * decide what to pre-parse, and a whole-context parameter makes it consume the body
 * before readBody() can (lossless JSON for ids needs the raw text).
 */
export function handler<C extends { request: Request; params: Record<string, string> }>(fn: (ctx: C) => unknown | Promise<unknown>) {
  return async ({ request, params }: { request: Request; params: Record<string, string> }): Promise<Response> => {
    try {
      const out = await fn({ request, params } as C);
      if (out instanceof Response) return out;
      return out === undefined ? new Response(null, { status: 204 }) : jsonResponse(200, out);
    } catch (e) {
      const { status, body } = errorToStatusBody(e);
      return jsonResponse(status, body);
    }
  };
}
