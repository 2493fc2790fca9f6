/**
 * The phone's two drawers (navigation and members): one open at a time, closed by
 * Escape or by a tap outside it (a backdrop behind the open drawer).
 */
import { useLayoutEffect, useState } from "preact/hooks";

export type Drawer = "menu" | "members" | null;

export function useDrawers() {
  const [open, setOpen] = useState<Drawer>(null);
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) setOpen(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return {
    open,
    toggle: (d: Exclude<Drawer, null>) => setOpen((now) => (now === d ? null : d)),
    close: () => setOpen(null),
  };
}

/** Behind an open drawer: a tap on it closes the drawer. Only shown at phone width (styles.css). */
export function Backdrop({ onClose }: { onClose(): void }) {
  return <div class="drawer-backdrop" aria-hidden="true" onClick={onClose} />;
}
