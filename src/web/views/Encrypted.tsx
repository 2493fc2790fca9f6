/**
 * A direct message's body and its mark: the text this device decrypted (or why there is
 * none: before this device, from a removed device, or not openable), a lock on
 * encrypted messages, and "Not end-to-end encrypted" on a bot's plaintext DM (spec 1.6).
 */
import { useEffect } from "preact/hooks";
import { decrypt, openedOf } from "../dm-crypto";
import { Markdown } from "../markdown";
import type { Message } from "../types";
import { displayName } from "../state";

export function EncryptedBody({ m }: { m: Message }) {
  const r = openedOf(m);
  // Again whenever there is no result: a failure for want of this device is dropped once it is ready.
  useEffect(() => decrypt(m), [m.id, m.ciphertext, r === undefined]);
  if (!r) return <p class="muted">Decrypting…</p>;
  if (r.state === "ok") return <Markdown source={r.text} />;
  if (r.state === "before_device") return <p class="muted e2e-note">Encrypted before this device was added.</p>;
  // Its text is not shown: whoever holds a removed device's keys (or the server) could have sealed it.
  if (r.state === "removed_device")
    return (
      <p class="error e2e-note">Sent from a device {displayName(m.author)} removed, so it may not be from them. Its text is not shown.</p>
    );
  return <p class="error e2e-note">This message could not be decrypted.</p>;
}

/** The per-message mark in a DM: a lock, or the warning that a bot's message is plaintext. */
export function E2eMark({ m }: { m: Message }) {
  if (m.ciphertext !== null)
    return (
      <span class="e2e-lock" title="End-to-end encrypted" role="img" aria-label="End-to-end encrypted">
        🔒
      </span>
    );
  return <span class="e2e-plain">Not end-to-end encrypted</span>;
}
