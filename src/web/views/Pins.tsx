/**
 * Pins in the web client: "Pin" / "Unpin" in a message's "More" menu for those who may (Manage
 * Messages in a server, either person in a DM), the notice a pin posts, and "Pinned
 * messages" in the channel header: a dialog of the channel's pins, each with "Jump".
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { memberName, showNotice } from "../state";
import { BIT } from "../names";
import { holdsIn } from "./composer/rights";
import type { Channel, Message } from "../types";
import type { PinsPage } from "../../contract";
import { jumpTo } from "../links";
import { FoundMessage } from "./FoundMessage";
import { errorText } from "./ui";
import { Placeholders } from "./Placeholders";
import { useModal } from "./modal";

/** The reference's type for the notice a pin posts (its `reply_to` names the pinned message). */
export const PINNED_NOTICE = 6;

/** Either person in a DM; in a server, Manage Messages in that channel, its overwrites applied, as the server decides. */
function mayPin(m: Message, guild: string | null): boolean {
  return guild === null || holdsIn(m.channel_id, BIT.MANAGE_MESSAGES);
}

/** "Pin" or "Unpin" for a message, when the person may; null when not. */
export function pinAction(m: Message, guild: string | null): { label: string; run(): void } | null {
  if (m.ephemeral || m.type === PINNED_NOTICE || !mayPin(m, guild)) return null;
  async function toggle() {
    try {
      await api(m.pinned ? "DELETE" : "PUT", `/channels/${m.channel_id}/pins/${m.id}`);
    } catch (e) {
      showNotice(errorText(e));
    }
  }
  return { label: m.pinned ? "Unpin" : "Pin", run: () => void toggle() };
}

/** The body of a pin's notice: "Alice pinned a message." */
export function PinNotice({ m, guild }: { m: Message; guild: string | null }) {
  return (
    <p class="system">
      {memberName(m.author.id, guild)} pinned a message.
      {m.reply_to && guild && (
        <>
          {" "}
          <button type="button" class="link" onClick={() => void jumpTo(guild, m.channel_id, m.reply_to!)}>
            Jump
          </button>
        </>
      )}
    </p>
  );
}

export function PinnedMessages({ channel }: { channel: Channel }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="header-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Pinned messages
      </button>
      {open && <PinsDialog channel={channel} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The pins, a list to read: focus starts on its heading. */
function PinsDialog({ channel, onClose }: { channel: Channel; onClose(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const modal = useModal(onClose, heading);
  const [page, setPage] = useState<PinsPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const guild = channel.guild_id;
  useEffect(() => {
    void api<PinsPage>("GET", `/channels/${channel.id}/pins`)
      .then(setPage)
      .catch((e) => setError(errorText(e)));
  }, [channel.id]);
  return (
    <dialog ref={modal.ref} class="pins" aria-labelledby="pins-title" aria-busy={!page && !error}>
      <h2 id="pins-title" tabIndex={-1} ref={heading}>
        Pinned messages
      </h2>
      {error && <p role="alert">{error}</p>}
      {!page && !error && <Placeholders what="pinned messages" rows={2} />}
      {page && !page.items.length && <p class="muted">Nothing is pinned in this channel yet.</p>}
      {page?.items.map(({ message: m }) => (
        <FoundMessage key={m.id} m={m} guild={guild} idPrefix="pin" onJump={modal.close} />
      ))}
      <div class="buttons">
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
    </dialog>
  );
}
