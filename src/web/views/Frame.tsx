/**
 * The frame of the pages beside the chat (portal, install, administration, invites): a
 * `navigation` landmark named "Site" with the way back to the chat, the portal and, for
 * administrators, administration; then the page.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { api, ApiError } from "../api";
import { displayName, me } from "../state";
import type { Me } from "../types";
import { focusLost } from "./focus";
import { Link } from "./ui";

interface Props {
  /** Where the portal's list lives (the in-app link target). */
  portal: string;
  onSignOut(): void;
  /** The session is no longer valid: sign in again, staying on this page. */
  onExpired(): void;
  children: ComponentChildren;
}

export function Frame({ portal, onSignOut, onExpired, children }: Props) {
  const main = useRef<HTMLElement>(null);
  // Arriving here (signed in just now, or the page opened) leaves focus on the page's
  // body: it starts in the page instead, so Tab and a screen reader go on from its top.
  useLayoutEffect(() => {
    if (focusLost()) main.current?.focus();
  }, []);
  useEffect(() => {
    // The chat learns who this is from the live connection; these pages ask once.
    if (!me.value)
      void api<Me>("GET", "/users/@me").then(
        (u) => (me.value = u),
        (e) => e instanceof ApiError && e.status === 401 && onExpired(),
      );
  }, []);
  return (
    <div class="page">
      <nav aria-label="Site" class="site">
        <a href="/" class="brand">
          Parley
        </a>
        <Link href={portal}>Developer portal</Link>
        {me.value?.admin && <Link href="/admin">Administration</Link>}
        <span class="who">{me.value ? displayName(me.value) : ""}</span>
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </nav>
      <main class="page-body" ref={main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
