/**
 * The API description: an OpenAPI 3.1 document merged from the surfaces' fragments
 * (each built from the TypeBox schemas its routes validate with), served at
 * /api/openapi.json, and a reference page at /api/docs drawn by Scalar's prebuilt
 * standalone script, which is embedded in the executable: no CDN, works offline.
 */
import { createHash } from "node:crypto";
import type { TSchema } from "@sinclair/typebox";
import type { ApiFragment, ApiOperation } from "../wire/openapi";
import type { Route } from "../wire/route";
import { route, type OpsContext } from "./index";
import type * as Scalar from "./scalar";

const ERROR = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "integer", description: "0, or the spec's error code (50035: invalid body, 10003: unknown, 50001: missing access, ...)" },
    message: { type: "string" },
    errors: {
      type: "object",
      description: "For 50035: the offending fields, nested the reference platform's way",
      additionalProperties: true,
    },
    retry_after: { type: "number", description: "For 429: seconds to wait" },
    global: { type: "boolean", description: "For 429: whether the global window was hit" },
  },
};

/** A TypeBox schema as plain JSON Schema: symbols dropped; recursive parts become open schemas. */
export function jsonSchema(s: TSchema): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    if (typeof o.$ref === "string") return {};
    // TypeBox's own kinds that JSON Schema lacks.
    if (o.type === "undefined" || o.type === "Uint8Array") return { not: {} };
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) if (k !== "$id") out[k] = strip(x);
    return out;
  };
  return strip(JSON.parse(JSON.stringify(s))) as Record<string, unknown>;
}

function operationId(op: ApiOperation, tag: string): string {
  const words = op.path
    .replace(/^\/api\/(v10|client\/v1|harness\/v1)/, "")
    .split("/")
    .filter(Boolean)
    .map((w) => w.replace(/[{}@]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : "")));
  return `${tag}_${op.method.toLowerCase()}_${words.join("_") || "root"}`;
}

function operation(op: ApiOperation, tag: string) {
  const params: Record<string, unknown>[] = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  params.push(...queryParameters(op.query));
  const success =
    op.answers === "empty"
      ? { "204": { description: "Done, no content" } }
      : op.answers
        ? {
            "200": {
              description: "Success",
              content: {
                [op.answers === "text" ? "text/plain" : op.answers === "image" ? "image/*" : "application/json"]: {
                  schema: op.answer ? jsonSchema(op.answer) : {},
                },
              },
            },
          }
        : { "2XX": { description: "Success: JSON (200, 201), or 204 with no body", content: { "application/json": { schema: {} } } } };
  return {
    operationId: operationId(op, tag),
    tags: [tag],
    summary: op.summary,
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: !op.bodyOptional, content: { "application/json": { schema: jsonSchema(op.body) } } } } : {}),
    ...(op.auth === "bot" ? { security: [{ bot: [] }] } : op.auth === "session" ? { security: [{ session: [] }] } : { security: [] }),
    responses: {
      ...success,
      default: {
        description: "An error: the spec's error body",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    },
  };
}

/** A query schema (an object) as one OpenAPI parameter per property. */
function queryParameters(query: TSchema | undefined): Record<string, unknown>[] {
  if (!query) return [];
  const q = jsonSchema(query) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(q.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: (q.required ?? []).includes(name),
    schema,
  }));
}

/** Merge the fragments into one OpenAPI 3.1 document. */
export function openApiDocument(fragments: ApiFragment[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const f of fragments) for (const op of f.operations) (paths[op.path] ??= {})[op.method.toLowerCase()] = operation(op, f.tag);
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley",
      version,
      description:
        "A self-hosted chat service: the bot API (the reference platform's v10 dialect, REST under /api/v10, plus a WebSocket gateway at /gateway that this document does not describe), the people's API (/api/client/v1), the test harness (/api/harness/v1, test mode only) and the operator's endpoints.",
    },
    tags: fragments.map((f) => ({ name: f.tag, description: f.description })),
    components: {
      securitySchemes: {
        bot: { type: "apiKey", in: "header", name: "Authorization", description: "`Bot <token>`" },
        session: { type: "apiKey", in: "header", name: "Authorization", description: "`Session <token>` from /api/client/v1/auth/signin" },
      },
      schemas: { Error: ERROR },
    },
    paths,
  };
}

