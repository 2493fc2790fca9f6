/**
 * The web client's pages, served by the same process at `/` (and at `/channels/...`, so
 * a reload keeps the open channel), the developer portal (`/developers`, its
 * applications and install pages) and administration (`/admin`), all one build. The
 * page is Bun's HTML bundle: built into the compiled executable, which then needs no
 * file beside it; under `bun run` it is built here on first request. Either way Parley
 * sends the files itself, so every page and asset carries the security headers
 * (headers.ts), which Bun's own serving of an HTML bundle cannot add. The client speaks
 * only the people's API; nothing here imports the rest of Parley.
 */
import { readFileSync } from "node:fs";
import page from "./index.html";
import { DICTIONARIES_PATH } from "./paths";
import { PAGE_HEADERS } from "./headers";

export { notFoundPage } from "./headers";

type Route = Response | ((req: Request) => Response | Promise<Response>);

/** The pages and assets as Bun.serve routes, and the built assets the routes could not name in advance. */
export interface WebSite {
  routes: Record<string, Route>;
  /** A built asset by path (an answer, or null for none); null at once when the path cannot name one. */
  asset(pathname: string): Promise<Response | null> | null;
}

interface File {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

/** Paths the single-page client answers, given where the portal is served ("" for the root of its own host). */
function pages(portalPaths: string[]): string[] {
  const portal = portalPaths.flatMap((p) => (p ? [p, `${p}/*`] : ["/install/*"]));
  return ["/", "/channels/*", "/admin", "/invite/*", "/reset-password/*", "/setup/*", ...portal];
}

/** An asset's name as Bun's bundler makes it: one path segment, a content hash in it. */
const ASSET_PATH = /^\/[\w.-]+\.(?:js|css|map)$/;

/**
 * The page is revalidated every time; assets, whose names carry a content hash, are
 * sent as immutable.
 */
function answer(f: File, isPage: boolean): Response {
  return new Response(f.body, {
    headers: { ...PAGE_HEADERS, "content-type": f.type, "cache-control": isPage ? "no-cache" : "public, max-age=31536000, immutable" },
  });
}

/** `entry`: the page to build under `bun run` (a test hands in one that does not build). */
export function webSite(portalPaths: string[], entry: string = page.index): WebSite {
  const PAGES = pages(portalPaths);
  const files = page.files;
  const site = files?.length ? compiled(files, PAGES) : onDemand(PAGES, entry);
  site.routes[DICTIONARIES_PATH] = dictionaries();
  return site;
}

/** The executable's embedded build: every file known at start, each a static route. */
function compiled(files: NonNullable<typeof page.files>, PAGES: string[]): WebSite {
  const routes: Record<string, Route> = {};
  let html: Response | null = null;
  for (const f of files) {
    const isPage = f.loader === "html";
    const res = answer({ body: new Uint8Array(readFileSync(f.path)), type: f.headers["content-type"] }, isPage);
    if (isPage) html = res;
    else routes[`/${f.path.split("/").pop()}`] = res;
  }
  if (html) for (const p of PAGES) routes[p] = html;
  return { routes, asset: () => null };
}

/**
 * `bun run` and tests: the bundle is built on the first page or asset asked for (Bun's
 * own serving would do the same), once per server; a failed build is tried again on the
 * next request.
 */
function onDemand(PAGES: string[], entry: string): WebSite {
  let built: Promise<{ html: File; assets: Map<string, File> }> | null = null;
  const build = () => (built ??= bundle(entry).catch((e) => ((built = null), Promise.reject(e))));
  const routes: Record<string, Route> = {};
  for (const p of PAGES) routes[p] = () => build().then((b) => answer(b.html, true));
  return {
    routes,
    asset: (pathname) =>
      ASSET_PATH.test(pathname) ? build().then((b) => (b.assets.has(pathname) ? answer(b.assets.get(pathname)!, false) : null)) : null,
  };
}

async function bundle(entry: string): Promise<{ html: File; assets: Map<string, File> }> {
  // throw: false, so a failed build answers its messages rather than throwing them.
  const out = await Bun.build({ entrypoints: [entry], target: "browser", publicPath: "/", minify: true, throw: false });
  if (!out.success) throw buildFailure(out.logs);
  let html: File | null = null;
  const assets = new Map<string, File>();
  for (const o of out.outputs) {
    const f = { body: new Uint8Array(await o.arrayBuffer()), type: o.type };
    if (o.type.startsWith("text/html")) html = f;
    else assets.set(`/${o.path.replace(/^\.\//, "")}`, f);
  }
  if (!html) throw new Error("the web client's build has no page");
  return { html, assets };
}

/**
 * A failed build as one plain error whose message says what failed, where: Bun's build
 * messages carry their text and position in getters the log's serializer cannot copy (it
 * wrote "unable to serialize, circular reference" instead, and nothing of the cause).
 */
function buildFailure(logs: readonly (BuildMessage | ResolveMessage)[]): Error {
  const errors = logs.filter((m) => m.level === "error");
  const said = (errors.length ? errors : logs).map((m) => {
    const at = m.position ? `${m.position.file}:${m.position.line}:${m.position.column}: ` : "";
    return `${at}${m.message}`;
  });
  return new Error(`the web client did not build: ${said.join("; ") || "no reason given"}`);
}

/**
 * zxcvbn's common dictionaries, for the browser's check of a key backup's passphrase
 * (strength.ts): the words the server checks passwords against, about 400 KB, so they
 * are fetched when a passphrase is first checked rather than carried in the page. Built
 * on the first request: evaluating them costs start-up time every server would pay.
 */
function dictionaries(): () => Response {
  let body: string | null = null;
  return () => {
    if (body === null) {
      const { adjacencyGraphs, dictionary } = require("@zxcvbn-ts/language-common") as typeof import("@zxcvbn-ts/language-common");
      body = JSON.stringify({ adjacencyGraphs, dictionary });
    }
    return new Response(body, {
      headers: { ...PAGE_HEADERS, "content-type": "application/json", "cache-control": "public, max-age=86400" },
    });
  };
}
