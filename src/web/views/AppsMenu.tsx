/**
 * Context-menu commands (spec 2.4): an application's USER commands on a person's name
 * (a button "Apps for <name>") and its MESSAGE commands on a message (a button "Apps"),
 * each opening a `menu` of the commands by name (the menu button pattern, Menu.tsx).
 * Running one sends the channel's interaction with `type` 2 or 3 and the target's
 * internal id.
 */
import { signal } from "@preact/signals";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { runContextCommand } from "../actions";
import type { Command } from "../types";
import { MenuList, type MenuOpen, useMenu } from "./Menu";

export const USER_COMMAND = 2;
export const MESSAGE_COMMAND = 3;

/** Lists by channel and type, read once per channel and again whenever a menu opens. */
const lists = signal<Record<string, Command[]>>({});
const loading = new Set<string>();

function refresh(channelId: string, type: number): void {
  const key = `${channelId}:${type}`;
  if (loading.has(key)) return;
  loading.add(key);
  api<Command[]>("GET", `/channels/${channelId}/commands?type=${type}`)
    .then((list) => (lists.value = { ...lists.value, [key]: list }))
    .catch(() => undefined)
    .finally(() => loading.delete(key));
}

interface Props {
  channelId: string;
  type: typeof USER_COMMAND | typeof MESSAGE_COMMAND;
  targetId: string;
  /** Who or what the commands act on, for the button's and menu's names. */
  label: string;
}

export function AppsMenu({ channelId, type, targetId, label }: Props) {
  const [open, setOpen] = useState<MenuOpen>(false);
  const wrap = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { close, onMenuKey, onButtonKey, onFocusOut } = useMenu({ wrap, button, menu }, open, setOpen);
  const key = `${channelId}:${type}`;
  const list = lists.value[key];
  useEffect(() => {
    if (!(key in lists.value)) refresh(channelId, type);
  }, [key]);
  if (!list?.length) return null;
  const name = type === USER_COMMAND ? `Apps for ${label}` : "Apps";
  const items = list.map((c) => ({
    id: c.id,
    label: c.name,
    title: `${c.application_name}: ${c.name}`,
    run: () => void runContextCommand(channelId, c, type, targetId),
  }));
  function toggle() {
    if (!open) refresh(channelId, type);
    setOpen(open ? false : "first");
  }
  return (
    <span class="apps-menu" ref={wrap} onFocusOut={onFocusOut}>
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? menuId : undefined}
        aria-label={name}
        onClick={toggle}
        onKeyDown={(e) => {
          if (!open && (e.key === "ArrowDown" || e.key === "ArrowUp")) refresh(channelId, type);
          onButtonKey(e);
        }}
      >
        Apps
      </button>
      {open && (
        <MenuList id={menuId} label={`Apps for ${label}`} items={items} menu={menu} onKeyDown={onMenuKey} onPick={() => close(true)} />
      )}
    </span>
  );
}