/**
 * Scalar reads localStorage as it starts, and in the sandbox (an opaque origin) that
 * throws: it gets a store of its own instead, which lives as long as the page.
 */
const MEMORY_STORAGE = `(() => {
  const store = () => {
    const m = new Map();
    return { get length() { return m.size; }, key: (i) => [...m.keys()][i] ?? null, getItem: (k) => (m.has(String(k)) ? m.get(String(k)) : null),
      setItem: (k, v) => void m.set(String(k), String(v)), removeItem: (k) => void m.delete(String(k)), clear: () => m.clear() };
  };
  for (const name of ["localStorage", "sessionStorage"]) Object.defineProperty(window, name, { value: store(), configurable: true });
})();`;

/** The document is in the page: the sandbox may not fetch it (connect-src 'none'), nor anything else. */
const START = `Scalar.createApiReference("#app", { content: JSON.parse(document.getElementById("api-document").textContent), withDefaultFonts: false, hideClientButton: true, agent: { disabled: true }, showDeveloperTools: "never", telemetry: false });`;

const hash = (code: string) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`;

/**
 * The reference page runs a large third-party bundle, so it runs apart from the rest of
 * the origin (docs/security.md, finding 9): a sandbox without allow-same-origin gives it
 * an opaque origin, so it can read none of the origin's storage (a person's session
 * token) and its requests carry none of it; it may run only its own two scripts and the
 * bundle, connect nowhere, and be framed by nobody. Its "test request" client is hidden:
 * from the sandbox it could not reach the API anyway.
 */
const DOCS_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": [
    "sandbox allow-scripts",
    "default-src 'none'",
    `script-src 'self' ${hash(MEMORY_STORAGE)} ${hash(START)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; "),
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

function page(document: string): string {
  // "<" escaped: no text in the document can end its script element.
  const data = document.replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Parley API reference</title></head>
<body>
<div id="app"></div>
<script id="api-document" type="application/json">${data}</script>
<script>${MEMORY_STORAGE}</script>
<script src="/api/docs/scalar.js"></script>
<script>${START}</script>
</body>
</html>`;
}

/**
 * /api/openapi.json and the reference page at /api/docs, on the operator's door. The
 * document is built once, on first request, from the fragments the composition root
 * reads off every door's declarations (the harness's in test mode only).
 */
export function apiDescriptionRoutes(fragments: () => ApiFragment[]): Route<OpsContext>[] {
  let doc: string | null = null;
  let html: string | null = null;
  const documentText = (version: string) => (doc ??= JSON.stringify(openApiDocument(fragments(), version)));
  return [
    route({
      method: "GET",
      path: "/api/openapi.json",
      caller: "none",
      summary: "This document",
      answers: "json",
      handler: ({ ctx }) =>
        new Response(documentText(ctx.version), { headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" } }),
    }),
    route({
      method: "GET",
      path: "/api/docs",
      caller: "none",
      summary: "The API reference page (works offline)",
      answers: "text",
      handler: ({ ctx }) =>
        new Response((html ??= page(documentText(ctx.version))), {
          headers: { ...DOCS_HEADERS, "Content-Type": "text/html; charset=utf-8" },
        }),
    }),
    route({
      method: "GET",
      path: "/api/docs/scalar.js",
      caller: "none",
      summary: "The reference page's script",
      answers: "text",
      handler: () => {
        let file: string;
        try {
          file = (require("./scalar") as typeof Scalar).SCALAR_JS;
        } catch {
          return new Response(
            JSON.stringify({ code: 0, message: "The reference page needs @scalar/api-reference (npm install in a clone)" }),
            {
              status: 404,
              headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" },
            },
          );
        }
        return new Response(Bun.file(file), {
          headers: { ...DOCS_HEADERS, "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
        });
      },
    }),
  ];
}

/** The operator's part of the description: what its declarations say. */
export const OPS_DESCRIPTION = { tag: "ops", description: "The operator's endpoints: health, readiness, metrics, this description." };
