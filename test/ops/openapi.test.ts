/**
 * The API description: a valid OpenAPI 3.1 document (checked by @readme/openapi-parser),
 * every registered route in it and nothing else, bodies from the very schemas the routes
 * validate with, and an offline reference page.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { validate } from "@readme/openapi-parser";
import { makeParley, ORIGIN } from "../helpers";
import type { Parley } from "../../src/app";
import { jsonSchema } from "../../src/ops/openapi";
import { SendMessage } from "../../src/contract";
import { MessageBodySchema } from "../../src/botapi/schemas/message";
import { SayBody } from "../../src/harness/people";

const parleys: Parley[] = [];
afterAll(async () => {
  for (const p of parleys) await p.stop();
});

async function documentOf(harness: boolean): Promise<{ p: Parley; doc: any }> {
  const p = makeParley({ harness });
  parleys.push(p);
  const r = await p.handle(new Request(`${ORIGIN}/api/openapi.json`));
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("application/json");
  return { p, doc: await r.json() };
}

/** Every route Elysia serves, as "METHOD /template" (the bot API's 501 catch-alls aside). */
function registered(p: Parley): string[] {
  return p.http.routes
    .filter((r: { method: string; path: string }) => r.method !== "ALL" && !r.path.endsWith("*"))
    .map((r: { method: string; path: string }) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`)
    .sort();
}

function described(doc: any): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe("/api/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const { doc } = await documentOf(true);
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  test("describes every registered route, and only those (test mode and not)", async () => {
    for (const harness of [true, false]) {
      const { p, doc } = await documentOf(harness);
      expect(described(doc)).toEqual([...new Set(registered(p))].sort());
      expect(described(doc).some((r) => r.includes("/api/harness/"))).toBe(harness);
    }
  });

  test("request bodies are the schemas the routes validate with", async () => {
    const { doc } = await documentOf(true);
    const body = (path: string, method: string) => doc.paths[path][method].requestBody.content["application/json"].schema;
    expect(body("/api/client/v1/channels/{channel_id}/messages", "post")).toEqual(jsonSchema(SendMessage));
    expect(body("/api/v10/channels/{channel_id}/messages", "post")).toEqual(jsonSchema(MessageBodySchema));
    expect(body("/api/harness/v1/users/{user}/messages", "post")).toEqual(jsonSchema(SayBody));
    expect(body("/api/v10/channels/{channel_id}/messages", "post").properties.content.maxLength).toBe(2000);
    expect(doc.paths["/api/v10/users/@me"].get.security).toEqual([{ bot: [] }]);
    expect(doc.paths["/api/client/v1/users/@me"].get.security).toEqual([{ session: [] }]);
  });
});

describe("read off the route declarations", () => {
  test("every declared route has a summary of its own and is in the document under its door's prefix", async () => {
    const { p, doc } = await documentOf(false);
    for (const { prefix, routes } of p.routes)
      for (const r of routes) {
        const op = doc.paths[prefix + r.path]?.[r.method.toLowerCase()];
        expect({ route: `${r.method} ${r.path}`, summary: op?.summary }).toEqual({ route: `${r.method} ${r.path}`, summary: r.summary });
        expect(r.summary.length).toBeGreaterThan(3);
        expect(r.summary).not.toBe(`${r.method} ${r.path}`);
      }
  });

  test("query parameters come from the declared query schema; path parameters from the template", async () => {
    const { doc } = await documentOf(false);
    const history = doc.paths["/api/v10/channels/{channel_id}/messages"].get.parameters;
    expect(history.map((x: any) => `${x.in}:${x.name}`)).toEqual([
      "path:channel_id",
      "query:limit",
      "query:around",
      "query:before",
      "query:after",
    ]);
    expect(history.find((x: any) => x.name === "limit").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
  });
});

describe("/api/docs", () => {
  test("an offline reference page: its script is served from here, nothing from elsewhere", async () => {
    const { p } = await documentOf(false);
    const page = await p.handle(new Request(`${ORIGIN}/api/docs`));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="/api/docs/scalar.js">');
    // The document is in the page (the sandbox fetches nothing), the same as /api/openapi.json.
    const data = /<script id="api-document" type="application\/json">([^<]*)<\/script>/.exec(html);
    expect(data).not.toBeNull();
    const served = await (await p.handle(new Request(`${ORIGIN}/api/openapi.json`))).json();
    expect(JSON.parse(data![1])).toEqual(served);
    expect(html.replace(data![0], "")).not.toMatch(/https?:\/\//);
    // Confined: a sandbox without same-origin, inline code only by its hash, no framing.
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("sandbox allow-scripts;");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain("unsafe");
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map(
      (m) => `'sha256-${new Bun.CryptoHasher("sha256").update(m[1]).digest("base64")}'`,
    );
    expect(inline.length).toBe(2);
    for (const h of inline) expect(/script-src ([^;]*)/.exec(csp)![1]).toContain(h);
    const js = await p.handle(new Request(`${ORIGIN}/api/docs/scalar.js`));
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});
