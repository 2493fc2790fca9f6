/**
 * The log as one tab stop (issue 28): of all the messages only one, the last one the
 * person focused (else the newest), is in the tab order, and so are only that message's
 * own controls. Arrow keys move between messages, Home and End to the first and last
 * loaded, Page Up and Page Down by a screenful; Up past the first loaded message loads
 * older ones and goes on into them. The keys act only when a message itself has focus, so
 * an edit box or a menu inside one keeps its own keys.
 *
 * A click on a message focuses it too (it is focusable), but someone who clicked and then
 * types means to write, as in any chat: a message focused by the pointer (`data-clicked`)
 * sends a typed character on to the composer, and its own letter keys stay off.
 */
import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

const FOCUSABLE = "a[href], button, input, textarea, select, summary, [tabindex]";
/** Marks the controls this module took out of the tab order, so it gives back only those. */
const ROVED = "data-roved";

interface Options {
  box: RefObject<HTMLElement | null>;
  content: RefObject<HTMLElement | null>;
  channelId: string;
  /** The ids of the shown messages, oldest first. */
  ids: string[];
  /** Loads older messages; resolves once they are in the list (or there are none). */
  older(): Promise<unknown>;
  /**
   * Focus moved to a message by key, the log scrolled to it: the log's owner takes note
   * (list/follow.ts) before the re-render this move causes, which would otherwise find the
   * log still "at the bottom" and take it back there.
   */
  moved?(): void;
}

export function useRoving({ box, content, channelId, ids, older, moved }: Options) {
  const [chosen, setChosen] = useState<string | null>(null);
  useLayoutEffect(() => setChosen(null), [channelId]);
  const active = chosen && ids.includes(chosen) ? chosen : (ids[ids.length - 1] ?? null);
  const activeRef = useRef(active);
  activeRef.current = active;

  // Controls of the other messages leave the tab order; new ones (a reaction, an embed) are caught as they come.
  useLayoutEffect(() => rove(content.current, active));
  useEffect(() => {
    const el = content.current;
    if (!el || typeof MutationObserver === "undefined") return;
    const watch = new MutationObserver(() => rove(el, activeRef.current));
    watch.observe(el, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [content.current]);

  function articles(): HTMLElement[] {
    return Array.from(content.current?.querySelectorAll<HTMLElement>("article[data-id]") ?? []);
  }

  function go(el: HTMLElement | undefined): void {
    if (!el) return;
    delete el.dataset.clicked;
    setChosen(el.dataset.id ?? null);
    el.focus();
    moved?.();
  }

  /** A screenful away from `from`, up or down: the first message that far, else the last one there is. */
  function screenful(list: HTMLElement[], at: number, dir: 1 | -1): HTMLElement {
    const height = box.current?.clientHeight ?? 400;
    const top = list[at].getBoundingClientRect().top;
    for (let i = at + dir; i >= 0 && i < list.length; i += dir)
      if (Math.abs(list[i].getBoundingClientRect().top - top) >= height * 0.9) return list[i];
    return list[dir === 1 ? list.length - 1 : 0];
  }

  async function upFromTop(id: string): Promise<void> {
    await older();
    // Preact draws the older page on its next frame; then the message above is there to go to.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const list = articles();
    const at = list.findIndex((a) => a.dataset.id === id);
    if (at > 0 && document.activeElement === list[at]) go(list[at - 1]);
  }

  function onKeyDown(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    if (target.tagName !== "ARTICLE" || !target.dataset.id || e.altKey || e.ctrlKey || e.metaKey) return;
    if (typedAfterClick(target, e)) return;
    const list = articles();
    const at = list.indexOf(target);
    if (at < 0) return;
    let next: HTMLElement | undefined;
    if (e.key === "ArrowDown") next = list[at + 1];
    else if (e.key === "ArrowUp") {
      if (at === 0) void upFromTop(target.dataset.id);
      else next = list[at - 1];
    } else if (e.key === "Home") next = list[0];
    else if (e.key === "End") next = list[list.length - 1];
    else if (e.key === "PageDown") next = screenful(list, at, 1);
    else if (e.key === "PageUp") {
      next = screenful(list, at, -1);
      if (next === target) void upFromTop(target.dataset.id);
    } else return;
    e.preventDefault();
    if (next && next !== target) go(next);
  }

  function onFocusIn(e: FocusEvent): void {
    const article = (e.target as HTMLElement).closest<HTMLElement>("article[data-id]");
    if (article?.dataset.id && article.dataset.id !== activeRef.current) setChosen(article.dataset.id);
  }

  return { active, onKeyDown, onFocusIn, onFocusOut, onPointerDown };
}

/** A character typed on a message the pointer focused: on to the composer (true), else the keyboard has it now. */
function typedAfterClick(article: HTMLElement, e: KeyboardEvent): boolean {
  if (clicked(article) && e.key.length === 1) {
    // Focus moves before the key's character is inserted: it lands in the composer.
    document.querySelector<HTMLElement>(".composer textarea:not([disabled])")?.focus();
    return true;
  }
  if (e.key !== "Enter") delete article.dataset.clicked;
  return false;
}

/** The pointer went down on a message: whatever focus it gets is the pointer's. */
function onPointerDown(e: PointerEvent): void {
  const article = (e.target as HTMLElement).closest<HTMLElement>("article[data-id]");
  if (article) article.dataset.clicked = "";
}

function onFocusOut(e: FocusEvent): void {
  const article = e.target as HTMLElement;
  if (article.tagName === "ARTICLE") delete article.dataset.clicked;
}

/** Focused by a click, not by the keyboard: typing goes to the composer (see above). */
export function clicked(article: HTMLElement): boolean {
  return article.dataset.clicked !== undefined;
}

/** Takes the controls of every message but the active one out of the tab order, and gives the active one's back. */
function rove(root: HTMLElement | null, active: string | null): void {
  if (!root) return;
  for (const article of Array.from(root.querySelectorAll<HTMLElement>("article[data-id]"))) {
    const mine = article.dataset.id === active;
    for (const el of Array.from(article.querySelectorAll<HTMLElement>(FOCUSABLE))) {
      if (mine) {
        const was = el.getAttribute(ROVED);
        if (was === null) continue;
        el.removeAttribute(ROVED);
        if (was) el.setAttribute("tabindex", was);
        else el.removeAttribute("tabindex");
      } else if (el.getAttribute("tabindex") !== "-1") {
        el.setAttribute(ROVED, el.getAttribute("tabindex") ?? "");
        el.setAttribute("tabindex", "-1");
      }
    }
  }
}
