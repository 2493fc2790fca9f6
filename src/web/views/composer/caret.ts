/**
 * Where the caret goes after the composer's text is replaced (an emoji or a mention picked,
 * text inserted). It is placed in the commit that puts the new text on the page, before
 * the browser hands the page another key: waiting for a frame, as a busy machine makes it
 * wait, let the next key land where the caret was before.
 */
import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

export function useCaret(box: RefObject<HTMLTextAreaElement | null>): (at: number) => void {
  const want = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = want.current;
    const el = box.current;
    if (at === null || !el) return;
    want.current = null;
    if (document.activeElement !== el) el.focus();
    el.setSelectionRange(at, at);
  });
  return (at) => {
    want.current = at;
  };
}
