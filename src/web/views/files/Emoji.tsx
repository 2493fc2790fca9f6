/**
 * A server's own emoji (issue 31): `<:name:id>` in a message and `name:id` in a reaction
 * show as the image (`/emojis/{id}.png`), named `:name:`; anything else stays text. The
 * picker (views/emoji) offers the open server's emoji first.
 */
import { useState } from "preact/hooks";

const CUSTOM = /^(?:a:)?([A-Za-z0-9_]{2,32}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function CustomEmoji({ id, name, animated = false }: { id: string; name: string; animated?: boolean }) {
  // An emoji its server deleted has no image any more: its name, as text, not a broken picture.
  const [gone, setGone] = useState(false);
  if (gone) return <span class="emoji">:{name}:</span>;
  return (
    <img
      class="emoji custom"
      src={`/emojis/${id}.${animated ? "gif" : "png"}`}
      alt={`:${name}:`}
      width={22}
      height={22}
      onError={() => setGone(true)}
    />
  );
}

/** A reaction's emoji as people's answers write it (`👍` or `name:id`). */
export function ReactionFace({ emoji }: { emoji: string }) {
  const m = CUSTOM.exec(emoji);
  return m ? <CustomEmoji id={m[2]!} name={m[1]!} animated={emoji.startsWith("a:")} /> : <>{emoji}</>;
}

/** The accessible name of a reaction's emoji: `:name:` for a server's own. */
export function emojiLabel(emoji: string): string {
  const m = CUSTOM.exec(emoji);
  return m ? `:${m[1]}:` : emoji;
}
