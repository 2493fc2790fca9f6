/**
 * The web client's pages, served by the same process at `/` (and at `/channels/...`, so
 * a reload keeps the open channel), the developer portal (`/developers`, its
 * applications and install pages) and administration (`/admin`), all one build. The page is Bun's HTML bundle: bundled on first
 * request under `bun run`, and at build time into the compiled executable, which then
 * needs no file beside it. The client speaks only the people's API; nothing here
 * imports the rest of Parley.
 */
import { readFileSync } from "node:fs";
import page from "./index.html";
import { DICTIONARIES_PATH } from "./paths";

type Route = Response | typeof page | (() => Response);

/** Paths the single-page client answers, given where the portal is served ("" for the root of its own host). */
function pages(portalPaths: string[]): string[] {
  const portal = portalPaths.flatMap((p) => (p ? [p, `${p}/*`] : ["/install/*"]));
  return ["/", "/channels/*", "/admin", "/invite/*", ...portal];
}

/**
 * Bun.serve routes for the client. Compiled, Bun would send the assets with an ETag
 * only; since their names carry a content hash, they are sent as immutable instead,
 * and the page itself is revalidated every time.
 */
export function webRoutes(portalPaths: string[]): Record<string, Route> {
  const PAGES = pages(portalPaths);
  const files = page.files;
  const routes: Record<string, Route> = { [DICTIONARIES_PATH]: dictionaries() };
  if (!files?.length) return { ...routes, ...Object.fromEntries(PAGES.map((p) => [p, page])) };
  let html: Response | null = null;
  for (const f of files) {
    const body = readFileSync(f.path);
    const isPage = f.loader === "html";
    const res = new Response(body, {
      headers: { ...f.headers, "cache-control": isPage ? "no-cache" : "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
    });
    if (isPage) html = res;
    else routes[`/${f.path.split("/").pop()}`] = res;
  }
  if (html) for (const p of PAGES) routes[p] = html;
  return routes;
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
    return new Response(body, { headers: { "content-type": "application/json", "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" } });
  };
}
