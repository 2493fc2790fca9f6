/**
 * Where keyboard focus goes when what had it closes (a dialog, the search results, a
 * phone's drawer): back to what opened it; where that has left the page (a deleted row's
 * "Delete" button), to the first control left in the nearest part of the page that held
 * it, so a keyboard or screen-reader user goes on from where they were, never from the
 * top of the page.
 */
import { useLayoutEffect, useRef } from "preact/hooks";

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

/** The controls Tab stops on inside `root`, in order: shown, enabled, in the tab order, one per radio group. */
export function tabStops(root: Element): HTMLElement[] {
  const all = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.tabIndex >= 0 && canFocus(el));
  return all.filter((el) => !isRadio(el) || el === radioStop(all, el));
}

/** Tab enters a radio group on its checked radio (else its first) and leaves it after. */
function radioStop(all: HTMLElement[], radio: HTMLInputElement): HTMLElement | undefined {
  const group = all.filter((o) => sameStop(o, radio));
  return group.find((o) => (o as HTMLInputElement).checked) ?? group[0];
}

/** On the page, shown, enabled and not behind a modal dialog. */
function canFocus(el: HTMLElement): boolean {
  return el.isConnected && !el.matches(":disabled") && !el.closest("[inert]") && el.getClientRects().length > 0;
}

function isRadio(el: Element | null): el is HTMLInputElement {
  return el instanceof HTMLInputElement && el.type === "radio" && el.name !== "";
}

/** One Tab stop: the same control, or radios of one group. */
export function sameStop(a: Element | null, b: Element | null): boolean {
  return a === b || (isRadio(a) && isRadio(b) && a.name === b.name && a.form === b.form);
}

/** Focus is where nobody can see it: on the page's body, or inside `closing`. */
export function focusLost(closing?: Element | null): boolean {
  const now = document.activeElement;
  return !now || now === document.body || (!!closing && closing.contains(now));
}

/**
 * Remembers what has focus now (what is opening something). The function returned gives
 * focus back to it when `closing` closes, if focus is lost (on the body, or still inside
 * `closing`); focus that went somewhere else on purpose stays there.
 */
export function focusReturn(from: Element | null = document.activeElement): (closing?: Element | null) => void {
  const opener = from instanceof HTMLElement && from !== document.body ? from : null;
  const held: Element[] = [];
  for (let el = opener?.parentElement; el; el = el.parentElement) held.push(el);
  const nearby = () => {
    for (const place of held) {
      if (!place.isConnected) continue;
      const first = tabStops(place)[0];
      if (first) return first.focus();
    }
  };
  let watching = false;
  return (closing) => {
    const back = !!opener && document.activeElement === opener;
    if (!back && !focusLost(closing)) return;
    if (!opener || !canFocus(opener)) return nearby();
    if (!back) opener.focus();
    if (!watching) keepNearby(opener, nearby, () => (watching = false));
    watching = true;
  };
}

/**
 * Focus given back to `el`, which its owner may yet take off the page (a deleted row's
 * Delete goes once the server's event arrives): then focus goes `nearby`, not to the body.
 * Watched only until focus moves on to anything else.
 */
function keepNearby(el: HTMLElement, nearby: () => void, stopped: () => void): void {
  const watch = new MutationObserver(() => {
    if (el.isConnected) return;
    stop();
    if (focusLost()) nearby();
  });
  // Focus coming back to `el` itself (its request done, useFocusThrough) is not moving on.
  const moved = (e: FocusEvent) => e.target !== el && stop();
  const stop = () => {
    stopped();
    watch.disconnect();
    document.removeEventListener("focusin", moved);
  };
  watch.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("focusin", moved);
}

/**
 * `el` has focus and is about to leave the page (the last of its kind, taken away by the
 * server's answer): once it has gone, if focus went with it, focus goes to `next()`.
 * Watched only until focus moves on to anything else.
 */
export function focusWhenGone(el: HTMLElement, next: () => HTMLElement | null | undefined): void {
  keepNearby(
    el,
    () => next()?.focus(),
    () => undefined,
  );
}

/**
 * A row's control that takes its row off the list (Unban, Revoke): once the row has gone,
 * focus lost with it goes on to the same place in the row that took its place (or the
 * last row), else to the first control of the nearest part of the page that has one.
 */
export function focusNextRow(control: HTMLElement): void {
  const row = control.closest("li, tr");
  const list = row?.parentElement;
  if (!row || !list) return;
  const index = Array.from(list.children).indexOf(row);
  // Known now: a list that empties may leave the page, and then has no parents.
  const around: Element[] = [];
  for (let place = list.parentElement; place; place = place.parentElement) around.push(place);
  focusWhenGone(control, () => {
    const rows = list.isConnected ? Array.from(list.children) : [];
    const next = rows[Math.min(index, rows.length - 1)];
    if (next) return tabStops(next)[0];
    for (const place of around) {
      const first = place.isConnected ? tabStops(place)[0] : undefined;
      if (first) return first;
    }
    return null;
  });
}

/**
 * Into the open channel: its message box, else (where one may not write) its messages,
 * the one message in the tab order or the log itself when it has none.
 */
export function focusComposer(): void {
  const box = document.querySelector<HTMLElement>(".composer textarea:not([disabled])");
  (box ?? document.querySelector<HTMLElement>('.log article[tabindex="0"], .log[tabindex="0"]'))?.focus();
}

/**
 * Keeps keyboard focus through a request whose button is disabled while it is `busy`:
 * Chrome drops the focus of a disabled button to the page's body, so when the request
 * is done, focus lost meanwhile goes back to the control that had it as it started
 * (still on the page and usable), and a keyboard or screen-reader user goes on from
 * there rather than from the top of the page. Focus moved elsewhere on purpose stays.
 */
export function useFocusThrough(busy: boolean): void {
  const starter = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (busy) {
      // The disabled button still holds focus here: Chrome lets go of it at its next rendering step.
      const now = document.activeElement;
      starter.current = now instanceof HTMLElement && now !== document.body ? now : null;
      return;
    }
    const el = starter.current;
    starter.current = null;
    if (el && canFocus(el) && (focusLost() || document.activeElement?.matches(":disabled"))) el.focus();
  }, [busy]);
}
