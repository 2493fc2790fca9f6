/**
 * What a reply answers, above it: "Replying to Alice: …", a control that shows the
 * original in the log (links.ts's showOriginal: scrolled to, focused and marked). An
 * original older than the history read so far is "an earlier message" until it is read;
 * one that is gone reads "Original message was deleted" and is no control.
 */
import { useState } from "preact/hooks";
import { showOriginal } from "../../links";
import { logs, memberName } from "../../state";
import type { Message } from "../../types";
import { textOf } from "../../dm-crypto";
import { plainText } from "../../plain-text";

interface Props {
  channelId: string;
  /** The original's id. */
  id: string;
  guild: string | null;
}

export function ReplyRef({ channelId, id, guild }: Props) {
  const [gone, setGone] = useState(false);
  const log = logs.value[channelId];
  const target = log?.list.find((x) => x.id === id);
  // Not among messages read back past it (ids grow with time): it was deleted.
  const deleted = gone || (!target && !!log && (log.complete || (log.list.length > 0 && log.list[0].id < id)));
  if (deleted)
    return (
      <div class="reply-ref">
        <span aria-hidden="true">↪ </span>
        Original message was deleted
      </div>
    );
  const show = async () => {
    if (!(await showOriginal(guild, channelId, id))) setGone(true);
  };
  return (
    <div class="reply-ref">
      <span aria-hidden="true">↪ </span>
      <button type="button" class="quote" title="Jump to the message" onClick={show}>
        {target ? (
          <>
            Replying to <b>{memberName(target.author.id, guild)}</b>: <span class="snippet">{snippet(target, guild)}</span>
          </>
        ) : (
          "Replying to an earlier message"
        )}
      </button>
    </div>
  );
}

/** The original's words as one plain line: mentions by name, no Markdown marks, a spoiler kept hidden. */
function snippet(target: Message, guild: string | null): string {
  const text = target.ciphertext === null ? target.content : textOf(target);
  return text === null ? "an encrypted message" : plainText(text, guild).slice(0, 100);
}
