/**
 * Following the conversation: while the reader is at the bottom of the log, the log
 * stays at the bottom whatever changes its height (a new message, and also a quote, a
 * list or a picture that settles after the message was laid out: a ResizeObserver
 * watches the content). Scrolled up, "Jump to present" brings the reader back.
 */
import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { linked } from "../../links";

/** Closer than this to the bottom counts as at the bottom. */
const NEAR_PX = 40;

export function useFollow(box: RefObject<HTMLDivElement | null>, content: RefObject<HTMLDivElement | null>, channelId: string) {
  const pinned = useRef(true);
  const [away, setAway] = useState(false);
  /** The log's height when last measured: a scroll that comes with a new height is the browser's, not the reader's. */
  const height = useRef<number | null>(null);

  useEffect(() => {
    pinned.current = true;
    setAway(false);
  }, [channelId]);

  // A jump to a message (links.ts) is to show that message: the log stops following the
  // newest, or a resize in the same frame (the search results closing) would snap it back
  // to the bottom. The jump's scroll then says whether the reader is at the bottom after all.
  const target = linked.value;
  useLayoutEffect(() => {
    if (target) pinned.current = false;
  }, [target]);

  useEffect(() => {
    const el = box.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(() => {
      height.current = el.clientHeight;
      if (pinned.current) el.scrollTop = el.scrollHeight;
    });
    watch.observe(inner);
    watch.observe(el);
    return () => watch.disconnect();
  }, [box.current, content.current]);

  /** Called from the log's scroll handler: whether the reader is (still) at the bottom. */
  function scrolled(): void {
    const el = box.current!;
    // The log shrank (the composer grew, a phone's keyboard opened) and the browser moved
    // its scroll before the ResizeObserver could follow: the reader did not scroll away.
    if (pinned.current && height.current !== null && el.clientHeight !== height.current) {
      height.current = el.clientHeight;
      el.scrollTop = el.scrollHeight;
      return;
    }
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_PX;
    setAway(!pinned.current);
  }

  function jump(): void {
    const el = box.current;
    if (!el) return;
    pinned.current = true;
    el.scrollTop = el.scrollHeight;
    setAway(false);
  }

  return { pinned, away, scrolled, jump };
}

/** Keeps the view where the person was: at the bottom for new messages, in place when older ones come in on top. */
export function useKeepPlace(
  box: RefObject<HTMLDivElement | null>,
  firstId: string | undefined,
  pinned: RefObject<boolean>,
  channelId: string,
) {
  const before = useRef<{ height: number; first: string | undefined } | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const b = before.current;
    if (b && b.first !== firstId) el.scrollTop += el.scrollHeight - b.height;
    // Only when the log grew (or is new): a re-render that changed nothing of its height
    // (a message focused by a click) must not move what is under the pointer.
    else if (pinned.current && el.scrollHeight !== b?.height) el.scrollTop = el.scrollHeight;
    before.current = { height: el.scrollHeight, first: firstId };
  });
  useEffect(() => {
    before.current = null;
  }, [channelId]);
}

export function JumpToPresent({ onJump }: { onJump(): void }) {
  return (
    <button type="button" class="jump-present" onClick={onJump}>
      Jump to present
    </button>
  );
}

/** The divider before the first message that arrived since the reader last read the channel. */
export function NewDivider() {
  return (
    <div class="new-divider">
      <hr aria-label="New messages" />
      <span aria-hidden="true">New messages</span>
    </div>
  );
}
