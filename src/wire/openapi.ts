/**
 * What a surface says about its routes for the API description (served by src/ops at
 * /api/openapi.json): each surface exports its own fragment, built from the same TypeBox
 * schemas its routes validate with; the composition root merges them. TypeBox schemas
 * are JSON Schema, which OpenAPI 3.1 takes as they are.
 */
import type { TSchema } from "@sinclair/typebox";

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
  /** Which credential the route takes: a bot token, a person's session, or none (or one in the path). */
  auth: "bot" | "session" | "none";
  /** What a success answers, when one shape is sure: JSON, nothing (204), text or an image; else "JSON or 204". */
  answers?: "json" | "empty" | "text" | "image";
}

export interface ApiFragment {
  tag: string;
  description: string;
  operations: ApiOperation[];
}

/** Elysia's `:name` path as an OpenAPI `{name}` template. */
export const templateOf = (path: string) => path.replace(/:(\w+)/g, "{$1}");
