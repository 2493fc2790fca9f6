/**
 * Signing out asks once whether to remove this browser's end-to-end device too (its keys
 * and its place among the person's ten), so a shared or borrowed browser leaves nothing
 * behind; keeping it lets this browser read its encrypted DMs after signing in again.
 */
import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import { Confirm } from "./ui";

/** Whether the sign-out question is open. */
export const signOutAsked = signal(false);

export function SignOutDialog({ onSignOut }: { onSignOut(removeDevice: boolean): Promise<void> }) {
  const [remove, setRemove] = useState(true);
  const [busy, setBusy] = useState(false);
  async function go() {
    setBusy(true);
    await onSignOut(remove);
    signOutAsked.value = false;
  }
  return (
    <Confirm title="Sign out?" confirm="Sign out" busy={busy} onConfirm={go} onCancel={() => (signOutAsked.value = false)}>
      <label class="check">
        <input type="checkbox" checked={remove} onChange={(e) => setRemove(e.currentTarget.checked)} />
        Also remove this browser's encryption keys
      </label>
      <p class="hint">Keep them if you will sign in here again and want to read your encrypted direct messages.</p>
    </Confirm>
  );
}
