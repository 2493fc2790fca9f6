/**
 * A message's "More" button and its `menu` (the menu button pattern, views/Menu.tsx).
 * The message opens the same menu from the keyboard (Enter on the message) and on a
 * phone from a press and hold, so `open` lives with the message.
 */
import { useRef } from "preact/hooks";
import { type MenuItem, MenuList, type MenuOpen, useMenu } from "../Menu";

export type { MenuItem };

interface Props {
  /** The message's id, for the menu's own id. */
  id: string;
  items: MenuItem[];
  open: MenuOpen;
  setOpen(open: MenuOpen): void;
}

/** Room a menu of up to eight items needs below its button before it opens upwards instead. */
const ROOM_PX = 260;

export function MoreMenu({ id, items, open, setOpen }: Props) {
  const wrap = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const up = !!open && (button.current?.getBoundingClientRect().bottom ?? 0) + ROOM_PX > window.innerHeight;
  const { close, onMenuKey, onButtonKey, onFocusOut } = useMenu({ wrap, button, menu }, open, setOpen);

  if (!items.length) return null;
  return (
    <span class="more-menu" ref={wrap} onFocusOut={onFocusOut}>
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? `more-${id}` : undefined}
        aria-label="More"
        title="More"
        onClick={() => setOpen(open ? false : "first")}
        onKeyDown={onButtonKey}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <MenuList
          id={`more-${id}`}
          label="More"
          class={up ? "up" : undefined}
          items={items}
          menu={menu}
          onKeyDown={onMenuKey}
          onPick={() => close(true)}
        />
      )}
    </span>
  );
}
