/**
 * Asked when a channel moves into a category whose permissions differ from its own, and
 * the person may give it the category's: "Sync permissions with <category>" moves it and
 * takes them (`lock_permissions`, as the reference does), "Keep its permissions" only moves
 * it, Cancel leaves it where it was. Either way, one request.
 */
import { useRef } from "preact/hooks";
import type { Channel } from "../types";
import { useModal } from "../views/modal";

export function MoveInto(props: { channel: Channel; category: Channel; onMove(lock: boolean): void; onCancel(): void }) {
  const { channel, category } = props;
  const start = useRef<HTMLButtonElement>(null);
  const modal = useModal(props.onCancel, start);
  return (
    <dialog ref={modal.ref} class="confirm" aria-labelledby="move-into-title">
      <h2 id="move-into-title">
        Move #{channel.name} into {category.name}?
      </h2>
      <div class="confirm-body">
        <p>
          Its permissions differ from {category.name}'s. It can take them, and then follow {category.name}'s changes, or keep its own.
        </p>
      </div>
      <div class="buttons">
        <button type="button" class="primary" ref={start} onClick={() => props.onMove(true)}>
          Sync permissions with {category.name}
        </button>
        <button type="button" onClick={() => props.onMove(false)}>
          Keep its permissions
        </button>
        <button type="button" onClick={modal.close}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
