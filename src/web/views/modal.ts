/**
 * A modal `dialog` as the WAI-ARIA APG dialog pattern has it, shared by every dialog of
 * the web client: shown with showModal() (the page behind is inert), focus moves into it
 * (its first control, or `start`: its heading where it is there to be read, Cancel where
 * its action cannot be undone), Tab and Shift+Tab go round inside it, and however it
 * closes (Escape, Close, an action, or its owner taking it off the page) focus goes back
 * to what opened it, or where views/focus.ts says when that is gone. An action that takes
 * focus somewhere itself afterwards (Jump, Message) wins.
 *
 * The dialog closes itself before it leaves the page: a modal dialog removed while open
 * drops focus to the page's body, which throws a keyboard user back to the top.
 */
import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { focusReturn, sameStop, tabStops } from "./focus";

/**
 * `onClosed` runs once it has closed (Escape or `close`), focus already back; the owner
 * then takes it off the page. Put `ref` on the `dialog`; Close and the actions call `close`.
 */
export function useModal(onClosed: () => void, start?: RefObject<HTMLElement | null>) {
  const ref = useRef<HTMLDialogElement>(null);
  const ended = useRef<() => void>(() => undefined);
  const latest = useRef(onClosed);
  latest.current = onClosed;

  // A layout effect: its cleanup runs before the dialog leaves the page, a passive one's after.
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    const giveBack = focusReturn();
    if (!d.open) d.showModal();
    start?.current?.focus();
    // Focus back and the owner told in the same task that closes the dialog. The browser
    // sends "close" as a task of its own, which on a busy machine comes after the next
    // key: Enter on the opener, focus already back on it, then found the dialog still
    // open to its owner, so nothing opened, and the late "close" took the dialog away.
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      giveBack(d);
      latest.current();
    };
    ended.current = end;
    // Escape: closed here, not by the browser after this handler.
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (d.open) d.close();
      end();
    };
    const onKey = (e: KeyboardEvent) => keepTabInside(d, e);
    d.addEventListener("cancel", onCancel);
    d.addEventListener("close", end);
    d.addEventListener("keydown", onKey);
    return () => {
      d.removeEventListener("cancel", onCancel);
      d.removeEventListener("close", end);
      d.removeEventListener("keydown", onKey);
      if (d.open) d.close();
      giveBack(d);
    };
  }, []);

  function close(): void {
    const d = ref.current;
    if (!d?.open) return;
    d.close();
    ended.current();
  }

  return { ref, close };
}

/** Tab from the last stop goes round to the first, Shift+Tab from the first (or the heading before it) to the last. */
function keepTabInside(d: HTMLDialogElement, e: KeyboardEvent): void {
  if (e.key !== "Tab" || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
  // A dialog opened from inside this one (a confirmation in User settings) keeps its own Tab.
  if ((e.target as Element).closest("dialog") !== d) return;
  const stops = tabStops(d);
  const at = document.activeElement;
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last || !at) return e.preventDefault();
  const after = (a: Element, b: Element) => !!(b.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING) && !b.contains(a);
  const before = (a: Element, b: Element) => !!(b.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_PRECEDING);
  if (!e.shiftKey && (sameStop(at, last) || after(at, last))) {
    e.preventDefault();
    first.focus();
  } else if (e.shiftKey && (sameStop(at, first) || before(at, first))) {
    e.preventDefault();
    last.focus();
  }
}
