/**
 * The image proxy's one outbound request (docs/security.md, finding 10). The address a
 * name resolves to is checked, and the connection is made to that very address (the
 * request's own lookup answers with it), so a name that resolves differently a moment
 * later cannot slip past the check. Redirects are followed by hand, each one checked
 * again; only images of a few raster types, at most `maxBytes`, within a time limit.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Clock } from "../core";
import type { AddressRules } from "./media-addresses";

/** What the proxy passes on: raster images a browser draws without running anything (SVG may hold scripts). */
export const IMAGE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "image/vnd.microsoft.icon",
]);
const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 10_000;

export type Fetched =
  | { ok: true; type: string; body: Uint8Array<ArrayBuffer> }
  /** `refused`: an address the proxy may not reach; `failed`: the image could not be had (status, type, size, network). */
  | { ok: false; refused: boolean; reason: string };

export interface FetchRules {
  addresses: AddressRules;
  maxBytes: number;
  clock: Clock;
}

class Refused extends Error {}

/** Fetch the image at `url`, following at most a few redirects. */
export async function fetchImage(url: string, rules: FetchRules): Promise<Fetched> {
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let got: { res: IncomingMessage; done(): void };
    try {
      got = await request(target, rules);
    } catch (e) {
      return e instanceof Refused
        ? { ok: false, refused: true, reason: e.message }
        : { ok: false, refused: false, reason: "the image's server did not answer" };
    }
    const { res, done } = got;
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      done();
      res.destroy();
      target = new URL(location, target).href;
      continue;
    }
    try {
      return await read(res, rules);
    } finally {
      done();
    }
  }
  return { ok: false, refused: false, reason: "too many redirects" };
}

/**
 * One GET to a checked address; rejects with Refused for an address the rules do not
 * permit. The time limit runs until `done()`, so it covers reading the body too.
 */
function request(target: string, rules: FetchRules): Promise<{ res: IncomingMessage; done(): void }> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(target);
    } catch {
      return reject(new Refused("not an address"));
    }
    if ((u.protocol !== "http:" && u.protocol !== "https:") || u.username || u.password)
      return reject(new Refused("only http and https, without credentials"));
    const host = u.hostname.replace(/^\[|\]$/g, "");
    // A literal address is connected to without a lookup: it is checked here.
    if (isIP(host) && !rules.addresses.permits(host)) return reject(new Refused("a private address"));
    const lookup = (name: string, opts: { all?: boolean }, done: (...a: unknown[]) => void) =>
      dnsLookup(name, { all: true }, (err, found: LookupAddress[]) => {
        if (err) return done(err);
        if (!found.length || found.some((a) => !rules.addresses.permits(a.address)))
          return done(new Refused("a name for a private address"));
        if (opts?.all) done(null, found);
        else done(null, found[0].address, found[0].family);
      });
    const req = (u.protocol === "https:" ? https : http).request(
      u,
      { method: "GET", lookup: lookup as never, headers: { accept: "image/*", "user-agent": "Parley image proxy" } },
      (res) => resolve({ res, done: () => timer.cancel() }),
    );
    const timer = rules.clock.setTimeout(() => req.destroy(new Error("timed out")), TIMEOUT_MS);
    req.on("error", (e) => {
      timer.cancel();
      reject(e instanceof Refused || (e as { cause?: unknown }).cause instanceof Refused ? new Refused(e.message) : e);
    });
    req.end();
  });
}

/** The body of a 200 answer that says it is an image, read up to the cap. */
async function read(res: IncomingMessage, rules: FetchRules): Promise<Fetched> {
  const type = String(res.headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  const declared = Number(res.headers["content-length"] ?? NaN);
  const fail = (reason: string): Fetched => (res.destroy(), { ok: false, refused: false, reason });
  if (res.statusCode !== 200) return fail(`the image's server answered ${res.statusCode}`);
  if (!IMAGE_TYPES.has(type)) return fail("not an image");
  if (declared > rules.maxBytes) return fail("the image is too large");
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > rules.maxBytes) return fail("the image is too large");
      chunks.push(chunk);
    }
  } catch {
    return fail("the image's server stopped answering");
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { ok: true, type, body };
}
