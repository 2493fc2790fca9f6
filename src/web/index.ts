/**
 * The web client's pages, served by the same process at `/` (and at `/channels/...`, so
 * a reload keeps the open channel). The page is Bun's HTML bundle: bundled on first
 * request under `bun run`, and at build time into the compiled executable, which then
 * needs no file beside it. The client speaks only the people's API; nothing here
 * imports the rest of Parley.
 */
import { readFileSync } from "node:fs";
import page from "./index.html";

type Route = Response | typeof page;

/** Paths the single-page client answers. */
const PAGES = ["/", "/channels/*"];

/**
 * Bun.serve routes for the client. Compiled, Bun would send the assets with an ETag
 * only; since their names carry a content hash, they are sent as immutable instead,
 * and the page itself is revalidated every time.
 */
export function webRoutes(): Record<string, Route> {
  const files = page.files;
  if (!files?.length) return Object.fromEntries(PAGES.map((p) => [p, page]));
  const routes: Record<string, Route> = {};
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
