/**
 * A message's "More" button and its `menu` (the menu button pattern): the arrow keys,
 * Home and End move between the items, Enter or a click runs one, Escape closes the menu
 * and puts focus back on the button, and Tab or a click elsewhere closes it. The message
 * opens the same menu from the keyboard (Enter on the message) and on a phone from a
 * press and hold, so `open` lives with the message.
 */
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

export interface MenuItem {
  label: string;
  run(): void;
}

interface Props {
  /** The message's id, for the menu's own id. */
  id: string;
  items: MenuItem[];
  /** Open, and which item takes focus ("first" from a click or Enter, "last" from ArrowUp). */
  open: false | "first" | "last";
  setOpen(open: false | "first" | "last"): void;
}

/** Room a menu of up to eight items needs below its button before it opens upwards instead. */
const ROOM_PX = 260;

export function MoreMenu({ id, items, open, setOpen }: Props) {
  const wrap = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const up = !!open && (button.current?.getBoundingClientRect().bottom ?? 0) + ROOM_PX > window.innerHeight;

  useEffect(() => {
    if (!open) return;
    const entries = menuItems(menu.current);
    (open === "last" ? entries[entries.length - 1] : entries[0])?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  if (!items.length) return null;

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

  return (
    <span
      class="more-menu"
      ref={wrap}
      onFocusOut={(e) => open && !wrap.current?.contains(e.relatedTarget as Node | null) && setOpen(false)}
    >
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? `more-${id}` : undefined}
        aria-label="More"
        title="More"
        onClick={() => setOpen(open ? false : "first")}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            e.stopPropagation();
            setOpen(e.key === "ArrowUp" ? "last" : "first");
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && <MenuList id={`more-${id}`} up={up} items={items} menu={menu} onKeyDown={onMenuKey} onPick={() => close(true)} />}
    </span>
  );
}

interface ListProps {
  id: string;
  up: boolean;
  items: MenuItem[];
  menu: RefObject<HTMLUListElement | null>;
  onKeyDown(e: KeyboardEvent): void;
  /** Before an item runs: closes the menu and puts focus back on the button. */
  onPick(): void;
}

function MenuList({ id, up, items, menu, onKeyDown, onPick }: ListProps) {
  return (
    <ul id={id} role="menu" aria-label="More" class={up ? "up" : undefined} ref={menu} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <li role="none" key={item.label}>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              onPick();
              // After focus is back on the button, so an action that moves focus (Reply, Edit) wins.
              item.run();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}
