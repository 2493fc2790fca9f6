/**
 * The phone's two drawers (navigation and members): one open at a time, closed by
 * Escape or by a tap outside it (a backdrop behind the open drawer). Closed with focus
 * inside it (Escape, a channel picked), focus goes back to the button that opened it
 * rather than fall to the page's body as the drawer hides.
 */
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { focusReturn } from "./focus";

export type Drawer = "menu" | "members" | null;

/** Each drawer's element, the id its button's `aria-controls` names. */
const ELEMENT: Record<Exclude<Drawer, null>, string> = { menu: "navigation", members: "members" };

export function useDrawers() {
  const [open, setOpen] = useState<Drawer>(null);
  const giveBack = useRef<(closing: Element) => void>(() => undefined);

  function close(): void {
    const drawer = open && document.getElementById(ELEMENT[open]);
    setOpen(null);
    if (drawer) giveBack.current(drawer);
  }

  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      // Escape in a dialog opened from the drawer (a profile card) closes the dialog only.
      if (e.key === "Escape" && !e.defaultPrevented && !(e.target as Element).closest("dialog")) close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  function toggle(d: Exclude<Drawer, null>): void {
    if (open === d) return close();
    giveBack.current = focusReturn();
    setOpen(d);
  }

  return { open, toggle, close };
}

/** Behind an open drawer: a tap on it closes the drawer. Only shown at phone width (styles.css). */
export function Backdrop({ onClose }: { onClose(): void }) {
  return <div class="drawer-backdrop" aria-hidden="true" onClick={onClose} />;
}

/** The button that opens and closes one drawer: expanded while it is open, controlling its element. */
export function DrawerButton({
  drawers,
  which,
  class: className,
  children,
}: {
  drawers: ReturnType<typeof useDrawers>;
  which: Exclude<Drawer, null>;
  class: string;
  children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      class={className}
      aria-expanded={drawers.open === which}
      aria-controls={ELEMENT[which]}
      onClick={() => drawers.toggle(which)}
    >
      {children}
    </button>
  );
}
