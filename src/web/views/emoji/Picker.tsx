/**
 * The emoji picker (issue 28): a dialog "Emoji" with a searchbox "Search emoji", the
 * open server's own emoji first, then unicode. The composer's "Emoji" button and a
 * message's "Add reaction" open the same picker; each names its choices its own way
 * (":smile:" to insert, "React with 😄" to react). `:sho` typed in the composer opens a
 * listbox "Emoji" of the matches.
 */
import type { RefObject } from "preact";
import { useLayoutEffect, useState } from "preact/hooks";
import { CustomEmoji } from "../files/Emoji";
import { type EmojiChoice, emojiChoices } from "./choices";
import { Suggestions } from "../composer/Suggestions";
import { useCaretNow } from "../composer/caret";
import { useModal } from "../modal";

interface PickerProps {
  guildId: string | null;
  /** A choice's accessible name. */
  nameOf(c: EmojiChoice): string;
  onPick(c: EmojiChoice): void;
  onClose(): void;
}

/** Focus starts in its searchbox (Enter there takes the first match); a choice, Close, Escape or a click beside it close it. */
export function EmojiPicker({ guildId, nameOf, onPick, onClose }: PickerProps) {
  const modal = useModal(onClose);
  const [query, setQuery] = useState("");
  const list = emojiChoices(guildId, query.trim());
  const choose = (c: EmojiChoice) => {
    onPick(c);
    modal.close();
  };
  // Enter in the searchbox takes the first match, as typing "tada" and Enter means.
  const onSearchKey = (e: KeyboardEvent) => {
    if (e.key !== "Enter" || !query.trim() || !list.length) return;
    e.preventDefault();
    choose(list[0]!);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes it; the keyboard has Escape and Close
    <dialog ref={modal.ref} class="emoji-picker" aria-label="Emoji" onClick={(e) => e.target === e.currentTarget && modal.close()}>
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onSearchKey}
      />
      <fieldset class="emoji-grid" aria-label="Emoji choices">
        {list.map((c) => (
          <button key={c.reaction} type="button" aria-label={nameOf(c)} title={c.name} onClick={() => choose(c)}>
            <Face c={c} />
          </button>
        ))}
        {!list.length && <p class="muted">No emoji matches “{query}”.</p>}
      </fieldset>
      <button type="button" onClick={modal.close}>
        Close
      </button>
    </dialog>
  );
}

function Face({ c }: { c: EmojiChoice }) {
  return c.custom ? <CustomEmoji id={c.custom.id} name={c.custom.name} animated={c.custom.animated} /> : <>{c.char}</>;
}

/** The `:sho` being typed before the caret (two characters at least), if any. */
const COLON_QUERY = /(^|\s):([A-Za-z0-9_+-]{2,32})$/;

/** `:shortcode` completion for the composer: call `onKeyDown` first (true: it handled the key) and render `list`. */
export function useEmojiCompleter(
  guildId: string | null,
  text: string,
  /** The composer's text replaced, the caret put at `at` (views/composer/caret.ts). */
  replace: (next: string, at: number) => void,
  box: RefObject<HTMLTextAreaElement | null>,
) {
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState<string | null>(null);
  const caret = useCaretNow(box, text);
  const before = text.slice(0, caret.at);
  const query = COLON_QUERY.exec(before)?.[2];
  const shown = query === undefined || closed === before ? [] : emojiChoices(guildId, query, 10);
  useLayoutEffect(() => setActive(0), [query]);

  function pick(c: EmojiChoice) {
    const start = caret.at - query!.length - 1;
    caret.placed(start + c.text.length + 1);
    replace(`${text.slice(0, start)}${c.text} ${text.slice(caret.at)}`, start + c.text.length + 1);
  }

  function onKeyDown(e: KeyboardEvent): boolean {
    if (!shown.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") setActive((active + (e.key === "ArrowDown" ? 1 : -1) + shown.length) % shown.length);
    else if (e.key === "Enter" || e.key === "Tab") pick(shown[active]!);
    else if (e.key === "Escape") setClosed(before);
    else return false;
    e.preventDefault();
    return true;
  }

  const options = shown.map((c, i) => ({
    id: `emoji-${i}`,
    label: c.name,
    children: (
      <>
        <Face c={c} /> {c.name}
      </>
    ),
  }));
  const list = shown.length ? (
    <Suggestions id="emoji-options" label="Emoji" options={options} active={active} onPick={(i) => pick(shown[i]!)} />
  ) : null;
  const aria = shown.length ? { "aria-controls": "emoji-options", "aria-activedescendant": `emoji-${active}` } : {};
  return { onKeyDown, list, aria };
}

/** The composer's "Emoji" button and its picker, inserting at the caret. */
export function EmojiButton({ guildId, onInsert }: { guildId: string | null; onInsert(text: string): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="emoji-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Emoji
      </button>
      {open && <EmojiPicker guildId={guildId} nameOf={(c) => c.name} onPick={(c) => onInsert(c.text)} onClose={() => setOpen(false)} />}
    </>
  );
}
