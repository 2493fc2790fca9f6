/**
 * Search in a server: a `searchbox` named "Search" in the channel header (words,
 * "phrases", from:, in:, has:, mentions:, before:, after:, pinned:; the server parses
 * them), and its results in a region named "Search results", each an `article` with
 * "Jump", a page at a time: "More results" adds the next page and takes focus to the
 * first of it. Only what the person may read comes back; never a DM.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { channelOf, channelLabel } from "../state";
import type { SearchResults } from "../../contract";
import { FoundMessage } from "./FoundMessage";
import { errorText, fieldError } from "./ui";
import { Placeholders } from "./Placeholders";

/** The search's state: the words typed, the answer shown, and the asks that change them. */
function useSearch(guildId: string) {
  const [q, setQ] = useState("");
  const [found, setFound] = useState<SearchResults | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The words of the results shown, for their next page (the box may have changed since).
  const shown = useRef("");
  const box = useRef<HTMLInputElement>(null);
  // Which search is the current one: an answer to any other (closed, or asked again since) is dropped.
  const asked = useRef(0);

  async function run() {
    const mine = ++asked.current;
    if (!q.trim()) return hide();
    setBusy(true);
    // The last answer goes while the next one loads: never an old "No results." for the new words.
    setFound(null);
    setError(null);
    try {
      const answer = await page(q, 0);
      if (mine === asked.current) {
        shown.current = q;
        setFound(answer);
      }
    } catch (e) {
      // What the server said of the words themselves ("A search needs words or filters."), not the form's name for it.
      if (mine === asked.current) setError(fieldError(e, "content") ?? errorText(e));
    } finally {
      if (mine === asked.current) setBusy(false);
    }
  }

  function page(words: string, offset: number): Promise<SearchResults> {
    const zone = -new Date().getTimezoneOffset();
    return api<SearchResults>(
      "GET",
      `/guilds/${guildId}/messages/search?content=${encodeURIComponent(words)}&utc_offset=${zone}&offset=${offset}`,
    );
  }

  /** The next page of the results shown, after them (a message that came meanwhile may shift one over: once is enough). */
  async function more(): Promise<void> {
    if (!found) return;
    const mine = asked.current;
    const next = await page(shown.current, found.messages.length).catch((e) => (setError(errorText(e)), null));
    if (!next || mine !== asked.current) return;
    const known = new Set(found.messages.map((m) => m.id));
    setFound({ ...next, messages: [...found.messages, ...next.messages.filter((m) => !known.has(m.id))] });
  }

  /** The results gone, and a search still on its way with them: its answer is not shown. */
  function hide(): void {
    asked.current++;
    setFound(null);
    setError(null);
    setBusy(false);
  }

  /** Escape in them or Close search: focus goes back to the searchbox, to search again. */
  function close(): void {
    hide();
    box.current?.focus();
  }

  return { q, setQ, found, busy, error, box, run, more, hide, close };
}

export function SearchBox({ guildId }: { guildId: string }) {
  const { q, setQ, found, busy, error, box, run, more, hide, close } = useSearch(guildId);
  return (
    <div class="search">
      <input
        ref={box}
        type="search"
        aria-label="Search"
        placeholder="Search"
        value={q}
        onInput={(e) => setQ(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") void run();
          if (e.key === "Escape") hide();
        }}
      />
      {(found || error || busy) && (
        <section
          class="search-results"
          aria-label="Search results"
          aria-busy={busy}
          onKeyDown={(e) => e.key === "Escape" && (e.preventDefault(), close())}
        >
          {error && <p role="alert">{error}</p>}
          {busy && <Placeholders what="results" rows={2} />}
          {/* Jump takes focus to the message it shows (links.ts). */}
          {found && <Results found={found} guildId={guildId} onJump={hide} onMore={more} />}
          <button type="button" onClick={close}>
            Close search
          </button>
        </section>
      )}
    </div>
  );
}

/** The search's total counts up to this many; a page is 25 (core/search.ts). */
const COUNTED = 1000;

function Results({ found, guildId, onJump, onMore }: { found: SearchResults; guildId: string; onJump(): void; onMore(): Promise<void> }) {
  const list = useRef<HTMLDivElement>(null);
  // After "More results": focus on the first new result's Jump, so the keyboard goes on from there.
  const firstNew = useRef<number | null>(null);
  useLayoutEffect(() => {
    const i = firstNew.current;
    if (i === null || found.messages.length <= i) return;
    firstNew.current = null;
    list.current?.querySelectorAll<HTMLElement>("article.found > button")[i]?.focus();
  }, [found.messages.length]);
  const left = found.messages.length < Math.min(found.total, COUNTED);
  return (
    <>
      <p class="muted">
        {found.total === 0 ? "No results." : found.total === 1 ? "1 result" : `${found.total >= COUNTED ? "1,000+" : found.total} results`}
        {found.indexing ? " (older messages are still being indexed)" : ""}
      </p>
      {found.problems.map((p) => (
        <p key={p} class="muted">
          {p}
        </p>
      ))}
      <div ref={list}>
        {found.messages.map((m) => (
          <FoundMessage
            key={m.id}
            m={m}
            guild={guildId}
            idPrefix="s"
            where={<span class="muted"> in {channelLabel(channelOf(m.channel_id))}</span>}
            onJump={onJump}
          />
        ))}
      </div>
      {left && found.messages.length > 0 && (
        <button
          type="button"
          onClick={() => {
            firstNew.current = found.messages.length;
            void onMore();
          }}
        >
          More results
        </button>
      )}
    </>
  );
}
