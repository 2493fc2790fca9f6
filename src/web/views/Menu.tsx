/**
 * A menu button's `menu` (the WAI-ARIA APG menu button pattern), shared by a message's
 * "More" and the "Apps" of context-menu commands: opening moves focus to the first item
 * (the last from ArrowUp on the button), the arrow keys, Home and End move between the
 * items, Enter or a click runs one, Escape closes the menu and puts focus back on the
 * button, and Tab or a click elsewhere closes it.
 */
import type { RefObject } from "preact";
import { useLayoutEffect } from "preact/hooks";

export interface MenuItem {
  /** Where two items may share a label (two applications' commands). */
  id?: string;
  label: string;
  /** A longer description, shown on hover. */
  title?: string;
  run(): void;
}

/** Open, and which item takes focus ("first" from a click or Enter, "last" from ArrowUp). */
export type MenuOpen = false | "first" | "last";

interface Refs {
  /** What holds the button and the menu: a pointer down outside it closes the menu. */
  wrap: RefObject<HTMLElement | null>;
  button: RefObject<HTMLButtonElement | null>;
  menu: RefObject<HTMLElement | null>;
}

/** Focus into the menu as it opens, a click elsewhere closes it; returns the menu's key handler and `close`. */
export function useMenu({ wrap, button, menu }: Refs, open: MenuOpen, setOpen: (open: MenuOpen) => void) {
  useLayoutEffect(() => {
    if (!open) return;
    const entries = menuItems(menu.current);
    (open === "last" ? entries[entries.length - 1] : entries[0])?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  function close(refocus: boolean): void {
    setOpen(false);
    if (refocus) button.current?.focus();
  }

  function onMenuKey(e: KeyboardEvent): void {
    const entries = menuItems(menu.current);
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const to = (i: number) => entries[(i + entries.length) % entries.length]?.focus();
    if (e.key === "ArrowDown") to(at + 1);
    else if (e.key === "ArrowUp") to(at - 1);
    else if (e.key === "Home") to(0);
    else if (e.key === "End") to(entries.length - 1);
    else if (e.key === "Escape") close(true);
    else if (e.key === "Tab") return setOpen(false);
    else return;
    // The menu's keys are its own: not the log's arrows, nor a drawer's or the composer's Escape.
    e.preventDefault();
    e.stopPropagation();
  }

  /** On the button: ArrowDown or ArrowUp opens the menu on its first or last item. */
  function onButtonKey(e: KeyboardEvent): void {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    e.stopPropagation();
    setOpen(e.key === "ArrowUp" ? "last" : "first");
  }

  /** Focus gone from the button and the menu both: the menu closes. */
  function onFocusOut(e: FocusEvent): void {
    if (open && !wrap.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
  }

  return { close, onMenuKey, onButtonKey, onFocusOut };
}

interface ListProps {
  id: string;
  label: string;
  class?: string;
  items: MenuItem[];
  menu: RefObject<HTMLDivElement | null>;
  onKeyDown(e: KeyboardEvent): void;
  /** Before an item runs: closes the menu and puts focus back on the button. */
  onPick(): void;
}

/** The menu itself: its items out of the tab order, since the arrow keys move between them. */
export function MenuList({ id, label, class: className, items, menu, onKeyDown, onPick }: ListProps) {
  return (
    <div id={id} role="menu" aria-label={label} class={className} ref={menu} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          key={item.id ?? item.label}
          title={item.title}
          onClick={() => {
            onPick();
            // After focus is back on the button, so an action that moves focus (Reply, Edit) wins.
            item.run();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}
