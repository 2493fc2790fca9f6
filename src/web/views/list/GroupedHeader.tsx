/**
 * The header of a message grouped under the one before: the author's name stays in the
 * article's accessible name (screen readers still hear who wrote it) but is not shown;
 * the time shows as the clock alone, beside the text.
 */
import type { Message } from "../../types";
import { E2eMark } from "../Encrypted";

export function GroupedHeader({ m, name, dm }: { m: Message; name: string; dm: boolean }) {
  const d = new Date(m.created_at);
  return (
    <header class="grouped-header">
      <span id={`a-${m.id}`} class="sr-only">
        {name}
      </span>
      <time dateTime={m.created_at} title={d.toLocaleString()}>
        {d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}
      </time>
      {m.edited_at && <span class="edited">(edited)</span>}
      {dm && <E2eMark m={m} />}
    </header>
  );
}
