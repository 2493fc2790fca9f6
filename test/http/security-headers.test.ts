/**
 * Security headers on every page and asset (docs/security.md, finding 9): a real
 * Content-Security-Policy header that forbids framing, X-Frame-Options, nosniff and a
 * Referrer-Policy; the API reference page (a large third-party bundle) confined to a
 * sandbox with its own policy. Unknown web paths answer an HTML page with a link home;
 * API paths keep the spec's JSON (issue 24, item 11). Pages are served by the listening
 * server (Bun's router), so these requests go over a real socket.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Parley } from "../../src/app";
import { makeParley } from "../helpers";

let p: Parley;
let base: string;

beforeAll(() => {
  p = makeParley();
  p.seed({ users: [{ name: "alice" }], applications: [{ name: "Bot", owner: "alice" }] });
  p.listen();
  base = p.api.urls.base;
});

afterAll(() => p.stop());

/** The policy's directives by name. */
function directives(csp: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values.join(" "));
  }
  return out;
}

function expectGuarded(res: Response, what: string) {
  const csp = directives(res.headers.get("content-security-policy"));
  expect({ what, frameAncestors: csp.get("frame-ancestors") }).toEqual({ what, frameAncestors: "'none'" });
  expect({ what, xfo: res.headers.get("x-frame-options") }).toEqual({ what, xfo: "DENY" });
  expect({ what, nosniff: res.headers.get("x-content-type-options") }).toEqual({ what, nosniff: "nosniff" });
  expect({ what, referrer: res.headers.get("referrer-policy") }).toEqual({ what, referrer: "no-referrer" });
}

const PAGES = ["/", "/channels/a/b", "/admin", "/invite/abc", "/developers", "/developers/applications/x", "/developers/install/1"];

describe("pages and assets", () => {
  test("every page of the web client sends the policy as a header, with what the meta tag said and more", async () => {
    for (const path of PAGES) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get("content-type")).toContain("text/html");
      expectGuarded(res, path);
      const csp = directives(res.headers.get("content-security-policy"));
      expect(csp.get("script-src")).toBe("'self'");
      expect(csp.get("object-src")).toBe("'none'");
      expect(csp.get("base-uri")).toBe("'none'");
      await res.arrayBuffer();
    }
  });

  test("every script and style sheet the page loads carries the same headers", async () => {
    const html = await (await fetch(`${base}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) {
      const res = await fetch(`${base}${a}`);
      expect({ a, status: res.status }).toEqual({ a, status: 200 });
      expect(res.headers.get("content-type")).toMatch(/javascript|css/);
      expectGuarded(res, a);
      await res.arrayBuffer();
    }
  });

  test("JSON answers are not sniffed", async () => {
    for (const path of ["/api/v10/gateway", "/api/client/v1/users/@me", "/api/openapi.json", "/healthz", "/api/v10/channels/1"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect({ path, nosniff: res.headers.get("x-content-type-options") }).toEqual({ path, nosniff: "nosniff" });
      await res.arrayBuffer();
    }
  });
});

describe("the API reference page", () => {
  test("runs in a sandbox of its own: scripts, but no same-origin, no inline code, no framing", async () => {
    const res = await fetch(`${base}/api/docs`);
    expect(res.status).toBe(200);
    expectGuarded(res, "/api/docs");
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.get("sandbox")).toBe("allow-scripts");
    expect(res.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("connect-src")).toBe("'none'");
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
    const script = await fetch(`${base}/api/docs/scalar.js`);
    expectGuarded(script, "/api/docs/scalar.js");
    await script.arrayBuffer();
  });
});

describe("unknown paths", () => {
  test("a page that does not exist is an HTML page with a link home, with the headers", async () => {
    for (const path of ["/no/such/page", "/favicon.ico", "/channelsx", "/developersx/y"]) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get("content-type")).toContain("text/html");
      expectGuarded(res, path);
      const html = await res.text();
      expect(html).toContain("<title>Page not found");
      expect(html).toMatch(/<a href="\/">[^<]+<\/a>/);
    }
  });

  test("API paths keep the spec's JSON error", async () => {
    for (const [path, status] of [
      ["/api/nope", 404],
      ["/api/client/v1/nope", 404],
      ["/api/v10/nope", 501],
      ["/api", 404],
    ] as const) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status });
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    // A program posting to a path that is no page gets JSON, too.
    const post = await fetch(`${base}/no/such/page`, { method: "POST", body: "{}" });
    expect(post.status).toBe(404);
    expect(post.headers.get("content-type")).toBe("application/json");
  });
});
