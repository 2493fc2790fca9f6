/**
 * A draft per channel: what the person typed and did not send stays with the channel
 * through a switch and a reload (this browser's storage, per person), and goes once
 * sent or emptied.
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { me } from "./state";

const key = (channelId: string) => `parley.draft.${me.value?.id ?? "anyone"}.${channelId}`;

function read(channelId: string): string {
  try {
    return localStorage.getItem(key(channelId)) ?? "";
  } catch {
    return "";
  }
}

function write(channelId: string, text: string): void {
  try {
    if (text.trim()) localStorage.setItem(key(channelId), text);
    else localStorage.removeItem(key(channelId));
  } catch {
    // Storage full or refused: the draft lives as long as the page.
  }
}

/** Keep the composer's text as the open channel's draft; call after the composer's own reset on a switch. */
export function useDraft(channelId: string, text: string, setText: (t: string) => void): void {
  // The channel whose draft the box shows: on a switch the old text must not land in the new channel.
  const shown = useRef<string | null>(null);
  // Before the browser hands the page any input: a deferred effect would land after what
  // the person typed the moment the box appeared, and wipe it.
  useLayoutEffect(() => {
    shown.current = channelId;
    setText(read(channelId));
  }, [channelId]);
  useEffect(() => {
    if (shown.current === channelId) write(channelId, text);
  }, [text]);
}
