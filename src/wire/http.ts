/**
 * Answers in the shape every surface shares: JSON bodies with a Content-Type of exactly
 * `application/json` (discord.py parses nothing else), and errors through the one mapping.
 */
import { errorToStatusBody } from "./errors";

const JSON_TYPE = "application/json";

/**
 * Every JSON body says nosniff: a browser never takes an answer (which may echo what a
 * request sent) for a script, a style sheet or a page (docs/security.md, finding 9).
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": JSON_TYPE, "X-Content-Type-Options": "nosniff" },
  });
}

/** jsonResponse for a headers object the caller made for this answer alone: the headers are set on it, not on a copy. */
export function jsonResponseOwningHeaders(status: number, body: unknown, headers: Record<string, string>): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  headers["Content-Type"] = JSON_TYPE;
  headers["X-Content-Type-Options"] = "nosniff";
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * A refusal as the spec's body, through the one mapping: the first look's answers
 * (wire/screen.ts), given before any route runs. Bugs never come here: the pipeline
 * reports them to the operator's log with the route they broke.
 */
export function errorResponse(e: unknown, headers: Record<string, string> = {}): Response {
  const { status, body, headers: own } = errorToStatusBody(e);
  return jsonResponse(status, body, { ...headers, ...own });
}
