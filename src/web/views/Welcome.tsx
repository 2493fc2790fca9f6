/**
 * Arriving in Parley: "Join a server" (an invite link or code) and "Create a server" as
 * two clear dialogs, opened from the server rail or from the welcome a person without a
 * server sees; the server's reason shows beside the field.
 */
import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import { api } from "../api";
import { open } from "../load";
import { guilds } from "../state";
import type { Guild } from "../types";
import { ErrorLine, Field, errorText, fieldError } from "./ui";
import { useModal } from "./modal";

/** Which of the two dialogs is open. */
export const serverDialog = signal<"join" | "create" | null>(null);

export function Welcome() {
  return (
    <section class="welcome card" aria-labelledby="welcome-title">
      <h2 id="welcome-title" tabIndex={-1}>
        Welcome to Parley
      </h2>
      <p>Join a server with the invite link someone sent you, or create your own and invite people to it.</p>
      <div class="buttons">
        <button type="button" class="primary" onClick={() => (serverDialog.value = "join")}>
          Join a server
        </button>
        <button type="button" onClick={() => (serverDialog.value = "create")}>
          Create a server
        </button>
      </div>
    </section>
  );
}

export function ServerDialogs() {
  const which = serverDialog.value;
  if (!which) return null;
  return <ServerDialog key={which} kind={which} />;
}

/** Focus starts in its field; joined or created, focus goes back to the button that opened it. */
function ServerDialog({ kind }: { kind: "join" | "create" }) {
  const modal = useModal(() => (serverDialog.value = null));
  const [value, setValue] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const close = modal.close;
  const join = kind === "join";
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const code = value.trim().split("/").pop() ?? "";
      const g = join
        ? await api<Guild>("POST", `/invites/${encodeURIComponent(code)}`)
        : await api<Guild>("POST", "/guilds", { name: value.trim() });
      if (!guilds.value.some((x) => x.id === g.id)) guilds.value = [...guilds.value, g];
      close();
      void open({ guild: g.id, channel: null });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const title = join ? "Join a server" : "Create a server";
  const field = join ? undefined : fieldError(error, "name");
  return (
    <dialog ref={modal.ref} aria-labelledby="server-dialog-title">
      <form onSubmit={submit} noValidate>
        <h2 id="server-dialog-title">{title}</h2>
        {join ? (
          <Field
            id="join-code"
            label="Invite link or code"
            value={value}
            onInput={setValue}
            error={error ? errorText(error) : undefined}
            hint="For example https://…/invite/AbCd1234, or AbCd1234."
          />
        ) : (
          <Field id="new-server-name" label="Server name" value={value} onInput={setValue} error={field} />
        )}
        {!join && <ErrorLine error={error && !field ? errorText(error) : undefined} />}
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy || !value.trim()}>
            {join ? "Join" : "Create"}
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
