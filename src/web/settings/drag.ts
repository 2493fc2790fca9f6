/**
 * Drag and drop for the ordered lists of Server settings (channels, roles), with the
 * browser's own drag events, beside the "Move ... up/down" buttons, which stay: a drag is
 * for a pointer only, the buttons are for everyone. A row is a source (`source(id)`), and
 * a row, a category's heading or a list is a place to drop (`zone(key)`); the drop lands
 * before the row under the pointer, or after it when the pointer is in its lower half
 * (always at the end of a list, and at the start of a category's heading). `mark(key)`
 * names the class that shows where it would land while the pointer is there.
 */
import { useRef, useState } from "preact/hooks";

/** Where a drop lands: the key of what it was dropped on, and whether after it. */
export interface DropAt {
  key: string;
  after: boolean;
}

/** A zone's kind: a row splits at its middle; a list takes a drop at its end, a heading at its start. */
type Zone = "row" | "end" | "start";

/** The only type a drag from these lists carries, so a drag of text or a file from elsewhere is not taken for a row. */
const TYPE = "application/x-parley-row";

export function useDragRows(onDrop: (id: string, at: DropAt) => void) {
  const dragged = useRef<string | null>(null);
  const [at, setAt] = useState<DropAt | null>(null);
  const [dragging, setDragging] = useState(false);
  function end(): void {
    dragged.current = null;
    setDragging(false);
    setAt(null);
  }
  function source(id: string, enabled: boolean) {
    if (!enabled) return { draggable: false };
    return {
      draggable: true,
      onDragStart: (e: DragEvent) => {
        // Only the row itself: a drag begun on a control inside it (text in a select) is the control's.
        if (e.target !== e.currentTarget) return;
        e.dataTransfer?.setData(TYPE, id);
        if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
        dragged.current = id;
        setDragging(true);
      },
      onDragEnd: end,
    };
  }
  function where(e: DragEvent, kind: Zone): boolean {
    if (kind === "row") {
      const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
      return e.clientY > box.top + box.height / 2;
    }
    return kind === "end";
  }
  function zone(key: string, kind: Zone = "row") {
    return {
      onDragOver: (e: DragEvent) => {
        if (!dragged.current) return;
        // Taken here, so a list holding the row does not take it too.
        e.preventDefault();
        e.stopPropagation();
        if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
        const after = where(e, kind);
        setAt((now) => (now?.key === key && now.after === after ? now : { key, after }));
      },
      onDrop: (e: DragEvent) => {
        const id = dragged.current;
        if (!id) return;
        e.preventDefault();
        e.stopPropagation();
        const after = where(e, kind);
        end();
        onDrop(id, { key, after });
      },
    };
  }
  /** The class of a zone while a drop there would land before or after it. */
  const mark = (key: string) => (at?.key === key ? (at.after ? "drop-after" : "drop-before") : undefined);
  return { dragging, source, zone, mark };
}
