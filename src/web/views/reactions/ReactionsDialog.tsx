/**
 * "View reactions" from a message's "More" menu: a dialog named "Reactions" with a tab
 * per emoji (the WAI-ARIA APG tabs: arrows, Home and End move between them) and, under the
 * chosen one, the people who reacted with it, a page at a time ("Show more"). A modal as
 * every other (views/modal.ts): focus starts on its heading, Tab goes round inside it and
 * Escape gives focus back to the message.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Message, User } from "../../types";
import { useModal } from "../modal";
import { errorText } from "../ui";
import { Avatar } from "../files/Avatar";
import { emojiLabel, ReactionFace } from "../files/Emoji";
import { Placeholders } from "../Placeholders";
import { nameIn, whoReacted } from "./who";

/** People per page. */
export const PAGE = 25;

export function ReactionsDialog({ m, guild, onClose }: { m: Message; guild: string | null; onClose(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const modal = useModal(onClose, heading);
  const [chosen, setChosen] = useState(m.reactions[0]?.emoji ?? "");
  // A reaction taken back while the dialog is open: the first that is left.
  const current = m.reactions.find((r) => r.emoji === chosen) ?? m.reactions[0];
  return (
    <dialog ref={modal.ref} class="reactions-dialog" aria-labelledby={`rx-title-${m.id}`}>
      <h2 id={`rx-title-${m.id}`} tabIndex={-1} ref={heading}>
        Reactions
      </h2>
      {current ? (
        <>
          <Tabs m={m} chosen={current.emoji} choose={setChosen} />
          <People key={`${current.emoji}|${current.count}`} m={m} emoji={current.emoji} guild={guild} />
        </>
      ) : (
        <p class="muted">Nobody has reacted to this message any more.</p>
      )}
      <div class="buttons">
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
    </dialog>
  );
}

const tabId = (m: Message, i: number) => `rx-tab-${m.id}-${i}`;

function Tabs({ m, chosen, choose }: { m: Message; chosen: string; choose(emoji: string): void }) {
  const list = useRef<HTMLDivElement>(null);
  const at = m.reactions.findIndex((r) => r.emoji === chosen);
  function move(e: KeyboardEvent) {
    const n = m.reactions.length;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1 + n, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const i = to % n;
    choose(m.reactions[i]!.emoji);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(m, i))}`)?.focus();
  }
  return (
    <div role="tablist" aria-label="Emoji" class="rx-tabs" ref={list} onKeyDown={move}>
      {m.reactions.map((r, i) => (
        <button
          key={r.emoji}
          type="button"
          role="tab"
          id={tabId(m, i)}
          aria-selected={i === at}
          aria-controls={`rx-panel-${m.id}`}
          aria-label={`${emojiLabel(r.emoji)} ${r.count}`}
          tabIndex={i === at ? 0 : -1}
          onClick={() => choose(r.emoji)}
        >
          <ReactionFace emoji={r.emoji} /> {r.count}
        </button>
      ))}
    </div>
  );
}

function People({ m, emoji, guild }: { m: Message; emoji: string; guild: string | null }) {
  const [people, setPeople] = useState<User[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  /** Where focus goes once the next page shows: its first person, as "Show more" may go with it. */
  const next = useRef<number | null>(null);
  async function load(after?: User[]) {
    try {
      const page = await whoReacted(m, emoji, PAGE, after?.[after.length - 1]?.id);
      next.current = after && page.length ? after.length : null;
      setPeople([...(after ?? []), ...page]);
      setMore(page.length === PAGE);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }
  useEffect(() => void load(), []);
  useLayoutEffect(() => {
    if (next.current === null) return;
    (list.current?.children[next.current] as HTMLElement | undefined)?.focus();
    next.current = null;
  }, [people]);
  const at = m.reactions.findIndex((r) => r.emoji === emoji);
  return (
    <div role="tabpanel" id={`rx-panel-${m.id}`} aria-labelledby={tabId(m, at)} aria-busy={!people && !error} class="rx-panel">
      {error && <p role="alert">{error}</p>}
      {!people && !error && <Placeholders what="who reacted" rows={2} />}
      {people && (
        <ul class="rx-people" ref={list} aria-label={`Reacted with ${emojiLabel(emoji)}`}>
          {people.map((u) => (
            <li key={u.id} tabIndex={-1}>
              <Avatar user={u} name={nameIn(u, guild)} />
              <span>{nameIn(u, guild)}</span>
            </li>
          ))}
        </ul>
      )}
      {more && (
        <button type="button" onClick={() => void load(people ?? [])}>
          Show more
        </button>
      )}
    </div>
  );
}
