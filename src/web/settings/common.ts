/** What the server settings' parts share: the text channels, and a request that shows its outcome. */
import { signal } from "@preact/signals";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { focusLost, useFocusThrough } from "../views/focus";
import type { Channel, Guild } from "../types";
import { channelGroups } from "../channel-groups";

/** The text channels in the order the Channels rail shows them, categories and all, so every picker lists them as people see them. */
export const textChannels = (g: Guild): Channel[] => channelGroups(g, (c) => c.type === 0 || c.type === 5).flatMap((x) => x.channels);

/**
 * What run() answers: the request's answer, `true` for one with no body (a 204: a delete),
 * or null when it failed. So `if (await req.run(...))` reads "if it worked" for every
 * request: a delete's empty answer had read as a failure, and left its confirmation open.
 */
type Outcome<T> = (undefined extends T ? T | true : T) | null;

/**
 * A request that shows its outcome: an error next to the control, or a short status.
 * Its button, disabled while it is busy, keeps keyboard focus through it (useFocusThrough).
 */
export function useRequest() {
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function run<T>(what: () => Promise<T>, done: (r: T) => string): Promise<Outcome<T>> {
    setBusy(true);
    setError(null);
    setStatus("");
    try {
      const r = await what();
      setStatus(done(r));
      return (r === undefined ? true : r) as Outcome<T>;
    } catch (e) {
      setError(e);
      return null;
    } finally {
      setBusy(false);
    }
  }
  return { error, status, busy, run };
}

/** The server whose settings are open in place of its channel, if any. */
export const settingsFor = signal<string | null>(null);

/**
 * Keeps keyboard focus with a row's control while its list is redrawn ("Move #general
 * up" moves the row; "Done" closes the editor it sat in): the control moves, is replaced
 * or, at the list's end, disabled, and Chrome drops focus to the page's body, so a
 * keyboard user had to start again from the top of the page. `keep(key)`, called as the
 * control acts, asks that focus lost by the next redraws go back to the control marked
 * `data-keep={key}`; when that one is disabled now, to the first usable marked control of
 * its row (the other direction). The wish lasts until the person next presses a key or
 * the pointer, so focus never jumps while they are elsewhere.
 */
export function useKeptFocus(): (key: string) => void {
  const wanted = useRef<string | null>(null);
  useLayoutEffect(() => {
    const forget = () => (wanted.current = null);
    document.addEventListener("keydown", forget, true);
    document.addEventListener("pointerdown", forget, true);
    return () => {
      document.removeEventListener("keydown", forget, true);
      document.removeEventListener("pointerdown", forget, true);
    };
  }, []);
  useLayoutEffect(() => {
    const key = wanted.current;
    // A focused control that turned disabled keeps focus until Chrome's next rendering
    // step drops it to the body, after this runs: that counts as lost already.
    if (!key || !(focusLost() || document.activeElement?.matches(":disabled"))) return;
    const el = document.querySelector<HTMLElement>(`[data-keep="${CSS.escape(key)}"]`);
    const usable = el?.matches(":disabled") ? el.closest("li, form")?.querySelector<HTMLElement>("[data-keep]:not(:disabled)") : el;
    usable?.focus();
  });
  return (key) => {
    wanted.current = key;
  };
}
