/**
 * "Change nickname": a person's own name in one server, shown there instead of their
 * display name (the core lets anyone set their own; another's takes Manage Roles and a
 * higher rank, settings/Moderation.tsx). Empty goes back to the display name. The member
 * list and messages follow through the live connection's member update.
 */
import { useRef, useState } from "preact/hooks";
import { api } from "../api";
import { displayName, me, members } from "../state";
import type { Guild } from "../types";
import { useModal } from "./modal";
import { ErrorLine, errorText } from "./ui";

export function MyNickname({ guild }: { guild: Guild }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="server-action" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Change nickname
      </button>
      {open && <NicknameDialog guild={guild} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Focus starts in the box, its text selected, as a rename's does. */
function NicknameDialog({ guild, onClose }: { guild: Guild; onClose(): void }) {
  const box = useRef<HTMLInputElement>(null);
  const modal = useModal(onClose, box);
  const myId = me.value?.id ?? "";
  const now = members.value[guild.id]?.find((m) => m.user.id === myId)?.nick ?? "";
  const [nick, setNick] = useState(now);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function save(e: Event) {
    e.preventDefault();
    // Unchanged: nothing to send (nor a nickname cleared that the page had not loaded yet).
    if ((nick.trim() || null) === (now || null)) return modal.close();
    setBusy(true);
    setError(null);
    try {
      await api("PATCH", `/guilds/${guild.id}/members/${myId}`, { nick: nick.trim() || null });
      modal.close();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <dialog ref={modal.ref} class="pins" aria-labelledby="nick-title">
      <form onSubmit={save} noValidate>
        <h2 id="nick-title">Your nickname in {guild.name}</h2>
        <div class="field">
          <label for="my-nick">Nickname</label>
          <input
            id="my-nick"
            ref={box}
            value={nick}
            maxLength={32}
            placeholder={displayName(me.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "my-nick-hint my-nick-error" : "my-nick-hint"}
            onFocus={(e) => e.currentTarget.select()}
            onInput={(e) => setNick(e.currentTarget.value)}
          />
          <small id="my-nick-hint" class="hint">
            What people in this server see instead of {displayName(me.value)}. Leave it empty to go back to that.
          </small>
          <ErrorLine id="my-nick-error" error={error} />
        </div>
        <div class="buttons">
          <button type="submit" disabled={busy}>
            Save
          </button>
          <button type="button" onClick={modal.close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
