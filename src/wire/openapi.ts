/**
 * What a surface says about its routes for the API description (served by src/ops at
 * /api/openapi.json): a fragment per door, read off its route declarations (wire/route.ts),
 * so each body is the very TypeBox schema the route validates with; the composition root
 * merges them. TypeBox schemas are JSON Schema, which OpenAPI 3.1 takes as they are.
 */
import type { TSchema } from "@sinclair/typebox";
import type { Route } from "./route";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiOperation {
  method: HttpMethod;
  /** The full path with `{name}` parameters, e.g. /api/client/v1/channels/{channel_id}/messages. */
  path: string;
  summary: string;
  /** The request body's schema, as the route validates it. */
  body?: TSchema;
  /** The body may be left out (the route reads an empty body as no options). */
  bodyOptional?: boolean;
  /** The query parameters the route reads (an object schema: one parameter per property). */
  query?: TSchema;
  /** Which credential the route takes: a bot token, a person's session, or none (or one in the path). */
  auth: "bot" | "session" | "none";
  /** What a success answers, when one shape is sure: JSON, nothing (204), text or an image; else "JSON or 204". */
  answers?: "json" | "empty" | "text" | "image";
  /** The success's JSON schema, when the route declares one. */
  answer?: TSchema;
}

export interface ApiFragment {
  tag: string;
  description: string;
  operations: ApiOperation[];
}

/** Elysia's `:name` path as an OpenAPI `{name}` template. */
export const templateOf = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** A surface's fragment: one operation per declared route (the first of any two with one method and path). */
export function fragmentOf(about: { tag: string; description: string }, doors: { prefix: string; routes: Route[] }[]): ApiFragment {
  const seen = new Set<string>();
  const operations: ApiOperation[] = [];
  for (const { prefix, routes } of doors)
    for (const r of routes) {
      const key = `${r.method} ${prefix}${r.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      operations.push({
        method: r.method,
        path: prefix + r.path,
        summary: r.summary,
        // A refused route ("any") asks for nothing; a token in the path is no header.
        auth: r.caller === "bot" ? "bot" : r.caller === "session" ? "session" : "none",
        ...(r.body ? { body: r.body, bodyOptional: r.bodyOptional === true } : {}),
        ...(r.query ? { query: r.query } : {}),
        ...(r.answers ? { answers: r.answers } : {}),
        ...(r.answer ? { answers: "json" as const, answer: r.answer } : {}),
      });
    }
  return { ...about, operations };
}
