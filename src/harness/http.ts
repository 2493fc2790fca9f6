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

/** Wrap a handler: its result is the JSON answer (undefined means 204); errors map once. */
export function handler<C>(fn: (ctx: C) => unknown | Promise<unknown>) {
  return async (ctx: C): Promise<Response> => {
    try {
      const out = await fn(ctx);
      if (out instanceof Response) return out;
      return out === undefined ? new Response(null, { status: 204 }) : jsonResponse(200, out);
    } catch (e) {
      const { status, body } = errorToStatusBody(e);
      return jsonResponse(status, body);
    }
  };
}
