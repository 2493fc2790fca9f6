/**
 * What every page and asset of the web client is sent with (docs/security.md, finding
 * 9). The policy is a header, not only the page's meta tag: a meta tag cannot say
 * frame-ancestors, and covers nothing but the page that holds it. Images may come from
 * any http(s) host, but only once a person asked for them (views/Embed.tsx) or through
 * the server's own image proxy; pictures, video and sound also from blob: URLs, which
 * hold the files of encrypted DMs this page decrypted (views/files/SealedFiles.tsx).
 */
export const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers themselves; a page or asset adds its own content type and caching. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": PAGE_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** The page every unknown web path answers (issue 24, item 11): a way home, not raw JSON. */
export function notFoundPage(): Response {
  return new Response(NOT_FOUND_HTML, {
    status: 404,
    headers: { ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
  });
}

const NOT_FOUND_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Page not found · Parley</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f5f7; color: #1d2025; }
main { max-width: 32rem; padding: 2rem; }
a { color: #1f5fbf; }
@media (prefers-color-scheme: dark) { body { background: #1d2025; color: #e6e7ea; } a { color: #8ab4f8; } }
</style>
</head>
<body>
<main>
<h1>Page not found</h1>
<p>There is no page at this address.</p>
<p><a href="/">Go to Parley</a></p>
</main>
</body>
</html>
`;
