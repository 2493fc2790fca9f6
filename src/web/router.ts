/**
 * Which page a URL names. The chat lives at `/` and `/channels/...`; administration at
 * `/admin`; an invite at `/invite/<code>`; a password reset link at `/reset-password/<token>`; the first administrator's setup link at `/setup/<token>`; the portal wherever it is served (`/developers`
 * by default, or --portal-url's path): its list at the root, an application at
 * `<root>/applications/<id>`, the install page at `<root>/install/<id>`.
 */
import { signal } from "@preact/signals";

export type Page =
  | { kind: "chat" }
  | { kind: "admin" }
  | { kind: "invite"; code: string }
  | { kind: "reset"; token: string }
  | { kind: "setup"; token: string }
  | { kind: "portal"; base: string; app: string | null }
  | { kind: "install"; base: string; app: string };

export function pageOf(pathname: string): Page {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/" || path === "/channels" || path.startsWith("/channels/")) return { kind: "chat" };
  if (path === "/admin") return { kind: "admin" };
  let m = /^\/invite\/([^/]+)$/.exec(path);
  if (m) return { kind: "invite", code: decodeURIComponent(m[1]) };
  m = /^\/reset-password\/([^/]+)$/.exec(path);
  if (m) return { kind: "reset", token: decodeURIComponent(m[1]) };
  m = /^\/setup\/([^/]+)$/.exec(path);
  if (m) return { kind: "setup", token: decodeURIComponent(m[1]) };
  m = /^(.*)\/install\/([^/]+)$/.exec(path);
  if (m) return { kind: "install", base: m[1] || "/developers", app: decodeURIComponent(m[2]) };
  m = /^(.*)\/applications\/([^/]+)$/.exec(path);
  if (m) return { kind: "portal", base: m[1], app: decodeURIComponent(m[2]) };
  return { kind: "portal", base: path, app: null };
}

export const page = signal<Page>(pageOf(location.pathname));

/** Move to another page of the same build without reloading. */
export function go(path: string): void {
  if (location.pathname !== path) history.pushState(null, "", path);
  page.value = pageOf(path);
  scrollTo(0, 0);
}
