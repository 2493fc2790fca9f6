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

/**
 * Where the caret is for a suggestion list reading the text before it. Right after a pick
 * replaced the text, the box's own caret is still where it was (it moves in the commit
 * that shows the new text), and the list would read the old word and stay open: the
 * caret the pick placed counts until then.
 */
export function useCaretNow(box: RefObject<HTMLTextAreaElement | null>, text: string): { at: number; placed(at: number): void } {
  const pending = useRef<number | null>(null);
  useLayoutEffect(() => {
    pending.current = null;
  });
  return {
    at: pending.current ?? box.current?.selectionStart ?? text.length,
    placed: (at) => {
      pending.current = at;
    },
  };
}
