/**
 * A message's reactions: one toggle per emoji ("👍 2", pressed when one's own is among
 * them). Hovering or focusing one shows who reacted, as a tooltip that is also the
 * button's accessible description; the names are asked for then, not with every message.
 * The tooltip stays while the pointer is over it and Escape hides it (WCAG 1.4.13).
 */
import { useEffect, useState } from "preact/hooks";
import { toggleReaction } from "../../actions";
import type { Message, Reaction } from "../../types";
import { ReactionFace } from "../files/Emoji";
import { focusWhenGone } from "../focus";
import { countSentence, NAMED, nameIn, whoReacted, whoSentence } from "./who";

export function ReactionBar({ m, guild }: { m: Message; guild: string | null }) {
  if (!m.reactions.length) return null;
  return (
    <fieldset class="reactions" aria-label="Reactions">
      {m.reactions.map((r, i) => (
        <ReactionButton key={r.emoji} m={m} r={r} guild={guild} index={i} />
      ))}
    </fieldset>
  );
}

function keepFocusNearby(button: HTMLElement, index: number): void {
  const bar = button.closest("fieldset");
  const article = button.closest("article");
  focusWhenGone(button, () => {
    const left = bar?.isConnected ? Array.from(bar.querySelectorAll<HTMLElement>("button.reaction")) : [];
    return left[Math.min(index, left.length - 1)] ?? article;
  });
}

function ReactionButton({ m, r, guild, index }: { m: Message; r: Reaction; guild: string | null; index: number }) {
  const [active, setActive] = useState({ hover: false, focus: false });
  const [hidden, setHidden] = useState(false);
  const [said, setSaid] = useState<{ key: string; text: string } | null>(null);
  // The names are asked for again when the reaction changes under the person's eyes.
  const key = `${r.count}|${r.me}`;
  const on = active.hover || active.focus;
  useEffect(() => {
    if (!on || said?.key === key) return;
    let gone = false;
    void whoReacted(m, r.emoji, NAMED)
      .then(
        (list) =>
          !gone &&
          setSaid({
            key,
            text: whoSentence(
              list.map((u) => nameIn(u, guild)),
              r.count,
              r.emoji,
            ),
          }),
      )
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [on, key]);
  const id = `who-${m.id}-${index}`;
  const text = said?.key === key ? said.text : countSentence(r.count, r.emoji);
  const set = (part: "hover" | "focus", v: boolean) => {
    setActive((a) => ({ ...a, [part]: v }));
    if (!v) setHidden(false);
  };
  return (
    <span class="reaction-wrap" onPointerEnter={() => set("hover", true)} onPointerLeave={() => set("hover", false)}>
      <button
        type="button"
        class="reaction"
        aria-pressed={r.me}
        aria-describedby={id}
        onClick={(e) => {
          // One's own reaction that was the only one of its kind: its button goes with it,
          // and focus moves on to the reaction beside it, else to the message.
          if (r.me && r.count === 1) keepFocusNearby(e.currentTarget, index);
          void toggleReaction(m, r.emoji, r.me);
        }}
        onFocus={() => set("focus", true)}
        onBlur={() => set("focus", false)}
        onKeyDown={(e) => {
          if (e.key !== "Escape" || !on || hidden) return;
          // Escape hides the tooltip only; the next Escape goes on to whatever else listens.
          e.stopPropagation();
          setHidden(true);
        }}
      >
        <ReactionFace emoji={r.emoji} /> {r.count}
      </button>
      <span id={id} role="tooltip" class="tooltip" hidden={!on || hidden}>
        {text}
      </span>
    </span>
  );
}
