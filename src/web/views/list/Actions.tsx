/**
 * What a person can do with a message, in one place: the "More" menu (Reply, Add
 * reaction, View reactions, Edit, Delete, Pin or Unpin, Mark unread (someone else's), Copy
 * link, and Copy message ID in developer mode, as the person may; Delete of someone
 * else's message asks first), the message's keyboard shortcuts when it has focus (Enter
 * opens "More", R replies, E edits one's own), and on a touch screen a press and hold
 * that opens the same menu (moving the finger, as to scroll, cancels it). An application's message commands stay under
 * their own "Apps" button beside "More".
 */
import { useRef, useState } from "preact/hooks";
import { deleteMessage } from "../../actions";
import { markUnread } from "../../load";
import { copyLink } from "../../links";
import { botIdPath, copyBotId, developerMode } from "../../devmode";
import { textOf } from "../../dm-crypto";
import { BIT } from "../../names";
import type { Message } from "../../types";
import { AppsMenu, MESSAGE_COMMAND } from "../AppsMenu";
import { Confirm } from "../ui";
import { pinAction } from "../Pins";
import { type MenuItem, MoreMenu } from "./MoreMenu";
import { clicked } from "./roving";
import { holdsIn } from "../composer/rights";

/** The keys a focused message answers, for `aria-keyshortcuts` (read out by screen readers). */
export function messageKeys(items: MenuItem[]): string | undefined {
  const has = (label: string) => items.some((i) => i.label === label);
  const keys = [items.length ? "Enter" : "", has("Reply") ? "R" : "", has("Edit") ? "E" : ""].filter(Boolean);
  return keys.length ? keys.join(" ") : undefined;
}

/** How long a finger rests on a message before its menu opens. */
const HOLD_MS = 500;
/** A finger that moves further than this is scrolling, not holding. */
const SLOP_PX = 10;

interface Hooks {
  onReply(m: Message): void;
  onEdit(): void;
  onReact(): void;
  /** Someone else's message: ask before deleting it (see `deleteAndMoveOn`). */
  onAskDelete(): void;
  /** Who reacted with each emoji, in a dialog. */
  onViewReactions(): void;
}

/**
 * Whether the person may delete someone else's message, as the server decides it
 * (core/messages.ts deleteAs): Manage Messages in that server channel, its overwrites
 * applied (ownership and Administrator hold it), never in a DM. An ephemeral answer was
 * never stored to delete.
 */
function mayDeleteOthers(m: Message, guild: string | null): boolean {
  if (guild === null || m.ephemeral) return false;
  return holdsIn(m.channel_id, BIT.MANAGE_MESSAGES);
}

/** Deletes the message; focus goes on to a neighbour rather than falling out of the log with it. */
export function deleteAndMoveOn(m: Message, el: HTMLElement | null): void {
  const near = (el?.nextElementSibling ?? el?.previousElementSibling) as HTMLElement | null;
  void deleteMessage(m).then(() => near?.isConnected && near.tagName === "ARTICLE" && near.focus());
}

export function messageItems(m: Message, guild: string | null, mine: boolean, hooks: Hooks, self: () => HTMLElement | null): MenuItem[] {
  const items: MenuItem[] = [];
  if (!m.ephemeral) {
    items.push({ label: "Reply", run: () => hooks.onReply(m) });
    items.push({ label: "Add reaction", run: hooks.onReact });
  }
  if (m.reactions.length) items.push({ label: "View reactions", run: hooks.onViewReactions });
  if (mine && (!m.ciphertext || textOf(m) !== null)) items.push({ label: "Edit", run: hooks.onEdit });
  // One's own goes at once, as it always has; another's words are not removed by one slip.
  if (mine) items.push({ label: "Delete", run: () => deleteAndMoveOn(m, self()) });
  else if (mayDeleteOthers(m, guild)) items.push({ label: "Delete", run: hooks.onAskDelete });
  const pin = pinAction(m, guild);
  if (pin) items.push(pin);
  // Someone else's: one's own messages are never unread to oneself.
  if (!m.ephemeral && !mine) items.push({ label: "Mark unread", run: () => void markUnread(m) });
  if (!m.ephemeral) items.push({ label: "Copy link", run: () => void copyLink(guild, m.channel_id, m.id) });
  if (!m.ephemeral && developerMode.value)
    items.push({ label: "Copy message ID", run: () => void copyBotId("Message", botIdPath.message(m.channel_id, m.id)) });
  return items;
}

type Open = false | "first" | "last";

/** The menu's state, the message's own keys and the press and hold, for the message's `article`. */
export function useMessageActions(items: MenuItem[]) {
  const [open, setOpen] = useState<Open>(false);
  const hold = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  /** The last touch opened the menu: its lifting must not also click (and so focus away and close it). */
  const held = useRef(false);

  function cancel(): void {
    if (hold.current) clearTimeout(hold.current.timer);
    hold.current = null;
  }

  const article = {
    onKeyDown(e: KeyboardEvent) {
      if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      // After a click, letters are writing, not shortcuts (list/roving.ts).
      if (key.length === 1 && clicked(e.currentTarget as HTMLElement)) return;
      const run = (label: string) => items.find((i) => i.label === label)?.run();
      if (key === "Enter" && items.length) setOpen("first");
      else if (key === "r") run("Reply");
      else if (key === "e") run("Edit");
      else return;
      e.preventDefault();
    },
    onPointerDown(e: PointerEvent) {
      if (e.pointerType !== "touch" || !items.length) return;
      cancel();
      held.current = false;
      const timer = setTimeout(() => {
        held.current = true;
        setOpen("first");
      }, HOLD_MS);
      hold.current = { x: e.clientX, y: e.clientY, timer };
    },
    onPointerMove(e: PointerEvent) {
      const h = hold.current;
      if (h && Math.hypot(e.clientX - h.x, e.clientY - h.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onTouchEnd(e: TouchEvent) {
      if (held.current) e.preventDefault();
    },
    // The hold opens the menu: not the browser's own context menu as well.
    onContextMenu(e: MouseEvent) {
      if (held.current || hold.current || (e as PointerEvent).pointerType === "touch") e.preventDefault();
    },
  };
  return { open, setOpen, article };
}

export function MessageActions({ m, items, open, setOpen }: { m: Message; items: MenuItem[]; open: Open; setOpen(o: Open): void }) {
  return (
    <div class={`actions${open ? " open" : ""}`}>
      <MoreMenu id={m.id} items={items} open={open} setOpen={setOpen} />
      {!m.ephemeral && <AppsMenu channelId={m.channel_id} type={MESSAGE_COMMAND} targetId={m.id} label="this message" />}
    </div>
  );
}

/**
 * "Delete message?" before a moderator removes someone else's message (Confirm: focus
 * starts on Cancel, and goes back to "More" if they keep it).
 */
export function DeleteConfirm({ m, name, self, onDone }: { m: Message; name: string; self(): HTMLElement | null; onDone(): void }) {
  return (
    <Confirm
      title="Delete message?"
      confirm="Delete"
      onConfirm={() => {
        // Closed first, so focus is back in the log before the message (and this dialog in it) goes.
        onDone();
        deleteAndMoveOn(m, self());
      }}
      onCancel={onDone}
    >
      <p>{name}'s message is removed for everyone. This cannot be undone.</p>
    </Confirm>
  );
}
